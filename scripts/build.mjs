#!/usr/bin/env node
/**
 * Builds dist/.
 *
 *   node scripts/build.mjs --all   everything under src/ (tsconfig.json, with source maps): the library, the CLI,
 *                                  the benchmark and the provider emulators. `npm run bench` and the notebook use it.
 *   node scripts/build.mjs --lib   the published package only (tsconfig.build.json): dist/ is emptied first, so no
 *                                  benchmark, synthetic generator, emulator or source map left by a full build is
 *                                  packed. Modules the library imports are still compiled, wherever they live.
 *   node scripts/build.mjs         as `prepare` (npm ci / npm install in the repository): --lib when npm is packing or
 *                                  publishing, --all otherwise. Packing builds in `prepack` (scripts/pack.mjs).
 * Either way the faiss setup script is copied to dist/cli/setup-faiss.mjs, where `tool-attention setup-faiss` finds it
 * in the published package (which ships dist/, not scripts/).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const packing = ["pack", "publish"].includes(process.env.npm_command ?? "");
const lib = args.includes("--lib") || (!args.includes("--all") && packing);

const tsc = createRequire(join(ROOT, "package.json")).resolve("typescript/bin/tsc");
if (lib) rmSync(join(ROOT, "dist"), { recursive: true, force: true });
const config = lib ? "tsconfig.build.json" : "tsconfig.json";
const r = spawnSync(process.execPath, [tsc, "-p", config], { cwd: ROOT, stdio: "inherit" });
if (r.status === 0) {
  mkdirSync(join(ROOT, "dist", "cli"), { recursive: true });
  copyFileSync(join(ROOT, "scripts", "setup-faiss.mjs"), join(ROOT, "dist", "cli", "setup-faiss.mjs"));
}
process.exit(r.status ?? 1);
