/**
 * `tool-attention setup-faiss`: builds the optional faiss-node index from an application's own install, where the
 * package's postinstall usually does not run (npm 11 skips dependencies' install scripts unless they are allowed)
 * and this repository's `npm run setup:faiss` does not exist. It runs the repository's scripts/setup-faiss.mjs, which
 * the package carries as dist/cli/setup-faiss.mjs (copied by scripts/build.mjs), then checks that faiss-node loads.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describeIndexBackend } from "../core/index/vector-index.js";
import { loadFaiss } from "../core/index/faiss-index.js";

/** The package root, from dist/cli/ (installed) or src/cli/ (this repository): two levels up either way. */
const packageFile = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

/** The version in the package's package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as { version: string }).version;
}

/** Runs the faiss setup; 0 when faiss-node loads afterwards, 1 when the pure-TS index stays in use. */
export function runSetupFaiss(): number {
  const script = [packageFile("dist/cli/setup-faiss.mjs"), packageFile("scripts/setup-faiss.mjs")].find((f) => existsSync(f)) ?? packageFile("dist/cli/setup-faiss.mjs");
  if (!existsSync(script)) {
    process.stderr.write(`tool-attention: ${script} is missing; reinstall the package\n`);
    return 1;
  }
  // The skip switch is for installs (postinstall); asking for the setup by name overrides it.
  const env = { ...process.env };
  delete env.TOOL_ATTENTION_SKIP_FAISS_SETUP;
  const r = spawnSync(process.execPath, [script], { stdio: "inherit", env });
  if (r.error) {
    process.stderr.write(`tool-attention: setup-faiss could not run: ${r.error.message}\n`);
    return 1;
  }
  const loaded = loadFaiss();
  process.stdout.write(`${describeIndexBackend()}\n`);
  return loaded.ok ? 0 : 1;
}
