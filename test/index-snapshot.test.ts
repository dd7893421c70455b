/**
 * HNSW snapshots: a router whose catalog gets the approximate index keeps the built index (rows and graph) in the
 * store's blobs or the local disk cache, and the next router over the same catalog loads it instead of embedding
 * and linking: no document reaches the encoder, and routes are the same.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Embeddings } from "@langchain/core/embeddings";
import { InMemoryStore } from "@langchain/langgraph";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { DiskRoutingStore } from "../src/core/store/disk.js";
import { LangGraphRoutingStore } from "../src/core/store/langgraph.js";
import { PostgresRoutingStore } from "../src/core/store/postgres.js";
import type { RoutingStore } from "../src/core/store/types.js";
import { expandCatalog } from "../src/bench/synthetic/expand.js";
import { Bm25Index } from "../src/core/encoders/bm25.js";
import { startPostgres } from "./helpers/postgres.js";

/** 32-d vectors from word hashes (similar texts share words, so neighbours exist), counting document texts. */
class WordHashEmbeddings extends Embeddings {
  readonly modelId = "test-word-hash-32";
  documents = 0;
  constructor() {
    super({});
  }
  private vec(text: string): number[] {
    const v = new Array<number>(32).fill(0);
    for (const w of text.toLowerCase().split(/\W+/).filter(Boolean)) {
      const h = createHash("sha256").update(w).digest();
      for (let d = 0; d < 32; d++) v[d] += h[d] / 255 - 0.5;
    }
    return v;
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.documents += texts.length;
    return texts.map((t) => this.vec(t));
  }
  async embedQuery(text: string): Promise<number[]> {
    return this.vec(text);
  }
}

const catalog = ToolCatalog.fromCatalogObject(expandCatalog(1_300, 42));
const queries = ["create a branch in the repository", "send a message to the team channel", "what is the weather tomorrow", "list open issues", "book a flight to Paris"];
const ann = { threshold: 1_000 };

async function routes(router: ToolAttentionRouter): Promise<string[][]> {
  const out: string[][] = [];
  for (const q of queries) out.push((await router.route(q)).active.map((t) => `${t.id}:${t.score.toFixed(6)}`));
  return out;
}

async function buildThenLoad(makeOptions: () => { store?: RoutingStore; cacheDir?: string | false }) {
  const logs: string[] = [];
  const e1 = new WordHashEmbeddings();
  const first = new ToolAttentionRouter(catalog, { encoder: e1, ann, log: (l) => logs.push(l), ...makeOptions() });
  await first.prepare();
  assert.equal(first.indexKind, "hnsw");
  assert.ok(e1.documents >= catalog.size, "the first router embeds the catalog");
  const e2 = new WordHashEmbeddings();
  const second = new ToolAttentionRouter(catalog, { encoder: e2, ann, log: (l) => logs.push(l), ...makeOptions() });
  await second.prepare();
  assert.equal(second.indexKind, "hnsw");
  assert.equal(e2.documents, 0, "the second router loads the snapshot: no document is embedded");
  assert.deepEqual(await routes(second), await routes(first), "same active tools and scores");
  return { first, second, logs, e2 };
}

