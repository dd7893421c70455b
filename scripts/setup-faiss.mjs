#!/usr/bin/env node
/**
 * Optional faiss setup. faiss-node speeds up the tool index but is never required: when it cannot be loaded
 * the pure-TS flat index is used. This script therefore ALWAYS exits 0.
 *
 *   1. faiss-node already loads            -> one line, done (fast path, used by postinstall on every install).
 *   2. no system libfaiss (libfaiss-dev)   -> one line, done (the pure-TS index will be used).
 *   3. otherwise build faiss-node 0.5.1's own C++ source (src/faiss.cc) with node-gyp against the system's
 *      static libfaiss.a, then verify that it loads.
 *
 * Why: `npm install faiss-node` downloads a prebuilt binary from GitHub or git-clones faiss; both fail offline,
 * and npm then drops the optional dependency. The registry tarball still ships src/faiss.cc, which compiles
 * against Debian's libfaiss-dev 1.7.3 given a small binding.gyp and a compatibility header (faiss-node 0.5.1
 * targets faiss 1.7.4, where `idx_t` moved to namespace level).
 *
 * Environment:
 *   TOOL_ATTENTION_SKIP_FAISS_SETUP=1   do nothing.
 *   TOOL_ATTENTION_LIBFAISS=/path/libfaiss.a   static library to link (default: the Debian/Ubuntu multiarch
 *                                               path, then /usr/lib, /usr/local/lib).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const FAISS_NODE_VERSION = "0.5.1";
const DEP_SPECS = { bindings: "bindings@1.5.0", "file-uri-to-path": "file-uri-to-path@1.0.0", "node-addon-api": "node-addon-api@6.1.0" };
const APT_HINT = "apt-get install libfaiss-dev libblas-dev liblapack-dev";
/** The package root: the nearest directory above this script holding tool-attention's package.json (the script runs
 *  from scripts/ in the repository and from dist/cli/ in the published package). */
function packageRoot(from) {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      if (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name === "tool-attention") return dir;
    } catch {}
    if (dirname(dir) === dir) return resolve(from, "..");
  }
}
const ROOT = packageRoot(dirname(fileURLToPath(import.meta.url)));
const MULTIARCH = { x64: "x86_64-linux-gnu", arm64: "aarch64-linux-gnu" }[process.arch] ?? "x86_64-linux-gnu";
const LIBFAISS_CANDIDATES = [`/usr/lib/${MULTIARCH}/libfaiss.a`, "/usr/lib/libfaiss.a", "/usr/local/lib/libfaiss.a"];
const LIBFAISS =
  process.env.TOOL_ATTENTION_LIBFAISS || LIBFAISS_CANDIDATES.find((p) => existsSync(p)) || LIBFAISS_CANDIDATES[0];
const FAISS_HEADERS = ["/usr/include/faiss/IndexFlat.h", "/usr/local/include/faiss/IndexFlat.h"];

const log = (msg) => console.log(`[faiss] ${msg}`);

/** Loads faiss-node in a child process (a crashing native module must not take this script down). */
function probe() {
  const code = `
    const { createRequire } = require("node:module");
    const req = createRequire(${JSON.stringify(join(ROOT, "package.json"))});
    const f = req("faiss-node");
    const ix = new f.IndexFlatIP(2);
    ix.add([1, 0, 0, 1]);
    const r = ix.search([0.2, 0.9], 1);
    if (r.labels[0] !== 1) throw new Error("unexpected search result " + JSON.stringify(r));
    process.stdout.write(req.resolve("faiss-node"));`;
  const r = spawnSync(process.execPath, ["-e", code], { encoding: "utf8", timeout: 60_000 });
  if (r.status === 0) return { ok: true, where: r.stdout.trim() };
  const text = `${r.stderr || ""}${r.error ? String(r.error) : ""}`;
  const line = text.split("\n").find((l) => /Error|Cannot|cannot|not found|undefined symbol/.test(l)) || text.split("\n")[0] || `exit ${r.status}`;
  return { ok: false, reason: line.trim().slice(0, 200) };
}

function run(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...opts });
}

function tail(text, n = 25) {
  return String(text || "").trimEnd().split("\n").slice(-n).map((l) => `    ${l}`).join("\n");
}

