#!/usr/bin/env node
/**
 * Sets up an app directory for notebooks/quickstart.ipynb as a user has it: `npm pack` (which builds the library),
 * a fresh ESM app with the tarball, its peer dependencies and the MCP server packages the notebook starts, and a
 * copy of the notebook. Executed from there, the notebook's `from "tool-attention"` resolves to
 * node_modules/tool-attention, i.e. to the files the package ships, not to this repository.
 *
 *   node scripts/notebook-app.mjs <dir>     (<dir> must not exist or be empty; prints the notebook's path)
 *
 * The MCP servers are the packages the notebook passes to its `installed("<package>", …)` helper. Packages come from
 * the npm cache when it has them (`--prefer-offline`); versions are the ones this repository has installed, so the
 * app runs what the repository's tests run.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const NOTEBOOK = join(ROOT, "notebooks", "quickstart.ipynb");
const dir = process.argv[2];
if (!dir) {
  console.error("usage: node scripts/notebook-app.mjs <dir>");
  process.exit(2);
}
const app = resolve(dir);
if (existsSync(app) && readdirSync(app).length > 0) {
  console.error(`notebook-app: ${app} is not empty`);
  process.exit(2);
}

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const repoRequire = createRequire(join(ROOT, "package.json"));
/** The version installed in this repository (package.json is read directly: some packages do not export it). */
function installedVersion(name) {
  for (let d = ROOT; ; d = dirname(d)) {
    const file = join(d, "node_modules", name, "package.json");
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")).version;
    if (dirname(d) === d) throw new Error(`${name} is not installed in this repository`);
  }
}
function must(what, cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.error || r.status !== 0)
    throw new Error(`${what} failed${r.error ? `: ${r.error.message}` : ` (exit ${r.status})`}\n${r.stdout ?? ""}${r.stderr ?? ""}`);
  return r;
}

// The MCP server packages the notebook starts.
const sources = JSON.parse(readFileSync(NOTEBOOK, "utf8")).cells.filter((c) => c.cell_type === "code").map((c) => [c.source].flat().join(""));
const servers = [...new Set(sources.flatMap((s) => [...s.matchAll(/installed\("([^"]+)"/g)].map((m) => m[1])))];
if (servers.length === 0) {
  console.error("notebook-app: found no installed(\"<package>\", …) call in the notebook");
  process.exit(1);
}

mkdirSync(app, { recursive: true });
// npm pack rebuilds dist/ as the library only; a full build (benchmark, emulators) is put back afterwards.
const hadFullBuild = existsSync(join(ROOT, "dist", "bench"));
try {
  const packed = must("npm pack", "npm", ["pack", "--json", "--pack-destination", app, "--loglevel=error"], { cwd: ROOT });
  const tarball = join(app, JSON.parse(packed.stdout)[0].filename);
  writeFileSync(join(app, "package.json"), `${JSON.stringify({ name: "quickstart-app", private: true, type: "module" }, null, 2)}\n`);
  const peers = Object.keys(pkg.peerDependencies ?? {}).map((n) => `${n}@${installedVersion(n)}`);
  const serverSpecs = servers.map((n) => `${n}@${installedVersion(n)}`);
  must("npm install", "npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", tarball, ...peers, ...serverSpecs], {
    cwd: app,
    env: { ...process.env, TOOL_ATTENTION_SKIP_FAISS_SETUP: "1" },
  });
  copyFileSync(NOTEBOOK, join(app, "quickstart.ipynb"));
  console.error(`notebook-app: ${app}: ${tarball.replace(/.*\//, "")} with ${[...peers, ...serverSpecs].join(", ")}`);
  console.log(join(app, "quickstart.ipynb"));
} catch (err) {
  console.error(`notebook-app: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  if (hadFullBuild) {
    const r = spawnSync(process.execPath, [repoRequire.resolve("typescript/bin/tsc"), "-p", "."], { cwd: ROOT, encoding: "utf8" });
    if (r.status !== 0) console.error(`notebook-app: restoring the full build of dist/ failed:\n${r.stdout}${r.stderr}`);
  }
}
