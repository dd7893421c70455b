/**
 * Runs a command module's `main` when the module is the process entry point (bin link, `node dist/…/main.js`,
 * `tsx src/…/main.ts`), not when it is imported (tests, other commands).
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

export function runIfEntry(moduleUrl: string, main: () => Promise<number>): void {
  let entry = false;
  try {
    entry = Boolean(process.argv[1]) && realpathSync(process.argv[1]) === fileURLToPath(moduleUrl);
  } catch {
    entry = false;
  }
  if (entry)
    main().then((code) => {
      process.exitCode = code;
    });
}
