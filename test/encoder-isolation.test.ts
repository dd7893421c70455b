/**
 * The default encoder (USE-lite) runs in a worker thread: the host's main thread never loads TF.js/WASM, so the
 * runtime's rethrowing process listeners cannot override the application's handlers, and forward passes do not
 * block the event loop. Real model throughout.
 *
 * Order matters: the last describe block loads the model in THIS thread (the in-process reference vectors), which
 * adds the runtime's listeners here; node:test runs a file's tests in order, so every check of this thread's
 * listeners comes before it.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { resolveEncoder } from "../src/core/encoders/index.js";
import { UseLiteEmbeddings } from "../src/core/encoders/use-lite.js";
import { UseLiteWorkerPool, sharedUseLiteWorkerPool } from "../src/core/encoders/use-lite-pool.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DEMO_PATH = path.join(ROOT, "data/demo-catalog.json");
const FIXTURE = path.join(ROOT, "test/fixtures/encoder-uncaught.ts");

const listenerCounts = () => ({
  uncaughtException: process.listenerCount("uncaughtException"),
  unhandledRejection: process.listenerCount("unhandledRejection"),
});
/** Counted before anything here loads an encoder (in a hook: the test runner adds its own listeners when it starts). */
let initialListeners: ReturnType<typeof listenerCounts>;

/** CommonJS modules of the model's packages loaded in this thread (`@energetic-ai/*` are CommonJS bundles). */
const modelModulesHere = () =>
  Object.keys(createRequire(import.meta.url).cache).filter((k) => /[\\/]@(energetic-ai|tensorflow)[\\/]/.test(k));

let tmpRoot: string;
before(async () => {
  initialListeners = listenerCounts();
  tmpRoot = await mkdtemp(path.join(tmpdir(), "tool-attention-isolation-"));
});
after(async () => {
  await rm(tmpRoot, { recursive: true, force: true });
});

function runFixture(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", FIXTURE, ...args], { cwd: ROOT, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe("default encoder in a worker thread: this thread's process listeners", () => {
  it("are unchanged after embedding with resolveEncoder('hybrid') and UseLiteEmbeddings", async () => {
    const hybrid = await resolveEncoder("hybrid", { cacheDir: path.join(tmpRoot, "hybrid") });
    const docs = await hybrid.embeddings.embedDocuments(["send an email to bob", "list files in a directory"]);
    assert.equal(docs.length, 2);
    assert.equal((await hybrid.embeddings.embedQuery("what's the weather?")).length, 512);

    const direct = new UseLiteEmbeddings();
    const vs = await direct.embedDocuments(["create a git branch", ""]);
    assert.equal(vs.length, 2);
    assert.equal((await direct.embedQuery("delete the file")).length, 512);

    assert.deepEqual(listenerCounts(), initialListeners);
    assert.deepEqual(modelModulesHere(), [], "the main thread must not load the model's packages");
  });

  it("are unchanged after preparing a router with the default encoder and routing", async () => {
    const router = new ToolAttentionRouter(ToolCatalog.fromFile(DEMO_PATH), { cacheDir: path.join(tmpRoot, "router"), log: false });
    await router.prepare();
    const d = await router.route("What's the weather going to be like in Paris tomorrow?");
    assert.equal(d.active[0]?.id, "get_weather");
    assert.deepEqual(listenerCounts(), initialListeners);
    assert.deepEqual(modelModulesHere(), []);
  });

  it("an application's own uncaughtException handler keeps working (child process exits 0)", async () => {
    const worker = await runFixture();
    assert.equal(worker.code, 0, `exit ${worker.code}\nstdout:\n${worker.stdout}\nstderr:\n${worker.stderr}`);
    assert.match(worker.stdout, /routed: get_weather; dimension: 512/);
    assert.match(worker.stdout, /handled: boom from the application/);
    assert.match(worker.stdout, /alive after the error: handled 1/);
  });

  it("control: the same application with the model in its main thread does not survive its error", async () => {
    // Guards the test above: the fixture does reproduce the defect when the model runs in the host thread.
    const inProcess = await runFixture("in-process");
    assert.match(inProcess.stdout, /routed: get_weather; dimension: 512/);
    assert.notEqual(inProcess.code, 0, `stdout:\n${inProcess.stdout}`);
    assert.doesNotMatch(inProcess.stdout, /alive after the error/);
  });
});

