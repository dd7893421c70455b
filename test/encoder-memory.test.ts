/**
 * What keeps the default encoder's memory small: one worker for a short build (a second model copy only for long
 * ones), the model's weight file released once its weights are tensors, batches capped by padded size, and a small
 * young generation in each worker. Real model throughout (in worker threads, except the last block).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { UseLiteEmbeddings, batchPositions, prepareUseLiteText } from "../src/core/encoders/use-lite.js";
import { initUseLiteModel, releaseWeightFile } from "../src/core/encoders/use-lite-model.js";
import {
  UseLiteWorkerPool,
  USE_LITE_GROW_AFTER_TEXTS,
  USE_LITE_STRETCH_PAUSE_MS,
  USE_LITE_WORKER_RESOURCE_LIMITS,
  type UseLiteBatchResult,
} from "../src/core/encoders/use-lite-pool.js";

/** Tool-like texts of varied length, prepared as UseLiteEmbeddings sends them. */
const TEXTS = Array.from({ length: 48 }, (_, i) =>
  prepareUseLiteText(`tool_${i}: ${"reads a file from the workspace and returns its contents ".repeat(1 + (i % 5))}`),
);

/** Batches of 8 texts, sent at most two at a time (as UseLiteEmbeddings' lanes do with two workers). */
async function build(pool: UseLiteWorkerPool, texts: readonly string[]): Promise<UseLiteBatchResult[]> {
  const batches: string[][] = [];
  for (let i = 0; i < texts.length; i += 8) batches.push(texts.slice(i, i + 8));
  const out: UseLiteBatchResult[] = new Array(batches.length);
  let next = 0;
  const lane = async () => {
    while (next < batches.length) {
      const b = next++;
      out[b] = await pool.embed(batches[b]!);
    }
  };
  await Promise.all([lane(), lane()]);
  return out;
}

describe("UseLiteWorkerPool: a second worker only for long builds", () => {
  it("builds a short catalog on one worker, with the same vectors as a two-worker build", async () => {
    assert.ok(TEXTS.length < USE_LITE_GROW_AFTER_TEXTS);
    const small = new UseLiteWorkerPool({ size: 2 });
    const eager = new UseLiteWorkerPool({ size: 2, growAfterTexts: 0 });
    try {
      const one = await build(small, TEXTS);
      assert.equal(small.workers.length, 1, "a short build must not start a second model copy");
      const two = await build(eager, TEXTS);
      assert.equal(eager.workers.length, 2, "growAfterTexts: 0 grows as soon as requests wait");
      assert.equal(one.length, two.length);
      for (let b = 0; b < one.length; b++) {
        assert.equal(one[b]!.count, two[b]!.count);
        assert.deepEqual(one[b]!.data, two[b]!.data, `batch ${b} differs between one and two workers`);
      }
    } finally {
      await Promise.all([small.close(), eager.close()]);
    }
  });

  it("starts the second worker once a stretch of work has embedded growAfterTexts texts", async () => {
    const pool = new UseLiteWorkerPool({ size: 2, growAfterTexts: 16 });
    try {
      await build(pool, TEXTS);
      assert.equal(pool.workers.length, 2);
    } finally {
      await pool.close();
    }
  });

  it("an idle pause ends the stretch: texts before it do not count toward growing", async () => {
    const paused = new UseLiteWorkerPool({ size: 2, growAfterTexts: 16 });
    const unpaused = new UseLiteWorkerPool({ size: 2, growAfterTexts: 16 });
    try {
      // 8 texts, then three batches of 8 two at a time: with the first 8 counted, the stretch reaches 16 when the
      // burst's first batch is done, and its third batch waits with no free worker: a second one starts.
      await unpaused.embed(TEXTS.slice(0, 8));
      await build(unpaused, TEXTS.slice(8, 32));
      assert.equal(unpaused.workers.length, 2);
      // After a pause the stretch restarts: it reaches 16 only when the burst's second batch is done, and by then
      // the third has the free worker.
      await paused.embed(TEXTS.slice(0, 8));
      await sleep(USE_LITE_STRETCH_PAUSE_MS + 200);
      await build(paused, TEXTS.slice(8, 32));
      assert.equal(paused.workers.length, 1);
    } finally {
      await Promise.all([paused.close(), unpaused.close()]);
    }
  });

  it("a build announced as large (expectTexts) grows at once; queries and a lapsed announcement do not", async () => {
    const announced = new UseLiteWorkerPool({ size: 2 });
    const queriesOnly = new UseLiteWorkerPool({ size: 2 });
    const lapsed = new UseLiteWorkerPool({ size: 2 });
    try {
      announced.expectTexts(USE_LITE_GROW_AFTER_TEXTS);
      await build(announced, TEXTS.slice(0, 24));
      assert.equal(announced.workers.length, 2);
      // Single-text requests (queries) wait for the running worker rather than load a second model copy.
      queriesOnly.expectTexts(USE_LITE_GROW_AFTER_TEXTS);
      await Promise.all(TEXTS.slice(0, 6).map((t) => queriesOnly.embed([t])));
      assert.equal(queriesOnly.workers.length, 1);
      // Announced, then nothing came (all cached): a small build later starts no second worker.
      lapsed.expectTexts(USE_LITE_GROW_AFTER_TEXTS);
      await sleep(USE_LITE_STRETCH_PAUSE_MS + 200);
      await build(lapsed, TEXTS.slice(0, 24));
      assert.equal(lapsed.workers.length, 1);
    } finally {
      await Promise.all([announced.close(), queriesOnly.close(), lapsed.close()]);
    }
  });

  it("rejects a negative or fractional growAfterTexts", () => {
    assert.throws(() => new UseLiteWorkerPool({ growAfterTexts: -1 }), /growAfterTexts must be a non-negative integer/);
    assert.throws(() => new UseLiteWorkerPool({ growAfterTexts: 1.5 }), /growAfterTexts must be a non-negative integer/);
  });

  it("UseLiteEmbeddings with two workers embeds a short catalog on the shared pool's one worker", async () => {
    const e = new UseLiteEmbeddings({ workers: 2 });
    await e.close();
    try {
      const vectors = await e.embedDocuments(TEXTS);
      assert.equal(vectors.length, TEXTS.length);
      const { sharedUseLiteWorkerPool } = await import("../src/core/encoders/use-lite-pool.js");
      assert.equal(sharedUseLiteWorkerPool().size, 2);
      assert.equal(sharedUseLiteWorkerPool().workers.length, 1);
    } finally {
      await e.close();
    }
  });
});