/** Fetches `spec` from the registry with `npm pack` and unpacks it into `dest` (replacing it). */
function fetchPackage(spec, dest) {
  const tmp = mkdtempSync(join(tmpdir(), "tool-attention-faiss-"));
  try {
    const packed = run("npm", ["pack", spec, "--pack-destination", tmp, "--loglevel=error"], { cwd: tmp, timeout: 180_000 });
    if (packed.status !== 0) {
      const why = `${packed.stderr || ""}${packed.error ? String(packed.error) : ""}`.split("\n").map((l) => l.trim()).filter(Boolean);
      throw new Error(`npm pack ${spec} failed: ${why.find((l) => /^npm err(or|!) (code|errno) /i.test(l)) || why.pop() || `exit ${packed.status}`}`);
    }
    const file = packed.stdout.trim().split("\n").pop();
    rmSync(dest, { recursive: true, force: true });
    mkdirSync(dest, { recursive: true });
    const untar = run("tar", ["xzf", join(tmp, file), "-C", dest, "--strip-components=1"]);
    if (untar.status !== 0) throw new Error(`extracting ${file} failed: ${(untar.stderr || "").trim()}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Where faiss-node is (or should be) installed, as seen from this package. */
function locateFaissNode() {
  try {
    const req = createRequire(join(ROOT, "package.json"));
    return dirname(req.resolve("faiss-node/package.json"));
  } catch {
    return join(ROOT, "node_modules", "faiss-node");
  }
}

function resolveFrom(dir, name) {
  try {
    return dirname(createRequire(join(dir, "package.json")).resolve(`${name}/package.json`));
  } catch {
    return null;
  }
}

/** node-gyp ships with npm: prefer the one npm points lifecycle scripts at, then npm's own copy. */
function findNodeGyp() {
  const candidates = [];
  if (process.env.npm_config_node_gyp) candidates.push(process.env.npm_config_node_gyp);
  try {
    const npmCli = realpathSync(join(dirname(realpathSync(process.execPath)), "npm"));
    candidates.push(join(dirname(npmCli), "..", "node_modules", "node-gyp", "bin", "node-gyp.js"));
  } catch {
    /* no npm next to node */
  }
  candidates.push(join(dirname(dirname(realpathSync(process.execPath))), "lib", "node_modules", "npm", "node_modules", "node-gyp", "bin", "node-gyp.js"));
  const root = run("npm", ["root", "-g"]);
  if (root.status === 0) candidates.push(join(root.stdout.trim(), "npm", "node_modules", "node-gyp", "bin", "node-gyp.js"));
  return candidates.find((c) => c && existsSync(c)) || null;
}

/** Node headers matching this node, so node-gyp does not try to download them. */
function findNodeDir() {
  const matches = (dir) => {
    const h = join(dir, "include", "node", "node_version.h");
    if (!existsSync(h)) return false;
    const src = readFileSync(h, "utf8");
    const v = ["MAJOR", "MINOR", "PATCH"].map((k) => (src.match(new RegExp(`#define NODE_${k}_VERSION (\\d+)`)) || [])[1]);
    return `v${v.join(".")}` === process.version;
  };
  const candidates = [process.env.npm_config_nodedir];
  const cfg = run("npm", ["config", "get", "nodedir"]);
  if (cfg.status === 0) candidates.push(cfg.stdout.trim());
  candidates.push(dirname(dirname(realpathSync(process.execPath))));
  return candidates.find((c) => c && c !== "undefined" && c !== "null" && matches(c)) || null;
}

function writeBuildFiles(faissDir, addonApiDir) {
  writeFileSync(
    join(faissDir, "compat.h"),
    [
      "// Written by tool-attention scripts/setup-faiss.mjs: faiss-node 0.5.1 targets faiss 1.7.4, where idx_t",
      "// is declared at namespace level; older system faiss (e.g. Debian's 1.7.3) only has faiss::Index::idx_t.",
      "#pragma once",
      "#include <faiss/Index.h>",
      "namespace faiss { using idx_t = Index::idx_t; }",
      "",
    ].join("\n"),
  );
  const gyp = {
    targets: [
      {
        target_name: "faiss-node",
        sources: ["src/faiss.cc"],
        include_dirs: [addonApiDir],
        defines: ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS"],
        "cflags!": ["-fno-exceptions", "-fno-rtti"],
        "cflags_cc!": ["-fno-exceptions", "-fno-rtti", "-std=gnu++17", "-std=gnu++20"],
        cflags_cc: ["-std=c++17", "-fopenmp", "-O3", "-fexceptions", "-frtti", "-include", join(faissDir, "compat.h")],
        ldflags: ["-fopenmp"],
        libraries: [LIBFAISS, "-lblas", "-llapack", "-lgomp"],
      },
    ],
  };
  writeFileSync(join(faissDir, "binding.gyp"), `${JSON.stringify(gyp, null, 2)}\n`);
}

function main() {
  if (process.env.TOOL_ATTENTION_SKIP_FAISS_SETUP === "1") {
    log("skipped (TOOL_ATTENTION_SKIP_FAISS_SETUP=1); the pure-TS flat index will be used unless faiss-node loads");
    return;
  }
  const first = probe();
  if (first.ok) {
    log(`faiss-node loads (${first.where}); nothing to do`);
    return;
  }
  if (process.platform !== "linux") {
    log(`faiss-node not loadable (${first.reason}) and the system build is only supported on Linux; using the pure-TS flat index`);
    return;
  }
  if (!existsSync(LIBFAISS) || !FAISS_HEADERS.some((h) => existsSync(h))) {
    log(`faiss unavailable (no system libfaiss at ${LIBFAISS}); the pure-TS flat index will be used. To enable: ${APT_HINT}`);
    return;
  }
  log(`faiss-node not loadable (${first.reason}); building it against ${LIBFAISS}`);

  // 1. faiss-node's source.
  const faissDir = locateFaissNode();
  if (!existsSync(join(faissDir, "src", "faiss.cc"))) {
    log(`fetching faiss-node@${FAISS_NODE_VERSION} source into ${faissDir}`);
    fetchPackage(`faiss-node@${FAISS_NODE_VERSION}`, faissDir);
  }
  const version = JSON.parse(readFileSync(join(faissDir, "package.json"), "utf8")).version;
  if (version !== FAISS_NODE_VERSION) log(`warning: found faiss-node ${version}, the build recipe was made for ${FAISS_NODE_VERSION}`);

  // 2. Its JS dependencies (normally installed by npm from our optionalDependencies).
  const nested = join(faissDir, "node_modules");
  for (const name of ["bindings", "node-addon-api"]) {
    if (resolveFrom(faissDir, name)) continue;
    log(`fetching ${DEP_SPECS[name]} (not resolvable from ${faissDir})`);
    fetchPackage(DEP_SPECS[name], join(nested, name));
    if (name === "bindings" && !resolveFrom(join(nested, name), "file-uri-to-path")) {
      fetchPackage(DEP_SPECS["file-uri-to-path"], join(nested, "file-uri-to-path"));
    }
  }
  const addonApiDir = resolveFrom(faissDir, "node-addon-api");
  if (!addonApiDir) throw new Error("node-addon-api is not resolvable from faiss-node");

  // 3. Build.
  const nodeGyp = findNodeGyp();
  if (!nodeGyp) throw new Error("node-gyp not found (it ships with npm); install it with `npm i -g node-gyp`");
  const nodeDir = findNodeDir();
  writeBuildFiles(faissDir, addonApiDir);
  const args = [nodeGyp, "rebuild", "--release", "--jobs", "max"];
  if (nodeDir) args.push(`--nodedir=${nodeDir}`);
  log(`compiling src/faiss.cc with node-gyp${nodeDir ? ` (node headers: ${nodeDir})` : ""}; this takes a few seconds`);
  const started = Date.now();
  const built = run(process.execPath, args, { cwd: faissDir, env: { ...process.env, JOBS: "max" }, timeout: 15 * 60_000 });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  writeFileSync(join(faissDir, "build-setup.log"), `${built.stdout || ""}\n${built.stderr || ""}\n${built.error ? String(built.error) : ""}`);
  if (built.status !== 0) {
    log(`build failed after ${secs}s (full log: ${join(faissDir, "build-setup.log")}); using the pure-TS flat index`);
    console.log(tail(built.stderr || built.stdout || String(built.error ?? "")));
    return;
  }

  // 4. Verify.
  const after = probe();
  if (after.ok) log(`built in ${secs}s; faiss-node loads (${after.where})`);
  else log(`built in ${secs}s but faiss-node still does not load (${after.reason}); using the pure-TS flat index`);
}

try {
  main();
} catch (err) {
  log(`setup failed (${err instanceof Error ? err.message : String(err)}); the pure-TS flat index will be used`);
}
process.exit(0);