describe("event loop while encoding", () => {
  it("stays responsive during 50 concurrent embedQuery calls", async () => {
    const enc = new UseLiteEmbeddings();
    await enc.warmUp();
    const queries = Array.from({ length: 50 }, (_, i) => `find the open pull requests about issue number ${i} in the repository`);
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    // The histogram's first tick only sets its reference time, and a stall is recorded when the next tick runs:
    // tick before and after, or a loop held from start to end would record nothing.
    await sleep(5);
    const t0 = performance.now();
    const vectors = await Promise.all(queries.map((q) => enc.embedQuery(q)));
    const totalMs = performance.now() - t0;
    await sleep(5);
    h.disable();
    const maxMs = h.max / 1e6;
    assert.equal(vectors.length, 50);
    for (const v of vectors) assert.equal(v.length, 512);
    // Robust, not a timing threshold: the batch costs 50 forward passes (about 1 s); if they ran on this thread the
    // loop would stall for most of it. Off-thread, the longest stall is a small fraction of the batch.
    assert.ok(maxMs < totalMs / 4, `max event-loop delay ${maxMs.toFixed(1)} ms during a ${totalMs.toFixed(0)} ms batch`);
  });
});

describe("UseLiteWorkerPool", () => {
  it("starts workers lazily, up to its size, and gives the same rows from each", async () => {
    // growAfterTexts: 0 grows as soon as requests wait (by default only a long build gets a second worker).
    const pool = new UseLiteWorkerPool({ size: 2, growAfterTexts: 0 });
    try {
      assert.equal(pool.workers.length, 0);
      const texts = ["send an email to bob", "list the files", "create a git branch", "what's the weather in oslo"];
      const results = await Promise.all(texts.map((t) => pool.embed([t])));
      assert.equal(pool.workers.length, 2);
      // Same one-text batches in another worker (batch composition changes the padding, hence the vectors).
      const shared = sharedUseLiteWorkerPool();
      for (let i = 0; i < texts.length; i++) assert.deepEqual(results[i]!.data, (await shared.embed([texts[i]!])).data);
    } finally {
      await pool.close();
    }
  });
});

describe("urgent requests (a route's few texts during a build)", () => {
  it("go before the batches waiting, after the one a worker is running", async () => {
    const pool = new UseLiteWorkerPool({ size: 1 });
    try {
      await pool.warmUp();
      const batch = (tag: string) => Array.from({ length: 8 }, (_, i) => `${tag} batch text ${i}`);
      const done: string[] = [];
      const track = (name: string, p: Promise<unknown>) => p.then(() => void done.push(name));
      await Promise.all([
        track("running", pool.embed(batch("a"))),
        track("waiting 1", pool.embed(batch("b"))),
        track("waiting 2", pool.embed(batch("c"))),
        track("urgent", pool.embed(["create a git branch", "list the files"], true)),
      ]);
      assert.deepEqual(done, ["running", "urgent", "waiting 1", "waiting 2"]);
    } finally {
      await pool.close();
    }
  });

  it("make the rows a longer call's later batches take instead of embedding those texts again", async () => {
    const enc = new UseLiteEmbeddings({ workers: 1 });
    // Distinct lengths: the call embeds them shortest first, so the longest 8 are in its last batch.
    const texts = Array.from({ length: 64 }, (_, i) => `tool ${i} ${"does something useful ".repeat(1 + Math.floor(i / 8))}`.trim());
    const longest = texts.slice(-8);
    const build = enc.embedDocuments(texts);
    const urgent = await enc.embedDocumentsUrgently(longest);
    const rows = await build;
    assert.deepEqual(enc.stats, { embedded: 64, reused: 8 }, "64 texts sent once each; 8 rows taken from the urgent call");
    // The rows taken are the urgent call's, at their texts' positions; every row is the text's own vector.
    longest.forEach((_, i) => assert.deepEqual(Float32Array.from(rows[56 + i]!), Float32Array.from(urgent[i]!)));
    const fresh = await new UseLiteEmbeddings({ workers: 1 }).embedDocuments(texts);
    rows.forEach((r, i) => r.forEach((x, d) => assert.ok(Math.abs(x - fresh[i]![d]!) < 1e-5, `text ${i}, dimension ${d}`)));
  });
});

