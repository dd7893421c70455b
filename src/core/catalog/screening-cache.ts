/**
 * The screen's verdicts on a catalog, kept between processes. Screening reads every sentence of every definition
 * with a few hundred patterns: about a second of the host's thread at 500 tools, tens of seconds at 100,000, and the
 * patterns' compiled code stays in the process (about 40 MiB at 500 tools). A process that starts on a catalog it
 * has screened before reads the verdicts instead.
 *
 * A verdict depends on the tool's definition, on the other tools of the catalog (a tool naming another server's
 * tool is steering, naming its own server's is guidance), on the threshold and on the screen's own rules. The key
 * hashes all of them: the whole catalog's definitions, in order, with their servers, the threshold and
 * `SCREEN_RULES_VERSION`. Any change to any definition screens the catalog again. Only verdicts are kept; what a
 * policy does with them (quarantine, warn, allow, trusted servers) is applied on every start.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScreeningResult } from "../screening/types.js";
import type { CatalogEntry } from "./catalog.js";

/**
 * Version of the screen's rules, part of every key. Bump it with any change to what the screen concludes
 * (src/core/screening/): a cached verdict of older rules is then never read. A test holds the digest of those
 * sources and fails, saying so, when they change without a bump.
 */
export const SCREEN_RULES_VERSION = "2026-11-28.175";

/** Where a catalog's verdicts are kept: synchronous, since a catalog is built in its constructor. */
export interface ScreeningCache {
  /** The verdicts kept under `key` (by `screeningKey(server, name)`), or undefined. Never throws. */
  get(key: string): ReadonlyMap<string, ScreeningResult> | undefined;
  /** Keeps the verdicts of every tool of the catalog under `key`. Never throws (a cache that cannot write is a miss next time). */
  set(key: string, verdicts: ReadonlyMap<string, ScreeningResult>): void;
}

/**
 * The key of a catalog's verdicts, or undefined when a definition cannot be written as JSON (a cycle, a BigInt):
 * such a catalog is screened every time.
 */
export function screeningCacheKey(entries: readonly CatalogEntry[], threshold: number): string | undefined {
  const h = createHash("sha256");
  h.update(`screen-verdicts-1\0${SCREEN_RULES_VERSION}\0${threshold}\0${entries.length}`);
  try {
    for (const e of entries) h.update(`\0${JSON.stringify(e.server ?? "")}\0${JSON.stringify(e.spec)}`);
  } catch {
    return undefined;
  }
  return h.digest("hex");
}

const KEY = /^[0-9a-f]{64}$/;

/** Verdicts as files under `dir` (one JSON file per catalog, written whole and renamed into place). */
export class DiskScreeningCache implements ScreeningCache {
  constructor(
    readonly dir: string,
    private readonly warn: (message: string) => void = () => {},
  ) {}

  get(key: string): ReadonlyMap<string, ScreeningResult> | undefined {
    if (!KEY.test(key)) return undefined;
    let text: string;
    try {
      text = readFileSync(join(this.dir, `${key}.json`), "utf8");
    } catch {
      return undefined;
    }
    try {
      const parsed = JSON.parse(text) as { key?: unknown; verdicts?: unknown };
      if (parsed.key !== key || !Array.isArray(parsed.verdicts)) throw new Error("not a verdict file of this key");
      const out = new Map<string, ScreeningResult>();
      for (const row of parsed.verdicts as unknown[]) {
        if (!Array.isArray(row) || typeof row[0] !== "string" || !isResult(row[1])) throw new Error("a verdict is malformed");
        out.set(row[0], row[1]);
      }
      return out;
    } catch (err) {
      this.warn(`tool-attention: screening verdicts ${join(this.dir, `${key}.json`)} not used (${(err as Error).message}); screening the catalog`);
      return undefined;
    }
  }

  set(key: string, verdicts: ReadonlyMap<string, ScreeningResult>): void {
    if (!KEY.test(key)) return;
    const file = join(this.dir, `${key}.json`);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(tmp, JSON.stringify({ key, verdicts: [...verdicts] }));
      renameSync(tmp, file);
    } catch (err) {
      this.warn(`tool-attention: could not keep the screening verdicts in ${this.dir} (${(err as Error).message})`);
    }
  }
}

function isResult(x: unknown): x is ScreeningResult {
  const r = x as Partial<ScreeningResult> | null;
  return !!r && typeof r === "object" && typeof r.flagged === "boolean" && Array.isArray(r.reasons) && Array.isArray(r.findings);
}
