/**
 * PostgresRoutingStore on a real throwaway PostgreSQL cluster (test/helpers/postgres.ts): exactly-once embedding
 * under advisory locks, take-over from a dead lock holder, catalog versions, LISTEN/NOTIFY and polling, and a router
 * warm-starting from the store with zero encoder calls (real USE-lite, counted).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import pg from "pg";
import { startPostgres, type TestPostgres } from "./helpers/postgres.js";
import { CountingEmbeddings, hashEmbed, pruneVersionsContract, smallCatalog, tool } from "./helpers/store-fixtures.js";
import { PostgresRoutingStore, type PgClientLike, type PgPoolLike } from "../src/core/store/postgres.js";
import { BlobAssembly, COPY_SLICE_BYTES } from "../src/core/store/pg-blob-read.js";
import { advisoryKey, textKey } from "../src/core/store/codec.js";
import { catalogSnapshotOf } from "../src/core/store/snapshot.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import type { ToolAttentionEvent } from "../src/core/events/events.js";

let server: TestPostgres;
const stores: PostgresRoutingStore[] = [];
let schemaN = 0;
/** A store on a fresh schema (each test its own tables), closed after the suite. */
function newStore(opts: Partial<ConstructorParameters<typeof PostgresRoutingStore>[0]> = {}, schema?: string): PostgresRoutingStore {
  const s = new PostgresRoutingStore({ connectionString: server.url, schema: schema ?? `t${++schemaN}`, warn: () => {}, ...opts });
  stores.push(s);
  return s;
}
async function sql<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]> {
  const c = new pg.Client(server.url);
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

before(async () => {
  server = await startPostgres();
});
after(async () => {
  for (const s of stores) await s.close();
  await server?.stop();
});

test("embedThrough embeds only missing texts, once; a second store instance reads them back bit-identical", async () => {
  const a = newStore();
  const embed = hashEmbed();
  const texts = ["alpha", "beta", "gamma", "beta"];
  const r1 = await a.embedThrough("m1", texts, embed);
  assert.equal(r1.embedded, 3);
  assert.deepEqual(embed.log, [["alpha", "beta", "gamma"]]);
  assert.equal(r1.vectors.length, 4);
  assert.deepEqual(r1.vectors[1], r1.vectors[3]);
  const r2 = await a.embedThrough("m1", ["gamma", "delta"], embed);
  assert.equal(r2.embedded, 1);
  assert.deepEqual(embed.log[1], ["delta"]);
  const b = newStore({}, a.schema);
  const r3 = await b.embedThrough("m1", texts, hashEmbed());
  assert.equal(r3.embedded, 0);
  assert.deepEqual(r3.vectors.map((v) => [...v]), r1.vectors.map((v) => [...v]));
  // Another model id is another vector space: nothing shared.
  assert.equal((await b.embedThrough("m2", ["alpha"], hashEmbed())).embedded, 1);
  const got = await b.getEmbeddings("m1", ["alpha", "nope"]);
  assert.deepEqual([...got.keys()], ["alpha"]);
  const rows = await sql<{ n: string }>(`SELECT count(*) AS n FROM "${a.schema}".embeddings`);
  assert.equal(Number(rows[0].n), 5);
});

test("concurrent stores split the work: every text embedded exactly once across them", async () => {
  const schema = `t${++schemaN}`;
  const texts = Array.from({ length: 300 }, (_, i) => `text number ${i}`);
  const logs: string[][][] = [];
  const results = await Promise.all(
    [0, 1, 2, 3].map((i) => {
      const store = newStore({ lockBatch: 16, waitPollMs: 10 }, schema);
      const embed = hashEmbed([], 5);
      logs.push(embed.log);
      return store.embedThrough("m", texts, embed);
    }),
  );
  const embedded = logs.flat(2);
  assert.equal(embedded.length, texts.length, "each text embedded once in total");
  assert.equal(new Set(embedded).size, texts.length);
  assert.equal(results.reduce((n, r) => n + r.embedded, 0), texts.length);
  // With 16-text lock batches and a slow encoder, more than one store did some of the work.
  assert.ok(logs.filter((l) => l.length > 0).length > 1, `work split: ${logs.map((l) => l.flat().length)}`);
  for (const r of results) assert.deepEqual(r.vectors.map((v) => [...v]), results[0].vectors.map((v) => [...v]));
  const rows = await sql<{ n: string; d: string }>(`SELECT count(*) AS n, count(DISTINCT text_hash) AS d FROM "${schema}".embeddings`);
  assert.equal(Number(rows[0].n), texts.length);
  assert.equal(Number(rows[0].d), texts.length);
});

test("a text locked by a session that dies is taken over; a live holder is waited for", async () => {
  const store = newStore({ waitPollMs: 20 });
  await store.connect();
  const holder = new pg.Client(server.url);
  await holder.connect();
  holder.on("error", () => {});
  const pid = (await holder.query("SELECT pg_backend_pid() AS pid")).rows[0].pid;
  await holder.query("SELECT pg_advisory_lock($1::bigint)", [advisoryKey(textKey("m", "held text"))]);
  const embed = hashEmbed();
  let done = false;
  const pending = store.embedThrough("m", ["held text", "free text"], embed).then((r) => {
    done = true;
    return r;
  });
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(done, false, "waits while the holder's session lives");
  assert.deepEqual(embed.log, [["free text"]], "the free text is embedded meanwhile");
  // The holder dies without writing its row: PostgreSQL releases its session lock.
  await sql("SELECT pg_terminate_backend($1)", [pid]);
  const r = await pending;
  assert.equal(r.embedded, 2);
  assert.deepEqual(embed.log, [["free text"], ["held text"]]);
  const left = await sql<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory'");
  assert.equal(Number(left[0].n), 0, "no advisory lock left behind");
});

test("an encoder failure releases the locks and leaves no rows; the next call embeds", async () => {
  const store = newStore();
  await assert.rejects(store.embedThrough("m", ["x", "y"], async () => { throw new Error("encoder down"); }), /encoder down/);
  await assert.rejects(store.embedThrough("m", ["x"], async () => [[1, 2], [3, 4]]), /returned 2 vectors for 1 texts/);
  const left = await sql<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory'");
  assert.equal(Number(left[0].n), 0);
  assert.equal((await store.embedThrough("m", ["x", "y"], hashEmbed())).embedded, 2);
});

test("catalog versions: monotone, deduplicated by digest, snapshots read back in their own key order", async () => {
  const store = newStore();
  assert.equal(await store.latestCatalog("c"), undefined);
  const s1 = catalogSnapshotOf(smallCatalog());
  const v1 = await store.publishCatalog("c", s1);
  assert.deepEqual([v1.version, v1.created, v1.tools], [1, true, 4]);
  const again = await store.publishCatalog("c", JSON.parse(JSON.stringify(s1)));
  assert.deepEqual([again.version, again.created], [1, false]);
  const s2 = catalogSnapshotOf(smallCatalog([tool("delete_message", "Delete a message.")]));
  const v2 = await store.publishCatalog("c", s2);
  assert.deepEqual([v2.version, v2.created, v2.tools], [2, true, 5]);
  // Another catalog name is versioned on its own.
  assert.equal((await store.publishCatalog("other", s1)).version, 1);
  const latest = await store.latestCatalog("c");
  assert.equal(latest?.version, 2);
  assert.deepEqual(latest?.snapshot, s2);
  // "days" after "city", as published (jsonb would sort them by length).
  assert.deepEqual(Object.keys((latest?.snapshot.servers[0].tools[0].inputSchema as { properties: object }).properties), ["city", "days"]);
  assert.equal((await store.getCatalog("c", 1))?.digest, v1.digest);
  assert.equal(await store.getCatalog("c", 9), undefined);
  // The version without its snapshot; a caller's digest is checked, not trusted blindly.
  assert.deepEqual(await store.latestVersion("c"), { catalog: "c", version: 2, digest: v2.digest, tools: 5 });
  assert.equal(await store.latestVersion("none"), undefined);
  await assert.rejects(store.publishCatalog("c", s2, "abc"), /PostgresRoutingStore\.publishCatalog: digest must be/);
  // Concurrent publishers of one new snapshot get one version.
  const s3 = catalogSnapshotOf(smallCatalog([tool("star_message", "Star a message.")]));
  const others = [0, 1, 2].map(() => newStore({}, store.schema));
  const res = await Promise.all(others.map((o) => o.publishCatalog("c", s3)));
  assert.deepEqual(res.map((r) => r.version), [3, 3, 3]);
  assert.equal(res.filter((r) => r.created).length, 1);
});

test("pruneCatalogVersions keeps the latest versions of one catalog", async () => {
  const store = newStore();
  await pruneVersionsContract(store);
  const rows = await sql<{ catalog: string; version: string }>(`SELECT catalog, version FROM "${store.schema}".catalog_versions ORDER BY catalog, version`);
  assert.deepEqual(rows.map((r) => `${r.catalog}/v${r.version}`), ["other/v1", "p/v5"]);
});

test("watchCatalog hears other processes' versions by NOTIFY, and by polling when LISTEN is off", async () => {
  const publisher = newStore();
  await publisher.publishCatalog("c", catalogSnapshotOf(smallCatalog()));
  // pollMs huge: only the notification can deliver in time.
  const notified = newStore({ pollMs: 3_600_000 }, publisher.schema);
  const polled = newStore({ listen: false, pollMs: 50 }, publisher.schema);
  const heard: Record<string, number[]> = { notified: [], polled: [] };
  const stopA = await notified.watchCatalog("c", (v) => heard.notified.push(v.version));
  const stopB = await polled.watchCatalog("c", (v) => heard.polled.push(v.version));
  const t0 = Date.now();
  await publisher.publishCatalog("c", catalogSnapshotOf(smallCatalog([tool("x_tool", "Do x.")])));
  while ((heard.notified.length === 0 || heard.polled.length === 0) && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(heard, { notified: [2], polled: [2] });
  stopA();
  stopB();
});

test("a lost LISTEN connection: the poll still delivers the version and reconnects the listener", async () => {
  const publisher = newStore();
  await publisher.publishCatalog("c", catalogSnapshotOf(smallCatalog()));
  const watcher = newStore({ pollMs: 200 }, publisher.schema);
  const heard: number[] = [];
  const stop = await watcher.watchCatalog("c", (v) => heard.push(v.version));
  const listening = () => sql<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE query = $1", [`LISTEN "${watcher.channel}"`]);
  const [before] = await listening();
  assert.ok(before, "a LISTEN connection is open");
  await sql("SELECT pg_terminate_backend($1)", [before.pid]);
  await publisher.publishCatalog("c", catalogSnapshotOf(smallCatalog([tool("t2", "Second tool.")])));
  const t0 = Date.now();
  while (heard.length === 0 && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(heard, [2], "delivered by the poll");
  let after: { pid: number } | undefined;
  while (!after && Date.now() - t0 < 5000) {
    [after] = (await listening()).filter((r) => r.pid !== before.pid);
    if (!after) await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(after, "the poll reopened the LISTEN connection");
  stop();
});

test("blobs: chunked rows behind a head, read back whole and verified; first writer wins; missing and bad keys", async () => {
  const a = newStore({ blobChunkBytes: 65_536 });
  const warnings: string[] = [];
  const b = newStore({ warn: (m) => warnings.push(m) }, a.schema); // default 8 MiB chunks: readers follow the head, not their own setting
  const bytes = randomBytes(1_000_000);
  assert.equal(await b.getBlob("idx-missing"), undefined);
  await a.putBlob("idx-1.hnsw", bytes);
  const got = await b.getBlob("idx-1.hnsw");
  assert.ok(got && Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(bytes));
  assert.equal(got.byteOffset % 4, 0, "aligned for typed views");
  const [head] = await sql<{ chunks: number; chunk_bytes: number; bytes: string; sha256: string }>(
    `SELECT chunks, chunk_bytes, bytes, sha256 FROM "${a.schema}".blob_heads WHERE key = 'idx-1.hnsw'`,
  );
  assert.deepEqual({ ...head, bytes: Number(head.bytes) }, { chunks: 16, chunk_bytes: 65_536, bytes: 1_000_000, sha256: createHash("sha256").update(bytes).digest("hex") });
  const [{ storage }] = await sql<{ storage: string }>(
    `SELECT attstorage AS storage FROM pg_attribute WHERE attrelid = '"${a.schema}".blob_chunks'::regclass AND attname = 'data'`,
  );
  assert.equal(storage, "e", "stored out of line, uncompressed");
  // First writer wins: the key's bytes never change.
  await b.putBlob("idx-1.hnsw", randomBytes(10));
  assert.ok(Buffer.from((await a.getBlob("idx-1.hnsw"))!).equals(bytes));
  assert.equal(Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM "${a.schema}".blob_chunks WHERE key = 'idx-1.hnsw'`))[0].n), 16);
  // Empty, and a blob at an odd byteOffset.
  await a.putBlob("empty", new Uint8Array(0));
  assert.equal((await b.getBlob("empty"))?.byteLength, 0);
  const odd = Buffer.concat([Buffer.from([1]), bytes.subarray(0, 70_001)]).subarray(1);
  await a.putBlob("odd", odd);
  assert.ok(Buffer.from((await b.getBlob("odd"))!).equals(odd));
  // Keys are validated, naming the key.
  await assert.rejects(a.getBlob("a/b"), /PostgresRoutingStore\.getBlob: invalid blob key "a\/b"/);
  await assert.rejects(a.putBlob("x".repeat(201), bytes), /putBlob: invalid blob key "x{201}"/);
  await assert.rejects(a.putBlob("k", [1, 2] as never), /must be a Uint8Array/);
  assert.throws(() => newStore({ blobChunkBytes: 100 }), /options\.blobChunkBytes/);
  // A 20 MB blob in default 8 MiB chunks.
  const big = randomBytes(20_000_000);
  await b.putBlob("big", big);
  assert.ok(Buffer.from((await a.getBlob("big"))!).equals(big));
  assert.equal(Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM "${a.schema}".blob_chunks WHERE key = 'big'`))[0].n), 3);
  assert.ok(Buffer.from((await b.getBlob("big"))!).equals(big));
  assert.deepEqual(warnings, [], "read by COPY, no fallback");
  // From 16 MiB on (blobThreadMinBytes), blobs are read in a reader thread; smaller ones on the calling thread.
  assert.deepEqual(b.blobReads, { thread: 1, calling: 3 });
  assert.deepEqual(a.blobReads, { thread: 1, calling: 1 });
});

test("blobs in a reader thread: the same bytes, damage reported as on the calling thread, misconfiguration refused", async () => {
  const a = newStore({ blobChunkBytes: 65_536 });
  const warnings: string[] = [];
  const threaded = newStore({ blobThreadMinBytes: 1024, warn: (m) => warnings.push(m) }, a.schema);
  const bytes = randomBytes(300_000);
  await a.putBlob("t-1", bytes);
  const got = await threaded.getBlob("t-1");
  assert.ok(got && Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(bytes));
  assert.equal(got.byteOffset % 4, 0, "aligned for typed views");
  await a.putBlob("t-small", bytes.subarray(0, 1000));
  assert.ok(Buffer.from((await threaded.getBlob("t-small"))!).equals(bytes.subarray(0, 1000)));
  assert.deepEqual(threaded.blobReads, { thread: 1, calling: 1 }, "below the threshold: the calling thread");
  await sql(`UPDATE "${a.schema}".blob_chunks SET data = set_byte(data, 9, (get_byte(data, 9) + 1) % 256) WHERE key = 't-1' AND seq = 2`);
  await assert.rejects(threaded.getBlob("t-1"), /PostgresRoutingStore\.getBlob: blob "t-1" is damaged \(sha256 [0-9a-f]{64}, its head says/);
  assert.deepEqual(warnings, [], "damage is not a reason to leave the thread");
  // A pool the application passes stays on the calling thread (a thread cannot share it).
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  const pooled = new PostgresRoutingStore({ pool, schema: a.schema, blobThreadMinBytes: 1024 });
  await a.putBlob("t-2", bytes);
  assert.ok(Buffer.from((await pooled.getBlob("t-2"))!).equals(bytes));
  assert.deepEqual(pooled.blobReads, { thread: 0, calling: 1 });
  await pooled.close();
  await pool.end();
  // 0 turns the thread off.
  const off = newStore({ blobThreadMinBytes: 0 }, a.schema);
  assert.ok(Buffer.from((await off.getBlob("t-2"))!).equals(bytes));
  assert.deepEqual(off.blobReads, { thread: 0, calling: 1 });
  assert.throws(() => newStore({ blobThreadMinBytes: -1 }), /options\.blobThreadMinBytes must be an integer from 0/);
});

test("blobs: concurrent writers of one key all resolve and leave one copy; chunks without a head are no blob; damage is reported", async () => {
  const schema = `t${++schemaN}`;
  const writers = [0, 1, 2, 3].map(() => newStore({ blobChunkBytes: 65_536 }, schema));
  await writers[0].connect();
  const bytes = randomBytes(700_000);
  await Promise.all(writers.map((w) => w.putBlob("shared", bytes)));
  const counts = await sql<{ heads: string; chunks: string }>(
    `SELECT (SELECT count(*) FROM "${schema}".blob_heads WHERE key = 'shared') AS heads, (SELECT count(*) FROM "${schema}".blob_chunks WHERE key = 'shared') AS chunks`,
  );
  assert.deepEqual(counts.map((c) => [Number(c.heads), Number(c.chunks)]), [[1, 11]]);
  for (const w of writers) assert.ok(Buffer.from((await w.getBlob("shared"))!).equals(bytes));
  const left = await sql<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory'");
  assert.equal(Number(left[0].n), 0, "no advisory lock left behind");

  // Chunks written without their head (a writer outside this store, or by hand): not a blob, replaced by the next put.
  await sql(`INSERT INTO "${schema}".blob_chunks (key, seq, data) VALUES ('torn', 0, $1), ('torn', 5, $1)`, [Buffer.from("partial")]);
  assert.equal(await writers[1].getBlob("torn"), undefined);
  await writers[1].putBlob("torn", bytes);
  assert.ok(Buffer.from((await writers[2].getBlob("torn"))!).equals(bytes));
  assert.equal(Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".blob_chunks WHERE key = 'torn'`))[0].n), 11);

  // Damage is reported, not returned.
  await sql(`UPDATE "${schema}".blob_chunks SET data = set_byte(data, 9, (get_byte(data, 9) + 1) % 256) WHERE key = 'torn' AND seq = 3`);
  await assert.rejects(writers[0].getBlob("torn"), /PostgresRoutingStore\.getBlob: blob "torn" is damaged \(sha256 [0-9a-f]{64}, its head says/);
  await sql(`UPDATE "${schema}".blob_chunks SET data = substring(data from 1 for 100) WHERE key = 'torn' AND seq = 4`);
  await assert.rejects(writers[0].getBlob("torn"), /is damaged \(chunk 4 holds 100 bytes, expected 65536\)/);
  await sql(`DELETE FROM "${schema}".blob_chunks WHERE key = 'shared' AND seq = 10`);
  await assert.rejects(writers[0].getBlob("shared"), /is damaged \(chunk 10 of 11 is missing\)/);
});

test("blobs: a pool whose clients do not run pg Submittables (no COPY) reads blobs as base64 text, with one warning", async () => {
  const pool = new pg.Pool({ connectionString: server.url, max: 4 });
  // Clients that only take (text, values), as a pool other than pg's might.
  const plain: PgPoolLike = {
    query: (text, values) => pool.query(text as string, values),
    connect: async () => {
      const c = await pool.connect();
      return { query: (text: unknown, values?: unknown[]) => (typeof text === "string" ? c.query(text, values) : Promise.reject(new TypeError("no submittables"))), release: (d) => c.release(d) } as PgClientLike;
    },
    end: () => pool.end(),
  };
  const warnings: string[] = [];
  const store = new PostgresRoutingStore({ pool: plain, schema: `t${++schemaN}`, blobChunkBytes: 65_536, warn: (m) => warnings.push(m) });
  const bytes = randomBytes(500_000);
  await store.putBlob("b64", bytes);
  assert.ok(Buffer.from((await store.getBlob("b64"))!).equals(bytes));
  assert.ok(Buffer.from((await store.getBlob("b64"))!).equals(bytes));
  assert.equal(warnings.length, 1, warnings.join("\n"));
  assert.match(warnings[0], /blob read by COPY failed .*reading blobs as base64 text/);
  // The same checks on this path.
  await sql(`UPDATE "${store.schema}".blob_chunks SET data = substring(data from 1 for 7) WHERE key = 'b64' AND seq = 2`);
  await assert.rejects(store.getBlob("b64"), /blob "b64" is damaged \(chunk 2 holds 7 bytes, expected 65536\)/);
  await sql(`DELETE FROM "${store.schema}".blob_chunks WHERE key = 'b64' AND seq = 2`);
  await assert.rejects(store.getBlob("b64"), /blob "b64" is damaged \(chunk 2 of 8 is missing\)/);
  await store.close();
  await pool.end();
});

test("pruneBlobs deletes the blobs unused for longer than asked (head, chunks and use mark); a read marks a blob used", async () => {
  const a = newStore({ blobChunkBytes: 65_536 });
  const bytes = (n: number) => new Uint8Array(randomBytes(n));
  await a.putBlob("old-1", bytes(200_000));
  await a.putBlob("old-2", bytes(1_000));
  await a.putBlob("fresh", bytes(5_000));
  await a.putBlob("read-later", bytes(5_000));
  const q = `"${a.schema}"`;
  assert.deepEqual((await sql<{ key: string }>(`SELECT key FROM ${q}.blob_uses ORDER BY key`)).map((r) => r.key), ["fresh", "old-1", "old-2", "read-later"], "a write marks the blob used");
  // Two days without use; "old-2" predates use marks (no row: its creation counts).
  await sql(`UPDATE ${q}.blob_uses SET used_at = now() - interval '2 days' WHERE key IN ('old-1', 'read-later')`);
  await sql(`DELETE FROM ${q}.blob_uses WHERE key = 'old-2'`);
  await sql(`UPDATE ${q}.blob_heads SET created_at = now() - interval '2 days' WHERE key IN ('old-1', 'old-2', 'read-later')`);
  // Reading "read-later" marks it used again (its mark was more than an hour old).
  assert.equal((await a.getBlob("read-later"))?.byteLength, 5_000);
  await new Promise((r) => setTimeout(r, 100));
  const day = 24 * 3600 * 1000;
  assert.deepEqual(await a.pruneBlobs({ unusedForMs: 3 * day }), { deleted: [], bytes: 0 }, "nothing is three days old");
  assert.deepEqual(await a.pruneBlobs({ unusedForMs: day }), { deleted: ["old-1", "old-2"], bytes: 201_000 });
  assert.equal(await a.getBlob("old-1"), undefined);
  assert.equal(Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM ${q}.blob_chunks WHERE key LIKE 'old-%'`))[0].n), 0, "no chunk left behind");
  assert.equal(Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM ${q}.blob_uses WHERE key LIKE 'old-%'`))[0].n), 0);
  assert.equal((await a.getBlob("fresh"))?.byteLength, 5_000);
  assert.equal((await a.getBlob("read-later"))?.byteLength, 5_000);
  // A deleted key can be written again.
  await a.putBlob("old-1", bytes(10));
  assert.equal((await a.getBlob("old-1"))?.byteLength, 10);
  await assert.rejects(a.pruneBlobs({ unusedForMs: -1 }), /PostgresRoutingStore\.pruneBlobs: options\.unusedForMs must be a finite number of milliseconds ≥ 0 \(got -1\)/);
  await assert.rejects(a.pruneBlobs({} as never), /options\.unusedForMs must be a finite number/);
  assert.deepEqual(await a.pruneBlobs({ unusedForMs: Number.MAX_VALUE }), { deleted: [], bytes: 0 }, "a huge age is no database error");
});

test("misconfiguration fails at construction naming the option; bad input names the field", async () => {
  assert.throws(() => new PostgresRoutingStore({}), /options\.connectionString .* or options\.pool/);
  assert.throws(() => new PostgresRoutingStore({ connectionString: "mysql://x" }), /options\.connectionString must be a postgres:\/\//);
  assert.throws(() => new PostgresRoutingStore({ connectionString: server.url, schema: "Bad-Name" }), /options\.schema/);
  assert.throws(() => new PostgresRoutingStore({ connectionString: server.url, lockBatch: 0 }), /options\.lockBatch/);
  assert.throws(() => new PostgresRoutingStore({ connectionString: server.url, listen: false, pollMs: 0 }), /options\.listen .* options\.pollMs/);
  assert.throws(() => new PostgresRoutingStore({ pool: {} as never }), /options\.pool must be a pg\.Pool/);
  const store = newStore();
  await assert.rejects(store.publishCatalog("", catalogSnapshotOf(smallCatalog())), /catalog name/);
  await assert.rejects(store.publishCatalog("c", {} as never), /snapshot\.servers/);
  await assert.rejects(store.embedThrough("", ["x"], hashEmbed()), /modelId/);
  // An unreachable server fails on first use, with the schema named.
  const dead = new PostgresRoutingStore({ connectionString: "postgres://postgres@127.0.0.1:1/postgres" });
  await assert.rejects(dead.connect(), /ECONNREFUSED|connect/);
  await dead.close();
  await assert.rejects(dead.connect(), /closed/);
});

test("an application's own pg.Pool is used and left open by close()", async () => {
  const pool = new pg.Pool({ connectionString: server.url, max: 3 });
  const store = new PostgresRoutingStore({ pool, schema: `t${++schemaN}` });
  assert.equal((await store.embedThrough("m", ["a"], hashEmbed())).embedded, 1);
  const heard: number[] = [];
  const stop = await store.watchCatalog("c", (v) => heard.push(v.version));
  await store.publishCatalog("c", catalogSnapshotOf(smallCatalog()));
  const t0 = Date.now();
  while (heard.length === 0 && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(heard, [1], "the listen connection was opened from the pool's settings");
  stop();
  await store.close();
  assert.equal(Number((await pool.query("SELECT 1 AS one")).rows[0].one), 1, "the pool is still usable");
  await pool.end();
});

test("router warm-starts from Postgres with zero encoder calls; decisions and events name the catalog version; a replaced catalog reaches the other router", async () => {
  const schema = `t${++schemaN}`;
  const events: ToolAttentionEvent[] = [];
  const encA = new CountingEmbeddings();
  const storeA = newStore({ pollMs: 3_600_000 }, schema);
  const a = new ToolAttentionRouter(smallCatalog(), { encoder: encA, log: false, store: storeA, multiVector: false });
  await a.prepare();
  const cold = encA.texts.length;
  assert.equal(cold, 4);
  assert.equal(a.catalogVersion?.version, 1);

  // A second process: its own store connection, its own encoder. Nothing to embed.
  const encB = new CountingEmbeddings();
  const storeB = newStore({ pollMs: 3_600_000 }, schema);
  const b = new ToolAttentionRouter(smallCatalog(), { encoder: encB, log: false, store: { store: storeB }, multiVector: false, onEvent: (e) => events.push(e) });
  await b.prepare();
  assert.equal(encB.texts.length, 0, "warm start: zero encoder calls");
  assert.equal(b.catalogVersion?.version, 1, "the same catalog is the same version");
  const q = "send an email to bob about the meeting";
  const [da, db] = [await a.route(q), await b.route(q)];
  assert.deepEqual(db.active.map((x) => [x.id, x.score.toFixed(5)]), da.active.map((x) => [x.id, x.score.toFixed(5)]));
  assert.equal(db.catalogVersion, 1);
  assert.equal(events.at(-1)?.type, "tool_attention.route");
  assert.equal((events.at(-1) as { catalogVersion?: number }).catalogVersion, 1);

  // A catalog change in A: A embeds the new text once, publishes version 2; B follows by NOTIFY, embedding nothing.
  const next = smallCatalog([tool("create_event", "Create a calendar event with a title and a time.")]);
  const update = await a.replaceCatalog(next);
  assert.equal(update.version, 2);
  assert.equal(update.embedded, 1);
  assert.equal(a.catalogVersion?.version, 2);
  const t0 = Date.now();
  await b.waitForCatalogVersion(2, 10_000);
  const followMs = Date.now() - t0;
  assert.ok(followMs < 5000, `followed in ${followMs} ms`);
  assert.equal(encB.texts.length, 0, "the follower embedded nothing");
  const d = await b.route("schedule a calendar event for the team meeting at noon");
  assert.equal(d.catalogVersion, 2);
  assert.equal(d.active[0].name, "create_event");
  assert.equal((events.at(-1) as { catalogVersion?: number }).catalogVersion, 2);
  // The same change arriving in B too (its own list_changed): same digest, same version, nothing embedded.
  const again = await b.replaceCatalog(smallCatalog([tool("create_event", "Create a calendar event with a title and a time.")]));
  assert.equal(again.version, 2);
  assert.equal(encB.texts.length, 0);
  await Promise.all([a.close(), b.close()]);
});

test("router option store: misconfiguration names the option", () => {
  const cat = ToolCatalog.fromMcpTools({ s: [tool("t", "A tool.")] });
  assert.throws(() => new ToolAttentionRouter(cat, { store: {} as never }), /Invalid store/);
  const store = new PostgresRoutingStore({ connectionString: "postgres://x@127.0.0.1:1/x" });
  assert.throws(() => new ToolAttentionRouter(cat, { store: { store, catalog: "" } }), /store\.catalog/);
  assert.throws(() => new ToolAttentionRouter(cat, { store: { store, follow: "yes" as never } }), /store\.follow/);
});

test("blobs: chunks larger than a COPY slice arrive in slices, in this thread and in the reader thread; a short or long chunk is reported, and so is a slice out of place", async () => {
  const schema = `t${++schemaN}`;
  const chunk = 3 * COPY_SLICE_BYTES + 12_345; // four slices per chunk, the last one short
  const here = newStore({ blobChunkBytes: chunk, blobThreadMinBytes: 2 ** 40 }, schema);
  const warnings: string[] = [];
  const threaded = newStore({ blobChunkBytes: chunk, blobThreadMinBytes: 1024, warn: (m) => warnings.push(m) }, schema);
  const bytes = randomBytes(2 * chunk + COPY_SLICE_BYTES + 7); // two whole chunks, then one of two slices
  await here.putBlob("sliced", bytes);
  assert.ok(Buffer.from((await here.getBlob("sliced"))!).equals(bytes));
  assert.ok(Buffer.from((await threaded.getBlob("sliced"))!).equals(bytes));
  assert.deepEqual([here.blobReads.calling, threaded.blobReads.thread, warnings], [1, 1, []], "each store read the way it was set to");

  await sql(`UPDATE "${schema}".blob_chunks SET data = substring(data from 1 for ${COPY_SLICE_BYTES + 5}) WHERE key = 'sliced' AND seq = 1`);
  await assert.rejects(here.getBlob("sliced"), new RegExp(`is damaged \\(chunk 1 holds ${COPY_SLICE_BYTES + 5} bytes, expected ${chunk}\\)`));
  await assert.rejects(threaded.getBlob("sliced"), new RegExp(`is damaged \\(chunk 1 holds ${COPY_SLICE_BYTES + 5} bytes, expected ${chunk}\\)`));
  await sql(`UPDATE "${schema}".blob_chunks SET data = $1 WHERE key = 'sliced' AND seq = 1`, [Buffer.concat([bytes.subarray(chunk, 2 * chunk), Buffer.from("x")])]);
  await assert.rejects(here.getBlob("sliced"), new RegExp(`is damaged \\(chunk 1 holds ${chunk + 1} bytes, expected ${chunk}\\)`));
  await sql(`UPDATE "${schema}".blob_chunks SET data = $1 WHERE key = 'sliced' AND seq = 1`, [bytes.subarray(chunk, 2 * chunk)]);
  assert.ok(Buffer.from((await here.getBlob("sliced"))!).equals(bytes), "repaired, it reads back");
  await Promise.all([here.close(), threaded.close()]);

  // The assembly's own checks on slices (the database sends them in order; anything else is damage).
  const blob = new BlobAssembly("k", 2, 10, 15);
  blob.putSlice(0, 10, 0, Buffer.alloc(4));
  assert.throws(() => blob.putSlice(0, 10, 6, Buffer.alloc(4)), /chunk 0 came with a slice at byte 6, expected 4/);
  assert.throws(() => blob.putSlice(0, 10, 4, Buffer.alloc(7)), /chunk 0 came with a slice of 7 bytes at byte 4 of 10/);
  blob.putSlice(0, 10, 4, Buffer.alloc(6));
  assert.throws(() => blob.putSlice(0, 10, 0, Buffer.alloc(4)), /chunk 0 came twice/);
  assert.throws(() => blob.finish("0".repeat(64)), /chunk 1 of 2 is missing/);
});