describe("UseLiteWorkerPool failures", () => {
  it("a bad batch rejects with a message naming the encoder; the worker keeps serving", async () => {
    const pool = sharedUseLiteWorkerPool();
    // The raw model cannot embed an empty string (UseLiteEmbeddings never sends one).
    await assert.rejects(pool.embed([""]), /encoder "use-lite".*embedding a batch of 1 texts failed/);
    const ok = await pool.embed(["ok"]);
    assert.equal(ok.count, 1);
    assert.equal(ok.dim, 512);
    // The raw count is reported as the model returned it, so UseLiteEmbeddings can refuse misaligned output.
    assert.equal((await pool.embed(["ok", ""])).count, 1);
  });

  it("a model load that kills the worker rejects the caller instead of hanging", async () => {
    const pool = new UseLiteWorkerPool({ resourceLimits: { maxOldGenerationSizeMb: 8 } });
    await assert.rejects(pool.warmUp(), /encoder "use-lite".*worker thread stopped unexpectedly.*while loading the model/);
    assert.equal(pool.workers.length, 0);
    await pool.close();
  });

  it("a crashed worker rejects its pending calls and is replaced on the next call", async () => {
    const pool = new UseLiteWorkerPool();
    try {
      await pool.warmUp();
      const first = pool.workers[0]!;
      const long = Array.from({ length: 8 }, (_, i) => `tool ${i}: ` + "reads the named file and returns its contents ".repeat(8));
      const pending = [pool.embed(long), pool.embed(["queued one"]), pool.embed(["queued two"])];
      await first.terminate();
      for (const p of pending) await assert.rejects(p, /encoder "use-lite".*stopped unexpectedly/);
      const again = await pool.embed(["send an email to bob"]);
      assert.equal(again.count, 1);
      assert.equal(pool.workers.length, 1);
      assert.notEqual(pool.workers[0], first);
    } finally {
      await pool.close();
    }
  });

  it("close() rejects what is pending and the pool restarts on demand", async () => {
    const pool = new UseLiteWorkerPool();
    const pending = assert.rejects(pool.embed(["list the files"]), /closed before this request finished/);
    await pool.close();
    await pending;
    assert.equal(pool.workers.length, 0);
    assert.equal((await pool.embed(["list the files"])).count, 1);
    await pool.close();
  });
});

// Loads the model in this thread: keep this block last (see the file comment).
describe("worker vectors equal in-process vectors", () => {
  it("for short, empty, whitespace-only, non-Latin and long texts, across batch boundaries", async () => {
    const texts = [
      "send an email to bob",
      "",
      "   ",
      "Create a new issue in a GitHub repository. Use it to report bugs or request features.",
      "查询微信读书app排名",
      "search the knowledge base ".repeat(120), // truncated at maxChars
      "x".repeat(1000), // no word boundary: hard cut
    ];
    for (const batchSize of [8, 3]) {
      const worker = new UseLiteEmbeddings({ batchSize });
      const inProcess = new UseLiteEmbeddings({ batchSize, inProcess: true });
      const [w, p] = [await worker.embedDocuments(texts), await inProcess.embedDocuments(texts)];
      assert.equal(w.length, texts.length);
      assert.equal(p.length, texts.length);
      for (let i = 0; i < texts.length; i++) {
        assert.equal(w[i]!.length, p[i]!.length);
        const maxDiff = Math.max(...w[i]!.map((x, d) => Math.abs(x - p[i]![d]!)));
        assert.ok(maxDiff <= 1e-6, `text ${i} (batch size ${batchSize}): max component difference ${maxDiff}`);
      }
      assert.equal(worker.dimension, 512);
      const [qw, qp] = [await worker.embedQuery("Read The File"), await inProcess.embedQuery("Read The File")];
      assert.ok(Math.max(...qw.map((x, d) => Math.abs(x - qp[d]!))) <= 1e-6);
    }
  });
});
