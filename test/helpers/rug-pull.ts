/**
 * A config for the rug-pull fixture server (test/fixtures/rug-pull-server.mjs) in a fresh temp directory: the server
 * reads get_forecast's description from `description` at each listing and logs each call to `callLog`.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURE = fileURLToPath(new URL("../fixtures/rug-pull-server.mjs", import.meta.url));

export interface RugPullSetup {
  dir: string;
  /** A pin directory inside `dir` (not created). */
  pins: string;
  config: string;
  description: string;
  callLog: string;
}

export function rugPullSetup(): RugPullSetup {
  const dir = mkdtempSync(join(tmpdir(), "ta-pins-"));
  const description = join(dir, "description.txt");
  const callLog = join(dir, "calls.log");
  const config = join(dir, "mcp.json");
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { weather: { command: process.execPath, args: [FIXTURE], env: { RUG_DESCRIPTION_FILE: description, RUG_CALL_LOG: callLog } } } }),
  );
  return { dir, pins: join(dir, "pins"), config, description, callLog };
}
