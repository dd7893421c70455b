/**
 * A catalog's vectors are held once: the router's encoder keeps the embedding cache's own float32 arrays instead of
 * copies, with the same values `embedDocuments` gives. Real USE-lite encoder (in its worker thread).
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CachedEmbeddings } from "../src/core/encoders/cache.js";
import { RouterEncoder } from "../src/core/encoders/router-encoder.js";
import { UseLiteEmbeddings } from "../src/core/encoders/use-lite.js";

const TEXTS = ["send an email to a contact", "list the files of a folder", "create a pull request on a repository", "look up tomorrow's weather"];
const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "tool-attention-vectors-"));
  dirs.push(d);
  return d;
}
const inner = new UseLiteEmbeddings();

after(async () => {
  await inner.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("CachedEmbeddings.embedDocumentVectors", () => {
  it("gives embedDocuments' values as the cache's own float32 arrays, the same objects on every call", async () => {
    const cache = new CachedEmbeddings(inner, { modelId: inner.modelId, cacheDir: tempDir() });
    const vectors = await cache.embedDocumentVectors(TEXTS);
    assert.equal(cache.stats.misses, TEXTS.length);
    assert.ok(vectors.every((v) => v instanceof Float32Array && v.length === 512));
    assert.deepEqual(await cache.embedDocuments(TEXTS), vectors.map((v) => Array.from(v)));
    const again = await cache.embedDocumentVectors([TEXTS[2]!, TEXTS[0]!]);
    assert.equal(again[0], vectors[2], "served from memory: the same array, not a copy");
    assert.equal(again[1], vectors[0]);
    assert.equal(cache.stats.misses, TEXTS.length, "nothing embedded again");
    assert.deepEqual(await cache.embedDocumentVectors([]), []);
  });

  it("gives the same values from a warm disk cache as the run that embedded them", async () => {
    const dir = tempDir();
    const cold = await new CachedEmbeddings(inner, { modelId: inner.modelId, cacheDir: dir }).embedDocumentVectors(TEXTS);
    const warmCache = new CachedEmbeddings(inner, { modelId: inner.modelId, cacheDir: dir });
    const warm = await warmCache.embedDocumentVectors(TEXTS);
    assert.equal(warmCache.stats.misses, 0);
    assert.deepEqual(warm.map((v) => Array.from(v)), cold.map((v) => Array.from(v)));
  });
});

describe("RouterEncoder.embedTexts keeps one copy of each vector", () => {
  it("behind the cache: the rows are the cache's arrays, with embedDocuments' values", async () => {
    const cache = new CachedEmbeddings(inner, { modelId: inner.modelId, cacheDir: false });
    const encoder = new RouterEncoder(undefined, undefined, () => {});
    encoder.use(cache, "use-lite", inner.modelId, true);
    const rows = await encoder.embedTexts([...TEXTS, TEXTS[0]!]);
    const cached = await cache.embedDocumentVectors(TEXTS);
    rows.slice(0, TEXTS.length).forEach((r, i) => assert.equal(r, cached[i], `row ${i} shares the cache's array`));
    assert.equal(rows[4], rows[0], "a repeated text has one vector");
    assert.deepEqual(rows.slice(0, TEXTS.length).map((r) => Array.from(r)), await cache.embedDocuments(TEXTS));
    // A catalog change embeds only new texts and keeps serving the same arrays.
    const before = cache.stats.misses;
    const next = await encoder.embedTexts([TEXTS[1]!, "archive an old message"]);
    assert.equal(next[0], cached[1]);
    assert.equal(cache.stats.misses - before, 1);
  });

  it("from an encoder without the cache: float32 copies of its answer", async () => {
    const encoder = new RouterEncoder(undefined, undefined, () => {});
    encoder.use(inner, "use-lite", inner.modelId, true);
    const rows = await encoder.embedTexts(TEXTS);
    const direct = await inner.embedDocuments(TEXTS);
    rows.forEach((r, i) => {
      assert.ok(r instanceof Float32Array);
      assert.deepEqual(Array.from(r), Array.from(Float32Array.from(direct[i]!)));
    });
  });
});
