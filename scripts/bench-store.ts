/**
 * Measures a Postgres-backed catalog: a cold build by W worker processes sharing one PostgreSQL (each text embedded
 * once across them), then warm starts of fresh processes from Postgres (nothing embedded). The workers are the
 * multi-process test's (test/fixtures/store-worker.ts: the test's synthetic catalog, real USE-lite, multi-vector
 * off as the router's default is above 2,000 tools).
 *
 *   node --import tsx scripts/bench-store.ts --tools 10000 --workers 2 [--warm 3] [--url postgres://…]
 *   node --import tsx scripts/bench-store.ts --tools 10000 --disk     (the same, on the local disk cache, no store)
 *
 * Without --url it starts a throwaway cluster (test/helpers/postgres.ts) and deletes it afterwards.
 */
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startPostgres } from "../test/helpers/postgres.js";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const tools = Number(arg("tools", "1000"));
const workers = Number(arg("workers", "2"));
const warmRuns = Number(arg("warm", "3"));
const here = path.dirname(fileURLToPath(import.meta.url));
const WORKER = path.join(here, "..", "test", "fixtures", "store-worker.ts");
/** --disk: no store, the router's disk cache in a temporary directory (today's single-process default). */
const diskDir = process.argv.includes("--disk") ? mkdtempSync(path.join(os.tmpdir(), "ta-bench-cache-")) : undefined;

type Msg = { type: string; [k: string]: unknown };

function run(url: string, schema: string): { ready: Promise<Msg & { wallMs: number }>; stop: () => Promise<void>; embedded: () => number } {
  const t0 = Date.now();
  const child = fork(WORKER, [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, PG_URL: url, PG_SCHEMA: schema, TOOLS: String(tools), LOCK_BATCH: "256", ...(diskDir ? { CACHE_DIR: diskDir } : {}) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let embedded = 0;
  const exited = new Promise<void>((r) => child.on("exit", () => r()));
  const ready = new Promise<Msg & { wallMs: number }>((resolve, reject) => {
    child.on("message", (m: Msg) => {
      if (m.type === "embed") embedded += (m.texts as string[]).length;
      if (m.type === "ready") resolve({ ...m, wallMs: Date.now() - t0 });
      if (m.type === "error") reject(new Error(String(m.message)));
    });
    child.on("exit", (code) => reject(new Error(`worker exited (${code}) before ready`)));
  });
  return {
    ready,
    embedded: () => embedded,
    stop: async () => {
      if (child.connected) child.send({ type: "stop" });
      await exited;
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const given = arg("url", "");
  const server = given || diskDir ? undefined : await startPostgres();
  const url = given || server?.url || "";
  const schema = `bench_${tools}_${Date.now()}`;
  try {
    const t0 = Date.now();
    const cold = Array.from({ length: workers }, () => run(url, schema));
    const coldReady = await Promise.all(cold.map((w) => w.ready));
    const coldWall = Date.now() - t0;
    const perWorker = cold.map((w) => w.embedded());
    await Promise.all(cold.map((w) => w.stop()));

    const warm: { prepareMs: number; wallMs: number; embedded: number }[] = [];
    for (let i = 0; i < warmRuns; i++) {
      const w = run(url, schema);
      const r = await w.ready;
      warm.push({ prepareMs: r.ms as number, wallMs: r.wallMs, embedded: w.embedded() });
      await w.stop();
    }
    let rows = { n: 0, bytes: 0 };
    if (!diskDir) {
      const c = new pg.Client(url);
      await c.connect();
      rows = (await c.query(`SELECT count(*) AS n, pg_total_relation_size('"${schema}".embeddings') AS bytes FROM "${schema}".embeddings`)).rows[0];
      await c.end();
    }
    const report = {
      store: diskDir ? "disk cache (no store)" : "postgres",
      tools,
      workers,
      machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model}`,
      cold: {
        wallMs: coldWall,
        prepareMs: coldReady.map((r) => r.ms),
        embeddedPerWorker: perWorker,
        embeddedTotal: perWorker.reduce((a, b) => a + b, 0),
      },
      warm: { runs: warm, medianPrepareMs: median(warm.map((w) => w.prepareMs)), medianWallMs: median(warm.map((w) => w.wallMs)) },
      rows: Number(rows.n),
      tableBytes: Number(rows.bytes),
    };
    console.log(JSON.stringify(report, null, 2));
  } finally {
    await server?.stop();
    if (diskDir) rmSync(diskDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
