/**
 * The tokens of a whole catalog's full schemas: what every turn would send without routing, reported in each
 * routing decision (`fullSchemaTokens`). On large catalogs this is the most expensive number the router keeps:
 * 100,000 tools are about 200 MB of schema text, which takes more than a minute to tokenize. So it is
 * - counted in slices of about 10 ms with the event loop served between them, never as one long block;
 * - kept beside the index snapshots (the store's blobs, else the disk cache) as one count per tool, under a key that
 *   names the catalog's content (`catalogFingerprintAsync`), the encoding, Phase-2 compaction and the rendering, so the
 *   next process with the same catalog reads it instead of counting.
 */
import { createHash } from "node:crypto";
import type { ToolCatalog } from "../catalog/catalog.js";
import type { SnapshotCache } from "../index/snapshot-cache.js";
import { catalogFingerprintAsync } from "../store/snapshot.js";
import type { FullToolSchema } from "../loader/schema-loader.js";
import { TimeSlices } from "../util/time-slices.js";
import { renderFullSchema, type SchemaTokenCounter } from "./render.js";

/** Catalogs from this size on keep their counts (smaller ones count in well under a second). */
export const FULL_TOKENS_KEEP_MIN_TOOLS = 2_000;
/** Tools whose schemas are fetched and counted per step. */
const STEP = 500;

/** A schema every rendering change shows in: part of the key, so counts made by another rendering are not read. */
const CANARY: FullToolSchema = {
  name: "canary_tool",
  description: "Checks the rendering.",
  inputSchema: { type: "object", properties: { q: { type: "string", description: "A query.", enum: ["a", "b"] }, n: { type: "integer", minimum: 1 } }, required: ["q"] },
};

/** `promise`, or the signal's reason once it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => (signal.removeEventListener("abort", onAbort), resolve(v)),
      (e) => (signal.removeEventListener("abort", onAbort), reject(e)),
    );
  });
}

/** The key of a catalog's per-tool counts in a snapshot cache. */
async function fullTokensKey(catalog: ToolCatalog, counter: SchemaTokenCounter): Promise<string> {
  const h = createHash("sha256");
  h.update(JSON.stringify({ v: 1, fingerprint: await catalogFingerprintAsync(catalog), encoding: counter.encoding, compaction: counter.compaction ?? null, canary: renderFullSchema(CANARY) }));
  return `schema-tokens-${h.digest("hex").slice(0, 40)}`;
}

/** Where the counts are kept, and where a failure to read or keep them is reported. */
export interface FullTokensCache {
  cache: SnapshotCache;
  warn: (line: string) => void;
}

/**
 * Sum of the catalog's full-schema tokens, from `keep` when it holds this catalog's counts (checked: one count per
 * tool), else counted in slices and left there. `schemas` gives the schemas of tool ids, in order.
 */
export async function countFullSchemaTokens(
  catalog: ToolCatalog,
  schemas: (ids: readonly string[]) => Promise<FullToolSchema[]>,
  counter: SchemaTokenCounter,
  keep?: FullTokensCache,
  /** Stops the count between slices (the router was closed): the promise rejects with the signal's reason. */
  signal?: AbortSignal,
): Promise<number> {
  const n = catalog.size;
  const key = keep && n >= FULL_TOKENS_KEEP_MIN_TOOLS ? await fullTokensKey(catalog, counter) : undefined;
  if (keep && key) {
    try {
      const bytes = await keep.cache.get(key);
      if (bytes) {
        if (bytes.byteLength !== n * 4) throw new Error(`it holds ${bytes.byteLength} bytes, ${n * 4} expected for ${n} tools`);
        const counts = new Int32Array(bytes.buffer, bytes.byteOffset, n);
        let total = 0;
        for (let i = 0; i < n; i++) {
          if (counts[i]! < 0) throw new Error(`tool ${i} has a count of ${counts[i]}`);
          total += counts[i]!;
        }
        return total;
      }
    } catch (err) {
      keep.warn(`tool-attention: schema token counts ${key} in the ${keep.cache.where} not used (${(err as Error).message}); counting`);
    }
  }
  // A catalog screening in the background is counted once screened (in its own thread or slices, not through the
  // schema lookups of this count); a tool quarantined meanwhile counts 0, as if it had never been in the catalog.
  if (catalog.screeningProgress().pending > 0) await untilAborted(catalog.whenScreened(), signal);
  const counts = new Int32Array(n);
  const tools = catalog.tools;
  let total = 0;
  const slices = new TimeSlices(10, signal);
  for (let start = 0; start < n; start += STEP) {
    const shown = tools.slice(start, start + STEP).flatMap((t, i) => (catalog.isVisible(t) ? [{ id: t.id, at: start + i }] : []));
    const batch = await schemas(shown.map((s) => s.id));
    for (let i = 0; i < batch.length; i++) {
      counts[shown[i]!.at] = counter.count(batch[i]!);
      total += counts[shown[i]!.at]!;
      if (slices.due) await slices.pause();
    }
  }
  if (keep && key) {
    try {
      await keep.cache.put(key, new Uint8Array(counts.buffer));
    } catch (err) {
      keep.warn(`tool-attention: could not keep the schema token counts ${key} in the ${keep.cache.where} (${(err as Error).message})`);
    }
  }
  return total;
}
