/**
 * The published package is the library: what `npm pack` ships, the manifest a user installs, the Node floor it
 * declares, and the import boundary that keeps the benchmark and the provider emulators out of the library build.
 *
 * Packing runs the package's own prepack / postpack hooks (scripts/pack.mjs) with TOOL_ATTENTION_PACK_PREBUILT=1,
 * so the dist/ already built here is packed instead of rebuilt; "files" in package.json is what leaves out the parts
 * only a full build has (dist/bench, dist/emulators, source maps), and this test checks that it does.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

/** Every .ts file under a directory, as paths relative to src/ with "/" separators. */
function sourceFiles(dir = join(ROOT, "src")): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith(".ts")) out.push(relative(join(ROOT, "src"), path).split(sep).join("/"));
  }
  return out;
}

/** Modules of the benchmark and the emulators: in the repository, never in the package. */
const repositoryOnly = (file: string) => file.startsWith("bench/") || file.startsWith("emulators/");

/** The import specifiers of a source file (static, re-exports and dynamic). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, "src", file), "utf8");
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)"([^"]+)"/g)].map((m) => m[1]);
}

async function npm(args: string[]): Promise<string> {
  if (!existsSync(join(ROOT, "dist", "index.js"))) {
    const r = spawnSync(process.execPath, [join(ROOT, "scripts", "build.mjs"), "--all"], { cwd: ROOT, encoding: "utf8" });
    assert.equal(r.status, 0, `the build failed:\n${r.stdout}${r.stderr}`);
  }
  const { stdout } = await run("npm", args, {
    cwd: ROOT,
    env: { ...process.env, TOOL_ATTENTION_PACK_PREBUILT: "1" },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

test("nothing outside src/bench imports the benchmark, and the library imports no emulator", () => {
  const offenders: string[] = [];
  for (const file of sourceFiles()) {
    if (repositoryOnly(file)) continue;
    for (const spec of importsOf(file))
      if (spec.startsWith(".") && /(^|\/)(bench|emulators)\//.test(new URL(spec, `file:///src/${file}`).pathname.slice("/src/".length)))
        offenders.push(`${file} imports ${spec}`);
  }
  assert.deepEqual(offenders, []);
});

test("npm pack ships the library and CLI build, README, LICENSE, the demo catalog, the static token table and the screen's weight table, nothing else", async () => {
  const [info] = JSON.parse(await npm(["pack", "--dry-run", "--json", "--loglevel=error"])) as [{ files: { path: string; mode: number }[] }];
  const files = info.files.map((f) => f.path).sort();

  const library = sourceFiles().filter((f) => !repositoryOnly(f)).map((f) => f.replace(/\.ts$/, ""));
  const allowed = new Set([
    "package.json",
    "README.md",
    "LICENSE",
    "data/demo-catalog.json",
    "assets/use-lite-static.bin", // the static channel's token table (encoders/static-table.ts)
    "assets/screening-lexical.bin", // the screen's lexical model (screening/lexical.ts)
    "dist/cli/setup-faiss.mjs", // the script `tool-attention setup-faiss` runs
    ...library.flatMap((m) => [`dist/${m}.js`, `dist/${m}.d.ts`]),
  ]);
  assert.deepEqual(files.filter((f) => !allowed.has(f)), [], "files the package must not carry");
  const missing = [...allowed].filter((f) => !files.includes(f));
  assert.deepEqual(missing, [], "library files missing from the package");
  assert.ok(!files.some((f) => /^dist\/(bench|emulators)\/|\.map$/.test(f)));

  const bin = info.files.find((f) => f.path === "dist/cli/main.js");
  assert.ok(bin, "the CLI entry point is packed");
  assert.match(readFileSync(join(ROOT, "dist", "cli", "main.js"), "utf8"), /^#!\/usr\/bin\/env node\n/);
});

test("the packed package.json has no install or build scripts and no devDependencies; the repository's is restored", async () => {
  const before = readFileSync(join(ROOT, "package.json"), "utf8");
  const dir = mkdtempSync(join(tmpdir(), "ta-pack-"));
  try {
    const [info] = JSON.parse(await npm(["pack", "--json", "--pack-destination", dir, "--loglevel=error"])) as [{ filename: string }];
    const tar = spawnSync("tar", ["-xzf", join(dir, info.filename), "-C", dir], { encoding: "utf8" });
    assert.equal(tar.status, 0, tar.stderr);
    const packed = JSON.parse(readFileSync(join(dir, "package", "package.json"), "utf8"));
    assert.equal(packed.scripts, undefined, "scripts (prepare, postinstall) point at files the package does not carry");
    assert.equal(packed.devDependencies, undefined);
    assert.deepEqual(packed.dependencies, pkg.dependencies);
    assert.deepEqual(packed.peerDependencies, pkg.peerDependencies);
    assert.deepEqual(packed.engines, pkg.engines);
    assert.equal(packed.bin["tool-attention"], "dist/cli/main.js");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(readFileSync(join(ROOT, "package.json"), "utf8"), before, "postpack restores package.json byte for byte");
  assert.ok(!existsSync(join(ROOT, "package.json.pack-orig")));
});

/** The minimum Node version an engines range states (">=20.10.0", ">= 16", "^20.10 || >=22"), or undefined. */
function floorOf(range: string | undefined): [number, number, number] | undefined {
  if (!range) return undefined;
  const floors = range.split("||").map((part) => /^\s*(?:>=|\^)\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(part)).filter((m) => m !== null);
  if (floors.length === 0) return undefined;
  return floors.map((m) => [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] as [number, number, number]).sort(compare)[0];
}
const compare = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** engines.node of an installed package (read from node_modules: some packages do not export their package.json). */
const enginesOf = (name: string) => (JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")).engines ?? {}).node as string | undefined;

test("engines.node is the highest floor the package's dependencies and peers declare, and the README states it", () => {
  const names = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)];
  const floors = names.map((n) => floorOf(enginesOf(n))).filter((f) => f !== undefined);
  const highest = floors.sort(compare).at(-1)!;
  assert.deepEqual(floorOf(pkg.engines.node), highest, `engines.node is ${pkg.engines.node}; the dependencies need ${highest.join(".")}`);

  // The README's install section says the same floor, and what the OpenAI example's provider packages need.
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  assert.ok(readme.includes(`Node ≥ ${highest[0]}.${highest[1]}`), `README.md states Node ≥ ${highest[0]}.${highest[1]}`);
  const openai = [floorOf(enginesOf("@langchain/openai")), floorOf(enginesOf("openai"))].filter((f) => f !== undefined).sort(compare).at(-1);
  if (openai && compare(openai, highest) > 0) assert.ok(readme.includes(`Node ≥ ${openai[0]}`), `README.md says the OpenAI packages need Node ≥ ${openai[0]}`);
});