describe("UseLiteWorkerPool: worker heap limits", () => {
  it("starts workers with a small young generation, and a given limit wins", async () => {
    const byDefault = new UseLiteWorkerPool();
    const given = new UseLiteWorkerPool({ resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 512 } });
    try {
      await Promise.all([byDefault.warmUp(), given.warmUp()]);
      assert.equal(byDefault.workers[0]!.resourceLimits?.maxYoungGenerationSizeMb, USE_LITE_WORKER_RESOURCE_LIMITS.maxYoungGenerationSizeMb);
      assert.equal(given.workers[0]!.resourceLimits?.maxYoungGenerationSizeMb, 8);
      assert.equal(given.workers[0]!.resourceLimits?.maxOldGenerationSizeMb, 512);
      // The model loads and embeds under the default limits.
      assert.equal((await byDefault.embed(["list the files"])).dim, 512);
    } finally {
      await Promise.all([byDefault.close(), given.close()]);
    }
  });
});

describe("batchPositions (padded-size cap)", () => {
  const lengths = [10, 20, 30, 100, 150, 160, 300, 400, 400, 1500];
  const order = lengths.map((_, i) => i);
  const batches = batchPositions(order, (i) => lengths[i]!, 8, 400);

  it("keeps every position once, in order", () => {
    assert.deepEqual(batches.flat(), order);
  });

  it("never exceeds batchSize texts nor batchChars of padded size, except a single over-long text", () => {
    for (const b of batches) {
      const longest = Math.max(...b.map((i) => lengths[i]!));
      assert.ok(b.length <= 8);
      assert.ok(b.length === 1 || b.length * longest <= 400, `batch ${JSON.stringify(b)} pads to ${b.length * longest}`);
    }
    assert.deepEqual(batches.at(-1), [9]);
  });

  it("fills batches up to batchSize when texts are short", () => {
    assert.deepEqual(batchPositions([0, 1, 2, 3, 4], () => 5, 2, 1200), [[0, 1], [2, 3], [4]]);
  });

  it("UseLiteEmbeddings rejects a bad batchChars; a tight cap gives the same vectors up to float rounding", async () => {
    assert.throws(() => new UseLiteEmbeddings({ batchChars: 0 }), /batchChars must be a positive integer/);
    const texts = TEXTS.slice(0, 20);
    const tight = await new UseLiteEmbeddings({ batchChars: 300 }).embedDocuments(texts);
    const loose = await new UseLiteEmbeddings({ batchChars: 1_000_000 }).embedDocuments(texts);
    for (let i = 0; i < texts.length; i++) {
      const maxDiff = Math.max(...tight[i]!.map((x, d) => Math.abs(x - loose[i]![d]!)));
      assert.ok(maxDiff <= 1e-6, `text ${i}: max component difference ${maxDiff}`);
    }
    await new UseLiteEmbeddings().close();
  });
});

describe("releaseWeightFile", () => {
  it("drops the weight bytes of a GraphModel-shaped object and leaves other shapes alone", () => {
    const model = { model: { artifacts: { weightData: new ArrayBuffer(8), modelTopology: {} } } };
    assert.equal(releaseWeightFile(model), true);
    assert.equal(model.model.artifacts.weightData, undefined);
    assert.ok(model.model.artifacts.modelTopology, "only the weight bytes go");
    assert.equal(releaseWeightFile(model), false, "nothing left to release");
    for (const other of [undefined, null, {}, { model: {} }, { model: { artifacts: null } }]) assert.equal(releaseWeightFile(other), false);
  });

  // Loads the model in this thread (adds TF.js's process listeners here): keep this block last.
  it("a loaded model holds no weight file and still embeds as the worker does", async () => {
    const model = await initUseLiteModel();
    const artifacts = (model as unknown as { model: { artifacts: { weightData?: unknown; weightSpecs?: unknown[] } } }).model.artifacts;
    assert.equal(artifacts.weightData, undefined);
    assert.ok(Array.isArray(artifacts.weightSpecs) && artifacts.weightSpecs.length > 0, "the model's other artifacts stay");
    const pool = new UseLiteWorkerPool();
    try {
      const here = await model.embed(["send an email to bob", "list the files"]);
      const there = await pool.embed(["send an email to bob", "list the files"]);
      for (let r = 0; r < 2; r++) for (let d = 0; d < there.dim; d++) assert.ok(Math.abs(here[r]![d]! - there.data[r * there.dim + d]!) <= 1e-6);
    } finally {
      await pool.close();
    }
  });
});
