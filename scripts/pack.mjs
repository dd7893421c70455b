#!/usr/bin/env node
/**
 * `npm pack` / `npm publish` hooks: the published package is the library, so its package.json is not the
 * repository's.
 *
 *   node scripts/pack.mjs prepack    builds the library (scripts/build.mjs --lib: dist/ without the benchmark, the
 *                                    emulators or source maps), then replaces package.json with the published
 *                                    manifest (publishManifest below), keeping the original in package.json.pack-orig
 *   node scripts/pack.mjs postpack   puts the original package.json back
 *
 * TOOL_ATTENTION_PACK_PREBUILT=1 skips the build when dist/index.js exists (test/package.test.ts packs the dist/ it
 * finds; "files" in package.json leaves out what only a full build has). A prepack that finds a leftover
 * package.json.pack-orig (a pack that failed before postpack) restores it first, so the manifest is never rewritten
 * twice.
 *
 * Publishing: pack, then publish the tarball (`npm pack && npm publish tool-attention-<version>.tgz`). npm publish
 * from the directory re-reads package.json after postpack has restored it, so the registry's version document would
 * list the repository's scripts and devDependencies, although the tarball (what an install unpacks) does not.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const MANIFEST = join(ROOT, "package.json");
const ORIGINAL = join(ROOT, "package.json.pack-orig");

/**
 * The package.json a user installs: the repository's without its scripts (`prepare` and `postinstall` point at
 * files the package does not carry, and an install must run nothing: `tool-attention setup-faiss` builds the
 * optional index on request) and without devDependencies (the benchmark's MCP servers, provider clients and build
 * tools, which an app never installs).
 */
export function publishManifest(pkg) {
  const { scripts: _scripts, devDependencies: _dev, ...published } = pkg;
  return published;
}

function restore() {
  if (existsSync(ORIGINAL)) renameSync(ORIGINAL, MANIFEST);
}

function prepack() {
  restore();
  const prebuilt = process.env.TOOL_ATTENTION_PACK_PREBUILT === "1" && existsSync(join(ROOT, "dist", "index.js"));
  if (!prebuilt) {
    const r = spawnSync(process.execPath, [join(ROOT, "scripts", "build.mjs"), "--lib"], { cwd: ROOT, stdio: "inherit" });
    if (r.status !== 0) process.exit(r.status ?? 1);
  } else copyFileSync(join(ROOT, "scripts", "setup-faiss.mjs"), join(ROOT, "dist", "cli", "setup-faiss.mjs")); // as the build does
  const text = readFileSync(MANIFEST, "utf8");
  writeFileSync(ORIGINAL, text);
  writeFileSync(MANIFEST, `${JSON.stringify(publishManifest(JSON.parse(text)), null, 2)}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const step = process.argv[2];
  if (step === "prepack") prepack();
  else if (step === "postpack") restore();
  else {
    console.error("usage: node scripts/pack.mjs prepack|postpack");
    process.exit(2);
  }
}
