/**
 * Four worker processes (test/fixtures/store-worker.ts) sharing one real PostgreSQL (test/helpers/postgres.ts):
 * - cold start: every routing text embedded exactly once across the four; all route on version 1;
 * - a catalog change mid-run, applied by two workers at once (as if both got MCP list_changed): one new version,
 *   its 8 new texts embedded once, and all four route on it within FOLLOW_BOUND_MS of the change;
 * - a worker SIGKILLed mid-build: the others finish, every text has exactly one row, no lock is left behind, and a
 *   restarted worker warm-starts with zero encoder calls;
 * - a stopped worker exits by itself (the store's LISTEN connection and pool do not keep it alive).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startPostgres, type TestPostgres } from "./helpers/postgres.js";

/** The bound this test asserts on "every process routes on the new version" after the change is published. */
const FOLLOW_BOUND_MS = 3000;
const TOOLS = 300;
const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "store-worker.ts");

let server: TestPostgres;
before(async () => {
  server = await startPostgres();
});
after(async () => {
  await server?.stop();
});

type Msg = { type: string; [k: string]: unknown };
interface Worker {
  id: number;
  child: ChildProcess;
  messages: Msg[];
  waitFor(pred: (m: Msg) => boolean, timeoutMs?: number): Promise<Msg>;
  exited: Promise<number | null>;
}

function startWorker(id: number, schema: string, extraEnv: Record<string, string> = {}): Worker {
  const child = fork(WORKER, [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, PG_URL: server.url, PG_SCHEMA: schema, TOOLS: String(TOOLS), LOCK_BATCH: "32", ...extraEnv },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const messages: Msg[] = [];
  const waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  child.on("message", (m: Msg) => {
    messages.push(m);
    if (m.type === "error") console.error(`worker ${id}: ${m.message}`);
    for (const w of [...waiters]) if (w.pred(m)) (waiters.splice(waiters.indexOf(w), 1), w.resolve(m));
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    id,
    child,
    messages,
    exited,
    waitFor(pred, timeoutMs = 120_000) {
      const hit = messages.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`worker ${id}: timed out; messages: ${JSON.stringify(messages.map((m) => m.type))}`)), timeoutMs);
        waiters.push({ pred, resolve: (m) => (clearTimeout(timer), resolve(m)) });
        exited.then(() => setTimeout(() => reject(new Error(`worker ${id} exited; messages: ${JSON.stringify(messages.map((m) => m.type))}`)), 100));
      });
    },
  };
}

const embeddedTexts = (w: Worker) => w.messages.filter((m) => m.type === "embed").flatMap((m) => m.texts as string[]);

