/**
 * The two stores that need no database server: DiskRoutingStore (files; shares the disk cache's format) and
 * LangGraphRoutingStore over LangGraph's InMemoryStore. Each: embeddings through the store, catalog versions, watching,
 * and a router warm-starting from it with zero encoder calls (real USE-lite, counted).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { InMemoryStore } from "@langchain/langgraph";
import { CountingEmbeddings, hashEmbed, pruneVersionsContract, smallCatalog, tool } from "./helpers/store-fixtures.js";
import { DiskRoutingStore } from "../src/core/store/disk.js";
import { LangGraphRoutingStore } from "../src/core/store/langgraph.js";
import {
  canonicalJson,
  catalogDigest,
  catalogDigestAsync,
  catalogDigestThrough,
  catalogFingerprintAsync,
  catalogFromSnapshot,
  catalogSnapshotOf,
  digestMemoKey,
  snapshotDigest,
  type DigestMemo,
} from "../src/core/store/snapshot.js";
import type { RoutingStore } from "../src/core/store/types.js";
import { CachedEmbeddings } from "../src/core/encoders/cache.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { ToolCatalog } from "../src/core/catalog/catalog.js";

const tmp = () => mkdtempSync(path.join(os.tmpdir(), "ta-store-"));

/** The behaviour every store shares. */
async function storeContract(make: () => RoutingStore) {
  const a = make();
  const embed = hashEmbed();
  const r1 = await a.embedThrough("m", ["one", "two", "one"], embed);
  assert.equal(r1.embedded, 2);
  assert.deepEqual(embed.log, [["one", "two"]]);
  const b = make();
  const r2 = await b.embedThrough("m", ["two", "one", "three"], embed);
  assert.equal(r2.embedded, 1, "only the new text");
  assert.deepEqual([...r2.vectors[1]], [...r1.vectors[0]]);
  assert.deepEqual([...(await b.getEmbeddings("m", ["one", "nope"])).keys()], ["one"]);

  const s1 = catalogSnapshotOf(smallCatalog());
  assert.equal(await a.latestCatalog("c"), undefined);
  assert.deepEqual(await a.publishCatalog("c", s1), { catalog: "c", version: 1, digest: snapshotDigest(s1), tools: 4, created: true });
  assert.equal((await b.publishCatalog("c", s1)).created, false);
  const heard: number[] = [];
  const stop = await b.watchCatalog("c", (v) => heard.push(v.version));
  const s2 = catalogSnapshotOf(smallCatalog([tool("t2", "Another tool.")]));
  assert.equal((await a.publishCatalog("c", s2)).version, 2);
  const t0 = Date.now();
  while (heard.length === 0 && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(heard, [2]);
  stop();
  assert.deepEqual((await b.latestCatalog("c"))?.snapshot, s2);
  assert.equal((await b.getCatalog("c", 1))?.digest, snapshotDigest(s1));
  // The latest version without its snapshot.
  assert.deepEqual(await b.latestVersion?.("c"), { catalog: "c", version: 2, digest: snapshotDigest(s2), tools: 5 });
  assert.equal(await b.latestVersion?.("none"), undefined);
  // A digest the caller computed is used as given once checked (the router passes catalogDigest).
  const s3 = catalogSnapshotOf(smallCatalog([tool("t3", "A third tool.")]));
  await assert.rejects(async () => a.publishCatalog("c", s3, "not-a-digest"), /publishCatalog: digest must be/);
  assert.equal((await a.publishCatalog("c", s3, snapshotDigest(s3))).version, 3);
  assert.equal((await b.publishCatalog("c", s3)).created, false);
  await a.close();
  await b.close();
  await assert.rejects(async () => a.embedThrough("m", ["x"], embed), /closed/);
}

test("DiskRoutingStore: embeddings through the disk cache's files, O_EXCL catalog versions, polling watch", async () => {
  const dir = tmp();
  try {
    await storeContract(() => new DiskRoutingStore({ dir, pollMs: 20 }));
    // The embeddings are the disk cache's own file: CachedEmbeddings over that directory has them.
    const cached = new CachedEmbeddings(
      { embedDocuments: async () => assert.fail("must not embed"), embedQuery: async () => [] },
      { modelId: "m", cacheDir: dir },
    );
    assert.equal((await cached.peek(["one", "two", "three"])).filter(Boolean).length, 3);
    assert.ok(readdirSync(dir).some((f) => f.endsWith(".f32")));
    // Concurrent publishers of different snapshots each get their own number.
    const stores = [0, 1, 2].map(() => new DiskRoutingStore({ dir }));
    const res = await Promise.all(stores.map((s, i) => s.publishCatalog("race", catalogSnapshotOf(smallCatalog([tool(`r${i}`, `Race tool ${i}.`)])))));
    assert.deepEqual(res.map((r) => r.version).sort(), [1, 2, 3]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.throws(() => new DiskRoutingStore({ pollMs: 1 }), /options\.pollMs/);
  assert.throws(() => new DiskRoutingStore({ dir: "" }), /options\.dir/);
});

test("LangGraphRoutingStore over InMemoryStore: embeddings, catalog versions, polling watch", async () => {
  const lg = new InMemoryStore();
  await storeContract(() => new LangGraphRoutingStore(lg, { pollMs: 20 }));
  // Items live under the namespace, put with index: false.
  const namespaces = await lg.listNamespaces({ prefix: ["tool_attention"] });
  assert.ok(namespaces.some((ns) => ns[1] === "embeddings") && namespaces.some((ns) => ns[1] === "catalogs"), JSON.stringify(namespaces));
  assert.throws(() => new LangGraphRoutingStore({} as never), /BaseStore/);
  assert.throws(() => new LangGraphRoutingStore(lg, { namespace: ["a.b"] }), /options\.namespace/);
  assert.throws(() => new LangGraphRoutingStore(lg, { namespace: ["langgraph"] }), /options\.namespace/);
  assert.throws(() => new LangGraphRoutingStore(lg, { batchSize: 0 }), /options\.batchSize/);
});

/**
 * The blob behaviour every store with blobs shares. `partial` leaves what an interrupted writer of `key` would
 * (everything but the part that makes a blob readable).
 */
async function blobContract(make: () => RoutingStore, size: number, partial: (key: string, bytes: Uint8Array) => Promise<void>) {
  const a = make();
  const b = make();
  const bytes = randomBytes(size);
  assert.equal(await a.getBlob!("missing.bin"), undefined);
  await a.putBlob!("idx-1.hnsw", bytes);
  const got = await b.getBlob!("idx-1.hnsw");
  assert.ok(got && Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(bytes), "round trip");
  assert.equal(got.byteOffset % 4, 0, "aligned for typed views");
  // First writer wins: a later put of the key (keys are content hashes) changes nothing.
  await b.putBlob!("idx-1.hnsw", randomBytes(100));
  assert.ok(Buffer.from((await a.getBlob!("idx-1.hnsw"))!).equals(bytes));
  // Concurrent writers of one key all succeed.
  const other = randomBytes(size >> 1);
  await Promise.all([a, b, make()].map((s) => s.putBlob!("idx-2", other)));
  assert.ok(Buffer.from((await b.getBlob!("idx-2"))!).equals(other));
  // An empty blob, and a blob handed over at an odd byteOffset (a Buffer slice).
  await a.putBlob!("empty", new Uint8Array(0));
  assert.equal((await b.getBlob!("empty"))?.byteLength, 0);
  const odd = Buffer.concat([Buffer.from([7]), bytes.subarray(0, 1001)]).subarray(1);
  await a.putBlob!("odd", odd);
  assert.ok(Buffer.from((await b.getBlob!("odd"))!).equals(odd));
  // Keys are validated, naming the key.
  for (const bad of ["a/b", "", "x".repeat(201), "sp ace", "../up"])
    await assert.rejects(async () => a.getBlob!(bad), (err: Error) => err.message.includes(`getBlob: invalid blob key ${JSON.stringify(bad)}:`));
  await assert.rejects(async () => a.putBlob!("a:b", bytes), /putBlob: invalid blob key "a:b"/);
  await assert.rejects(async () => a.putBlob!("k", "text" as never), /must be a Uint8Array/);
  // What an interrupted writer leaves is not a blob; the next writer of the key writes it whole.
  await partial("torn", bytes);
  assert.equal(await b.getBlob!("torn"), undefined);
  await a.putBlob!("torn", bytes);
  assert.ok(Buffer.from((await b.getBlob!("torn"))!).equals(bytes));
  await a.close();
  await b.close();
}

test("DiskRoutingStore blobs: one file per key under blobs/, linked into place whole, first writer wins", async () => {
  const dir = tmp();
  try {
    await blobContract(() => new DiskRoutingStore({ dir }), 3_000_000, async (key, bytes) => {
      // A writer killed mid-write: half its temp file, never linked to the blob's name.
      mkdirSync(path.join(dir, "blobs"), { recursive: true });
      writeFileSync(path.join(dir, "blobs", `.${key}.999999.0123456789ab.tmp`), bytes.subarray(0, bytes.byteLength >> 1));
    });
    const files = readdirSync(path.join(dir, "blobs")).sort();
    assert.deepEqual(files, [".torn.999999.0123456789ab.tmp", "empty.bin", "idx-1.hnsw.bin", "idx-2.bin", "odd.bin", "torn.bin"], "no temp file of a finished write");
    assert.equal(readFileSync(path.join(dir, "blobs", "idx-1.hnsw.bin")).byteLength, 3_000_000);
    assert.deepEqual(readdirSync(dir).sort(), ["blobs"], "nothing written elsewhere");
    await assert.rejects(async () => {
      const s = new DiskRoutingStore({ dir });
      await s.close();
      await s.getBlob("k");
    }, /closed/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("LangGraphRoutingStore blobs: base64 chunk items, the head last, length and sha256 checked", async () => {
  const lg = new InMemoryStore();
  const blobNs = (key: string) => ["tool_attention", "blobs", createHash("sha256").update(key).digest("hex").slice(0, 16)];
  await blobContract(() => new LangGraphRoutingStore(lg, { blobChunkBytes: 65_536 }), 300_000, async (key, bytes) => {
    // A writer stopped before its head: chunks only.
    for (let seq = 0; seq < 3; seq++)
      await lg.put(blobNs(key), `c65536_${seq}`, { data: Buffer.from(bytes.subarray(seq * 65_536, (seq + 1) * 65_536)).toString("base64") }, false);
  });
  const items = await lg.search(blobNs("idx-1.hnsw"), { limit: 100 });
  assert.deepEqual(items.map((i) => i.key).sort(), ["c65536_0", "c65536_1", "c65536_2", "c65536_3", "c65536_4", "head"], "300,000 bytes in 5 chunks");
  assert.ok(items.every((i) => i.key === "head" || (i.value.data as string).length <= 4 * 65_536 / 3 + 4));
  // A reader with another chunk size reads it (the head says how it was cut).
  const reader = new LangGraphRoutingStore(lg);
  assert.equal((await reader.getBlob("idx-1.hnsw"))?.byteLength, 300_000);
  // Damage is reported, not returned.
  const chunk = (await lg.get(blobNs("idx-1.hnsw"), "c65536_2"))!.value.data as string;
  await lg.put(blobNs("idx-1.hnsw"), "c65536_2", { data: (chunk[0] === "A" ? "B" : "A") + chunk.slice(1) }, false);
  await assert.rejects(reader.getBlob("idx-1.hnsw"), /LangGraphRoutingStore\.getBlob: blob "idx-1\.hnsw" is damaged \(sha256 [0-9a-f]{64}, its head says/);
  await lg.delete(blobNs("idx-1.hnsw"), "c65536_4");
  await assert.rejects(reader.getBlob("idx-1.hnsw"), /is damaged \(chunk 4 of 5 is missing\)/);
  assert.throws(() => new LangGraphRoutingStore(lg, { blobChunkBytes: 10 }), /options\.blobChunkBytes/);
});

test("DiskRoutingStore.pruneBlobs: deletes blob files unused for longer than asked and dead writers' temp files; a read marks a blob used", async () => {
  const dir = tmp();
  try {
    const store = new DiskRoutingStore({ dir });
    const blobs = path.join(dir, "blobs");
    await store.putBlob("old", new Uint8Array(3_000));
    await store.putBlob("fresh", new Uint8Array(100));
    await store.putBlob("read-later", new Uint8Array(50));
    writeFileSync(path.join(blobs, ".old.4242.0123456789ab.tmp"), "torn");
    writeFileSync(path.join(blobs, ".fresh.4243.0123456789ab.tmp"), "a writer at work");
    writeFileSync(path.join(blobs, "notes.txt"), "not a blob");
    const twoDaysAgo = (Date.now() - 2 * 24 * 3600 * 1000) / 1000;
    for (const f of ["old.bin", "read-later.bin", ".old.4242.0123456789ab.tmp", "notes.txt"]) utimesSync(path.join(blobs, f), twoDaysAgo, twoDaysAgo);
    assert.equal((await store.getBlob("read-later"))?.byteLength, 50);
    assert.ok(statSync(path.join(blobs, "read-later.bin")).mtimeMs > Date.now() - 60_000, "a read marks the blob used");
    const day = 24 * 3600 * 1000;
    assert.deepEqual(await store.pruneBlobs({ unusedForMs: 3 * day }), { deleted: [], bytes: 0 });
    assert.deepEqual(await store.pruneBlobs({ unusedForMs: day }), { deleted: ["old"], bytes: 3_000 });
    assert.deepEqual(readdirSync(blobs).sort(), [".fresh.4243.0123456789ab.tmp", "fresh.bin", "notes.txt", "read-later.bin"], "the old temp file went too; other files are not ours");
    assert.deepEqual(await store.pruneBlobs({ unusedForMs: 0 }), { deleted: ["fresh", "read-later"], bytes: 150 });
    assert.deepEqual(readdirSync(blobs).sort(), [".fresh.4243.0123456789ab.tmp", "notes.txt"], "a temp file younger than an hour may be a writer at work");
    assert.equal(await store.getBlob("old"), undefined);
    await assert.rejects(store.pruneBlobs({ unusedForMs: Number.NaN }), /DiskRoutingStore\.pruneBlobs: options\.unusedForMs must be a finite number of milliseconds ≥ 0 \(got NaN\)/);
    assert.deepEqual(await new DiskRoutingStore({ dir: path.join(dir, "empty") }).pruneBlobs({ unusedForMs: 0 }), { deleted: [], bytes: 0 }, "no blobs directory yet");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("pruneCatalogVersions keeps the latest versions: DiskRoutingStore files, LangGraphRoutingStore items", async () => {
  const dir = tmp();
  try {
    const disk = new DiskRoutingStore({ dir });
    await pruneVersionsContract(disk);
    const files = readdirSync(path.join(dir, "catalogs")).flatMap((d) => readdirSync(path.join(dir, "catalogs", d)).map((f) => `${d.split("-")[0]}/${f}`));
    assert.deepEqual(files.sort(), ["other/v1.json", "p/v5.json"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const lg = new InMemoryStore();
  await pruneVersionsContract(new LangGraphRoutingStore(lg));
  const ns = ["tool_attention", "catalogs", createHash("sha256").update("p").digest("hex").slice(0, 16)];
  assert.deepEqual((await lg.search(ns, { limit: 100 })).map((i) => i.key).sort(), ["latest", "pruned", "v5"]);
});

test("LangGraphRoutingStore.pruneBlobs over InMemoryStore: lists the blob namespaces, deletes unused blobs head first; a read marks a blob used", async () => {
  const lg = new InMemoryStore();
  // The store's clock, seen through a window: items of the "aged" namespaces put before `agedBefore` look two days
  // older than they are (InMemoryStore dates items with its own clock).
  const aged = new Set<string>();
  let agedBefore = 0;
  const twoDays = 2 * 24 * 3600 * 1000;
  const windowed = {
    async batch(ops: Parameters<InMemoryStore["batch"]>[0]) {
      const out = await lg.batch(ops);
      return out.map((r: unknown) => {
        const item = r as { namespace?: string[]; updatedAt?: Date } | null;
        if (!item?.namespace || !(item.updatedAt instanceof Date) || !aged.has(item.namespace.join(":")) || item.updatedAt.getTime() > agedBefore) return r;
        return { ...item, updatedAt: new Date(item.updatedAt.getTime() - twoDays) };
      });
    },
  };
  const store = new LangGraphRoutingStore(windowed as never, { blobChunkBytes: 1024 });
  const ns = (key: string) => ["tool_attention", "blobs", createHash("sha256").update(key).digest("hex").slice(0, 16)];
  await store.putBlob("old", new Uint8Array(5_000));
  await store.putBlob("fresh", new Uint8Array(10));
  await store.putBlob("read-later", new Uint8Array(20));
  aged.add(ns("old").join(":"));
  aged.add(ns("read-later").join(":"));
  agedBefore = Date.now();
  await new Promise((r) => setTimeout(r, 5));
  assert.equal((await store.getBlob("read-later"))?.byteLength, 20, "read, and its head put again");
  const day = 24 * 3600 * 1000;
  assert.deepEqual(await store.pruneBlobs({ unusedForMs: 3 * day }), { deleted: [], bytes: 0 });
  assert.deepEqual(await store.pruneBlobs({ unusedForMs: day }), { deleted: ["old"], bytes: 5_000 });
  assert.equal(await store.getBlob("old"), undefined);
  assert.deepEqual(await lg.search(ns("old"), { limit: 100 }), [], "head and its 5 chunks deleted");
  assert.equal((await store.getBlob("read-later"))?.byteLength, 20);
  assert.equal((await store.getBlob("fresh"))?.byteLength, 10);
  await assert.rejects(store.pruneBlobs({ unusedForMs: Infinity }), /LangGraphRoutingStore\.pruneBlobs: options\.unusedForMs must be a finite number/);
});

test("a snapshot rebuilds the same catalog: same ids, routing texts, schemas and declarative preconditions", () => {
  const original = ToolCatalog.fromMcpTools({
    a: [{ ...tool("read_log", "Read the log file.", { path: { type: "string" } }), preconditions: { requiresScopes: ["logs"] } }],
    b: [tool("read_log", "Read a log from service b."), tool("open_ticket", "Open a ticket.")],
  });
  const rebuilt = catalogFromSnapshot(catalogSnapshotOf(original), {}, original);
  assert.deepEqual(rebuilt.tools.map((t) => [t.id, t.routingText, t.summary]), original.tools.map((t) => [t.id, t.routingText, t.summary]));
  assert.deepEqual(rebuilt.tools.map((t) => t.inputSchema), original.tools.map((t) => t.inputSchema));
  assert.deepEqual(rebuilt.getById("a__read_log")?.preconditions, [{ requiresScopes: ["logs"] }]);
  assert.equal(rebuilt.sourceOf("open_ticket"), original.sourceOf("open_ticket"), "framework objects carried over");
  assert.equal(snapshotDigest(catalogSnapshotOf(rebuilt)), snapshotDigest(catalogSnapshotOf(original)));
  assert.throws(() => catalogFromSnapshot({} as never), /field "servers"/);
});

for (const [name, make] of [
  ["DiskRoutingStore", (dir: string) => new DiskRoutingStore({ dir, pollMs: 20 })],
  ["LangGraphRoutingStore", (_dir: string, lg = new InMemoryStore()) => new LangGraphRoutingStore(lg, { pollMs: 20 })],
] as const) {
  test(`router warm-starts from ${name} with zero encoder calls and follows a catalog change by polling`, async () => {
    const dir = tmp();
    const lg = new InMemoryStore();
    try {
      const storeA = name === "DiskRoutingStore" ? make(dir) : new LangGraphRoutingStore(lg, { pollMs: 20 });
      const storeB = name === "DiskRoutingStore" ? make(dir) : new LangGraphRoutingStore(lg, { pollMs: 20 });
      const encA = new CountingEmbeddings();
      const a = new ToolAttentionRouter(smallCatalog(), { encoder: encA, log: false, store: storeA, multiVector: false });
      await a.prepare();
      assert.equal(encA.texts.length, 4);
      const encB = new CountingEmbeddings();
      const b = new ToolAttentionRouter(smallCatalog(), { encoder: encB, log: false, store: storeB, multiVector: false });
      await b.prepare();
      assert.equal(encB.texts.length, 0, "warm start: zero encoder calls");
      assert.equal((await b.route("what's the weather in Paris")).catalogVersion, 1);
      const update = await a.replaceCatalog(smallCatalog([tool("create_event", "Create a calendar event with a title and a time.")]));
      assert.deepEqual([update.version, update.embedded], [2, 1]);
      await b.waitForCatalogVersion(2, 5000);
      const d = await b.route("schedule a calendar event for the team meeting at noon");
      assert.equal(d.catalogVersion, 2);
      assert.equal(d.active[0].name, "create_event");
      assert.equal(encB.texts.length, 0);
      await Promise.all([a.close(), b.close(), storeA.close(), storeB.close()]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test("createAgent middleware with a store: routing events name the catalog version; a second agent embeds nothing", async () => {
  const { createAgent } = await import("langchain");
  const { HumanMessage } = await import("@langchain/core/messages");
  const { toolAttentionMiddleware } = await import("../src/adapters/langchain/middleware.js");
  const { ScriptedChatModel, callTools } = await import("./helpers/scripted-model.js");
  const { demoTools } = await import("./helpers/demo-tools.js");
  const lg = new InMemoryStore();
  const run = async () => {
    const { tools } = demoTools();
    const events: { type: string; catalogVersion?: number }[] = [];
    const encoder = new CountingEmbeddings();
    const store = new LangGraphRoutingStore(lg);
    const middleware = toolAttentionMiddleware({ tools, k: 5, encoder, store: { store, catalog: "demo-agent" }, onEvent: (e) => events.push(e) });
    const model = new ScriptedChatModel([callTools({ name: "get_weather", args: { city: "Paris" } })]);
    const agent = createAgent({ model, tools, middleware: [middleware] });
    await agent.invoke({ messages: [new HumanMessage("what's the weather in Paris tomorrow?")] });
    await store.close();
    return { events, embedded: encoder.texts.length, bound: model.calls[0].tools };
  };
  const first = await run();
  const routes = first.events.filter((e) => e.type === "tool_attention.route");
  assert.ok(routes.length > 0 && routes.every((e) => e.catalogVersion === 1), JSON.stringify(routes.map((e) => e.catalogVersion)));
  assert.ok(first.embedded > 0);
  assert.ok(first.bound.includes("get_weather"));
  const second = await run();
  assert.equal(second.embedded, 0, "the second agent (another worker) warm-starts from the LangGraph store");
  assert.ok(second.events.filter((e) => e.type === "tool_attention.route").every((e) => e.catalogVersion === 1));
});

test('store.initial "adopt": a starting router routes on the store\'s latest catalog, not the one it was built with', async () => {
  const lg = new InMemoryStore();
  const encA = new CountingEmbeddings();
  // An empty store: "adopt" publishes the router's own catalog.
  const a = new ToolAttentionRouter(smallCatalog(), { encoder: encA, log: false, store: { store: new LangGraphRoutingStore(lg), initial: "adopt" }, multiVector: false });
  await a.prepare();
  assert.equal(a.catalogVersion?.version, 1);
  await a.replaceCatalog(smallCatalog([tool("create_event", "Create a calendar event with a title and a time.")]));
  assert.equal(a.catalogVersion?.version, 2);
  // A restarted worker still built with the old catalog: it adopts version 2 instead of publishing version 3.
  const encB = new CountingEmbeddings();
  const b = new ToolAttentionRouter(smallCatalog(), { encoder: encB, log: false, store: { store: new LangGraphRoutingStore(lg), initial: "adopt" }, multiVector: false });
  await b.prepare();
  assert.equal(b.catalogVersion?.version, 2);
  assert.ok(b.catalog.getById("create_event"));
  assert.equal(encB.texts.length, 0, "nothing embedded: neither the old catalog nor the adopted one");
  assert.equal((await b.route("schedule a calendar event for the team meeting at noon")).active[0].name, "create_event");
  // "publish" (the default) would have made the old catalog version 3.
  assert.throws(() => new ToolAttentionRouter(smallCatalog(), { store: { store: new LangGraphRoutingStore(lg), initial: "latest" as never } }), /store\.initial/);
  await Promise.all([a.close(), b.close()]);
});

test("catalogDigest is the snapshot's digest, computed tool by tool without the snapshot's whole text", async () => {
  const catalogs = [
    smallCatalog(),
    smallCatalog([tool("ünïcode_tool", "Sends “quoted” text, emoji 🚀 and a \\ backslash.")]),
    new ToolCatalog(
      [
        { server: "b", spec: { name: "zeta", description: "Z.", inputSchema: { type: "object", required: ["x"], properties: { x: { type: "string" } } }, tags: ["t"] } },
        { server: "a", spec: { name: "alpha", description: "A.", preconditions: { requiresScopes: ["s"], milestone: "m" }, annotations: { readOnlyHint: true } } },
      ],
      {},
      new Map([["b", "Server B"], ["a", undefined]]),
    ),
    new ToolCatalog([]),
  ];
  for (const c of catalogs) assert.equal(catalogDigest(c), snapshotDigest(catalogSnapshotOf(c)));
  // The sliced form: the same digest, shared by concurrent callers.
  const big = new ToolCatalog(
    Array.from({ length: 3000 }, (_, i) => ({
      server: `s${i % 7}`,
      spec: { name: `tool_${i}`, description: `Tool number ${i}.`, inputSchema: { type: "object", properties: { [`p${i}`]: { type: "string", description: "x".repeat(200) } } } },
    })),
    { screening: false },
  );
  const [p1, p2] = [catalogDigestAsync(big), catalogDigestAsync(big)];
  assert.equal(p1, p2, "one computation");
  const [d1, d2] = await Promise.all([p1, p2]);
  assert.equal(d1, d2);
  assert.equal(d1, snapshotDigest(catalogSnapshotOf(big)));
  assert.equal(catalogDigest(big), d1);
  assert.equal(await catalogDigestAsync(catalogs[1]), snapshotDigest(catalogSnapshotOf(catalogs[1])));
  assert.notEqual(catalogDigest(catalogs[0]), catalogDigest(catalogs[1]));
  // A rebuilt catalog (another process's object) has the same digest.
  assert.equal(catalogDigest(catalogFromSnapshot(catalogSnapshotOf(catalogs[2]))), catalogDigest(catalogs[2]));
});

test("catalog fingerprints: equal for the same snapshot, different for other content or another key order", async () => {
  const spec = (order: "ab" | "ba") => ({
    server: "s",
    spec: {
      name: "t",
      description: "T.",
      inputSchema: order === "ab" ? { type: "object", properties: { a: { type: "string" }, b: { type: "number" } } } : { properties: { b: { type: "number" }, a: { type: "string" } }, type: "object" },
    },
  });
  const ab = new ToolCatalog([spec("ab")]);
  const ba = new ToolCatalog([spec("ba")]);
  assert.equal(catalogDigest(ab), catalogDigest(ba), "the digest ignores key order");
  assert.notEqual(await catalogFingerprintAsync(ab), await catalogFingerprintAsync(ba), "the fingerprint does not");
  assert.equal(await catalogFingerprintAsync(catalogFromSnapshot(catalogSnapshotOf(ab))), await catalogFingerprintAsync(ab), "another process's rebuilt catalog");
  assert.equal(await catalogFingerprintAsync(new ToolCatalog([spec("ab")])), await catalogFingerprintAsync(ab));
  const other = new ToolCatalog([{ ...spec("ab"), spec: { ...spec("ab").spec, description: "T!" } }]);
  assert.notEqual(await catalogFingerprintAsync(other), await catalogFingerprintAsync(ab));
  // A server description or a move to another server changes it too.
  assert.notEqual(await catalogFingerprintAsync(new ToolCatalog([spec("ab")], {}, new Map([["s", "S."]]))), await catalogFingerprintAsync(ab));
  assert.notEqual(await catalogFingerprintAsync(new ToolCatalog([{ ...spec("ab"), server: "r" }])), await catalogFingerprintAsync(ab));
});

test("catalog digests go through a memo keyed by fingerprint: computed once per deployment, checked when read", async () => {
  const dir = tmp();
  try {
    const store = new DiskRoutingStore({ dir });
    const gets: string[] = [];
    const puts: string[] = [];
    const memo: DigestMemo = {
      get: async (key) => (gets.push(key), store.getBlob(key)),
      put: async (key, bytes) => (puts.push(key), store.putBlob(key, bytes)),
    };
    const build = () => smallCatalog([tool("memo_tool", "Remembers things.")]);
    const first = build();
    const key = digestMemoKey(await catalogFingerprintAsync(first));
    assert.equal(await catalogDigestThrough(first, memo), snapshotDigest(catalogSnapshotOf(first)));
    assert.deepEqual([gets, puts], [[key], [key]], "a miss computes the digest and leaves it");
    assert.equal(Buffer.from((await store.getBlob(key))!).toString("latin1"), catalogDigest(first));
    // Another process's object for the same catalog reads the memo: shown by a memo that holds another digest.
    const planted = "f".repeat(64);
    const lying: DigestMemo = { get: async () => Buffer.from(planted, "latin1"), put: async () => assert.fail("nothing to write on a hit") };
    assert.equal(await catalogDigestThrough(build(), lying), planted);
    const second = build();
    assert.equal(await catalogDigestThrough(second, memo), catalogDigest(first));
    assert.deepEqual(puts, [key], "read, not written again");
    // A memo that is not a digest, or that fails, is reported and the digest computed.
    const warnings: string[] = [];
    const junk: DigestMemo = { get: async () => Buffer.from("not a digest"), put: async () => { throw new Error("disk full"); } };
    assert.equal(await catalogDigestThrough(build(), junk, (m) => warnings.push(m)), catalogDigest(first));
    assert.match(warnings[0]!, /catalog-digest-[0-9a-f]{64} holds 12 bytes that are not a sha256/);
    assert.match(warnings[1]!, /could not keep the catalog digest memo .*disk full/);
    const broken: DigestMemo = { get: async () => { throw new Error("connection reset"); }, put: async () => {} };
    assert.equal(await catalogDigestThrough(build(), broken, (m) => warnings.push(m)), catalogDigest(first));
    assert.match(warnings[2]!, /could not read the catalog digest memo .*connection reset.*computing the digest/);
    // Without a memo (a store without blobs): the digest itself.
    assert.equal(await catalogDigestThrough(build(), undefined), catalogDigest(first));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("routers sharing a store compute a catalog's digest once: the first leaves it in the store's blobs", async () => {
  const dir = tmp();
  try {
    const lines: string[] = [];
    const make = () => new ToolAttentionRouter(smallCatalog(), { encoder: new CountingEmbeddings(), store: new DiskRoutingStore({ dir }), log: (l) => lines.push(l) });
    const a = make();
    await a.prepare();
    const blobs = readdirSync(path.join(dir, "blobs")).filter((f) => f.startsWith("catalog-digest-"));
    assert.equal(blobs.length, 1);
    assert.equal(blobs[0], `${digestMemoKey(await catalogFingerprintAsync(smallCatalog()))}.bin`);
    const b = make();
    await b.prepare();
    assert.deepEqual(b.catalogVersion, a.catalogVersion);
    assert.equal(a.catalogVersion?.version, 1);
    assert.deepEqual(lines.filter((l) => /digest memo/.test(l)), []);
    await Promise.all([a.close(), b.close()]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("canonicalJson: one text for every key order, at every level, integer-like keys included", () => {
  const a = { b: 1, a: [{ z: 1, y: { d: 2, c: 3 } }, "s"], 10: "ten", 2: "two", x: null, u: undefined };
  const b = { x: null, 2: "two", a: [{ y: { c: 3, d: 2 }, z: 1 }, "s"], 10: "ten", b: 1 };
  assert.equal(canonicalJson(a), canonicalJson(b));
  assert.equal(canonicalJson(a), '{"2":"two","10":"ten","a":[{"y":{"c":3,"d":2},"z":1},"s"],"b":1,"x":null}');
  assert.equal(canonicalJson({ a: 1, b: { c: 2 } }), JSON.stringify({ a: 1, b: { c: 2 } }));
  assert.notEqual(canonicalJson({ a: [1, 2] }), canonicalJson({ a: [2, 1] }));
});