test("disk cache: the built HNSW index is kept under <cacheDir>/blobs and loaded by the next router", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ta-snap-"));
  try {
    const { second, e2 } = await buildThenLoad(() => ({ cacheDir: dir }));
    const blobs = readdirSync(path.join(dir, "blobs")).filter((f) => f.endsWith(".bin"));
    assert.equal(blobs.length, 1, `one snapshot file: ${blobs.join(", ")}`);
    assert.match(blobs[0]!, /^hnsw-[0-9a-f]{40}\.bin$/);
    // The loaded rows serve a catalog change like embedded vectors: one changed description.
    const file = expandCatalog(1_300, 42);
    file.servers[0]!.tools[0]!.description += " Now with retries.";
    const update = await second.replaceCatalog(ToolCatalog.fromCatalogObject(file));
    // Two texts: the tool's text and its new sentence (a multi-vector row, on below 2,000 tools); every other
    // tool's vector comes from the loaded snapshot's rows.
    assert.equal(update.embedded, 2);
    assert.equal(e2.documents, 2);
    // A renamed parameter changes the lexical and dense texts, so it is a different snapshot (not the stale one).
    const renamed = expandCatalog(1_300, 42);
    const schema = renamed.servers[1]!.tools[0]!.inputSchema as { properties: Record<string, unknown> };
    const [first] = Object.keys(schema.properties);
    assert.ok(first, "the tool has a parameter");
    schema.properties[`${first}_renamed`] = schema.properties[first!];
    delete schema.properties[first!];
    const e3 = new WordHashEmbeddings();
    const r3 = new ToolAttentionRouter(ToolCatalog.fromCatalogObject(renamed), { encoder: e3, ann, cacheDir: dir, log: false });
    await r3.prepare();
    assert.equal(readdirSync(path.join(dir, "blobs")).filter((f) => f.endsWith(".bin")).length, 3, "a renamed parameter is a new snapshot, not the old one");
    // A catalog change (one tool more) is a different key: a new snapshot, the old one untouched.
    const bigger = ToolCatalog.fromCatalogObject(expandCatalog(1_301, 42));
    const r = new ToolAttentionRouter(bigger, { encoder: new WordHashEmbeddings(), ann, cacheDir: dir, log: false });
    await r.prepare();
    assert.equal(readdirSync(path.join(dir, "blobs")).filter((f) => f.endsWith(".bin")).length, 4);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the lexical channel's BM25 index is kept and loaded too (the next router tokenizes nothing)", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ta-snap-"));
  const build = Bm25Index.prototype.build;
  let builds = 0;
  Bm25Index.prototype.build = function (this: Bm25Index, docs) {
    builds++;
    return build.call(this, docs);
  };
  try {
    const first = new ToolAttentionRouter(catalog, { encoder: new WordHashEmbeddings(), ann, lexical: true, cacheDir: dir, log: false });
    await first.prepare();
    assert.equal(builds, 1);
    const files = readdirSync(path.join(dir, "blobs")).filter((f) => f.endsWith(".bin")).sort();
    assert.deepEqual(files.map((f) => f.split("-")[0]), ["bm25", "hnsw"]);
    const e2 = new WordHashEmbeddings();
    const second = new ToolAttentionRouter(catalog, { encoder: e2, ann, lexical: true, cacheDir: dir, log: false });
    await second.prepare();
    assert.equal(builds, 1, "the second router loaded the BM25 snapshot");
    assert.equal(e2.documents, 0);
    assert.deepEqual(await routes(second), await routes(first));
    // Other lexical options are another index: built, not loaded.
    await new ToolAttentionRouter(catalog, { encoder: new WordHashEmbeddings(), ann, lexical: { k1: 1.5 }, cacheDir: dir, log: false }).prepare();
    assert.equal(builds, 2);
  } finally {
    Bm25Index.prototype.build = build;
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a damaged snapshot is logged and rebuilt, never fatal", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ta-snap-"));
  try {
    const e1 = new WordHashEmbeddings();
    const first = new ToolAttentionRouter(catalog, { encoder: e1, ann, cacheDir: dir, log: false });
    await first.prepare();
    const [file] = readdirSync(path.join(dir, "blobs")).filter((f) => f.endsWith(".bin"));
    // Same length, garbage content: the header check fails.
    writeFileSync(path.join(dir, "blobs", file!), Buffer.alloc(64, 7));
    const logs: string[] = [];
    const e2 = new WordHashEmbeddings();
    const second = new ToolAttentionRouter(catalog, { encoder: e2, ann, cacheDir: dir, log: (l) => logs.push(l) });
    await second.prepare();
    assert.equal(second.indexKind, "hnsw");
    assert.ok(logs.some((l) => /index snapshot hnsw-[0-9a-f]+ in the disk cache .* not used \(HNSW snapshot:/.test(l)), logs.join("\n"));
    assert.deepEqual(await routes(second), await routes(first));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("no snapshot below the ANN threshold, with ann: false, or with cacheDir: false and no store", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ta-snap-"));
  try {
    await new ToolAttentionRouter(catalog, { encoder: new WordHashEmbeddings(), cacheDir: dir, log: false }).prepare(); // default threshold 5,000
    await new ToolAttentionRouter(catalog, { encoder: new WordHashEmbeddings(), ann: false, cacheDir: dir, log: false }).prepare();
    assert.equal(existsSync(path.join(dir, "blobs")), false);
    const e = new WordHashEmbeddings();
    await new ToolAttentionRouter(catalog, { encoder: e, ann, cacheDir: false, log: false }).prepare();
    const again = new WordHashEmbeddings();
    await new ToolAttentionRouter(catalog, { encoder: again, ann, cacheDir: false, log: false }).prepare();
    assert.ok(again.documents >= catalog.size, "nothing kept, so the catalog is embedded again");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("stores: DiskRoutingStore and a LangGraph InMemoryStore serve the snapshot to the next router", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ta-snap-"));
  const lg = new InMemoryStore();
  try {
    await buildThenLoad(() => ({ store: new DiskRoutingStore({ dir }) }));
    // The HNSW snapshot, and the catalog digest's memo (see store-local.test.ts).
    assert.deepEqual(
      readdirSync(path.join(dir, "blobs"))
        .filter((f) => f.endsWith(".bin"))
        .map((f) => f.replace(/-[0-9a-f]+\.bin$/, ""))
        .sort(),
      ["catalog-digest", "hnsw"],
    );
    await buildThenLoad(() => ({ store: new LangGraphRoutingStore(lg, { pollMs: 50 }) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("PostgreSQL: a second process's router warm-starts from the snapshot in the shared store", async () => {
  const pg = await startPostgres();
  const stores: PostgresRoutingStore[] = [];
  try {
    const make = () => {
      const store = new PostgresRoutingStore({ connectionString: pg.url, schema: "snap", warn: () => {} });
      stores.push(store);
      return { store };
    };
    const { second } = await buildThenLoad(make);
    assert.equal(second.catalogVersion?.version, 1);
  } finally {
    for (const s of stores) await s.close();
    await pg.stop();
  }
});