async function sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]> {
  const c = new pg.Client(server.url);
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

async function stopAll(workers: Worker[]): Promise<void> {
  for (const w of workers) if (w.child.connected) w.child.send({ type: "stop" });
  const codes = await Promise.all(
    workers.map((w) => Promise.race([w.exited, new Promise<string>((r) => setTimeout(() => r("still running"), 20_000))])),
  );
  for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
  assert.deepEqual(codes.filter((c) => c !== 0 && c !== null), [], "every worker exits by itself after stop");
}

test("4 workers on one Postgres: each text embedded once, a mid-run catalog change reaches all four within the bound", async () => {
  const schema = "mp_change";
  const workers = [0, 1, 2, 3].map((i) => startWorker(i, schema));
  try {
    const ready = await Promise.all(workers.map((w) => w.waitFor((m) => m.type === "ready" || m.type === "error")));
    assert.deepEqual(ready.map((m) => m.type), ["ready", "ready", "ready", "ready"], JSON.stringify(ready));
    const texts = ready[0].texts as number;
    assert.equal(texts, TOOLS);
    const all = workers.flatMap(embeddedTexts);
    assert.equal(all.length, texts, `embedded across the four: ${workers.map((w) => embeddedTexts(w).length)}`);
    assert.equal(new Set(all).size, texts, "no text embedded twice");
    assert.deepEqual(ready.map((m) => m.version), [1, 1, 1, 1]);
    console.log(`# cold start, ${TOOLS} tools, 4 workers: ${ready.map((m) => `${m.ms} ms`).join(", ")}; embedded per worker ${workers.map((w) => embeddedTexts(w).length).join("/")}`);
    await Promise.all(workers.map((w) => w.waitFor((m) => m.type === "route" && m.version === 1)));

    // The change reaches workers 1 and 2 at the same moment; 0 and 3 only hear of it from the store.
    const before = workers.map((w) => embeddedTexts(w).length);
    workers[1].child.send({ type: "replace" });
    workers[2].child.send({ type: "replace" });
    const replaced = await Promise.all([1, 2].map((i) => workers[i].waitFor((m) => m.type === "replaced")));
    assert.deepEqual(replaced.map((m) => m.version), [2, 2], "one new version, whoever published first");
    const published = Math.min(...replaced.map((m) => m.at as number));
    const routed = await Promise.all(workers.map((w) => w.waitFor((m) => m.type === "route" && m.version === 2, 30_000)));
    const lags = routed.map((m) => (m.at as number) - published);
    console.log(`# catalog change: all 4 routing on version 2 after ${lags.join(", ")} ms (bound ${FOLLOW_BOUND_MS} ms)`);
    for (const lag of lags) assert.ok(lag <= FOLLOW_BOUND_MS, `lag ${lag} ms`);
    // Every worker's first route on version 2 already has the new calendar tools on top.
    for (const m of routed) assert.ok(["create_event", "find_free_slot", "list_events", "invite_attendee", "cancel_event"].includes(m.top as string), String(m.top));
    const newEmbeds = workers.map((w, i) => embeddedTexts(w).length - before[i]);
    assert.equal(newEmbeds.reduce((a, b) => a + b, 0), 8, `the 8 new texts embedded once in total: ${newEmbeds}`);
    assert.deepEqual([newEmbeds[0], newEmbeds[3]], [0, 0], "followers embed nothing");
    assert.equal(replaced.reduce((n, m) => n + (m.embedded as number), 0), 8, "replaceCatalog reports what its own encoder embedded");
    const versions = await sql<{ version: string }>(`SELECT version FROM "${schema}".catalog_versions ORDER BY version`);
    assert.deepEqual(versions.map((v) => Number(v.version)), [1, 2]);
    const rows = await sql<{ n: string; d: string }>(`SELECT count(*) AS n, count(DISTINCT text_hash) AS d FROM "${schema}".embeddings`);
    assert.deepEqual([Number(rows[0].n), Number(rows[0].d)], [TOOLS + 8, TOOLS + 8]);
  } finally {
    await stopAll(workers);
  }
});

test("4 workers, one SIGKILLed mid-build: nothing lost, no duplicate rows, no lock left; a restarted worker warm-starts", async () => {
  const schema = "mp_kill";
  const workers = [0, 1, 2, 3].map((i) => startWorker(i, schema));
  try {
    // Worker 0 dies while its first batch is in the encoder (it holds that batch's advisory locks).
    const first = await workers[0].waitFor((m) => m.type === "embed" || m.type === "ready");
    assert.equal(first.type, "embed", "worker 0 got a batch to embed");
    workers[0].child.kill("SIGKILL");
    const inFlight = first.texts as string[];
    const survivors = workers.slice(1);
    const ready = await Promise.all(survivors.map((w) => w.waitFor((m) => m.type === "ready" || m.type === "error")));
    assert.deepEqual(ready.map((m) => m.type), ["ready", "ready", "ready"], JSON.stringify(ready));
    const byOthers = survivors.flatMap(embeddedTexts);
    assert.equal(new Set(byOthers).size, byOthers.length, "no text embedded twice by the survivors");
    for (const t of inFlight) assert.ok(byOthers.includes(t), "the killed worker's batch was taken over");
    const killedEmbedded = embeddedTexts(workers[0]);
    assert.ok(byOthers.length + killedEmbedded.length <= TOOLS + killedEmbedded.length);
    const rows = await sql<{ n: string; d: string }>(`SELECT count(*) AS n, count(DISTINCT text_hash) AS d FROM "${schema}".embeddings`);
    assert.deepEqual([Number(rows[0].n), Number(rows[0].d)], [TOOLS, TOOLS], "every text exactly one row");
    console.log(`# kill mid-build: worker 0 killed holding ${inFlight.length} texts; survivors embedded ${survivors.map((w) => embeddedTexts(w).length).join("/")}`);

    // A replacement worker: all rows there, nothing to embed.
    const restarted = startWorker(4, schema);
    workers.push(restarted);
    const r = await restarted.waitFor((m) => m.type === "ready" || m.type === "error");
    assert.equal(r.type, "ready", JSON.stringify(r));
    assert.equal(r.embedded, 0, "warm start from Postgres: zero encoder calls");
    assert.equal(r.version, 1);
    console.log(`# restarted worker warm start from Postgres (${TOOLS} tools): ${r.ms} ms`);
  } finally {
    await stopAll(workers.slice(1));
    await workers[0].exited;
  }
  const locks = await sql<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory'");
  assert.equal(Number(locks[0].n), 0, "no advisory lock left behind");
});
