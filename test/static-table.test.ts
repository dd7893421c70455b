/**
 * The static token table (encoders/static-table.ts): the shipped file is what the installed USE-lite model gives for
 * its pieces, it is refused with another vocabulary or when damaged, word-by-word tokenization (the cache behind the
 * static vectors) splits texts as the model's tokenizer does, and static vectors behave as the channel needs them to
 * (unit length, the query encoder's space). Also: a route's query goes before a build's waiting batches in the
 * encoder's worker pool, which the static channel's routes rely on.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  decodeStaticTable,
  encodeStaticTable,
  loadStaticTable,
  readStaticTable,
  staticTablePath,
  useLiteVocabularyPath,
} from "../src/core/encoders/static-table.js";
import { UseLiteTokenizer, type UseLiteVocabulary } from "../src/core/encoders/use-lite-tokenizer.js";
import { UseLiteEmbeddings, prepareUseLiteText } from "../src/core/encoders/use-lite.js";
import { UseLiteWorkerPool } from "../src/core/encoders/use-lite-pool.js";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { rerankByRealRows } from "../src/core/router/channels/static.js";
import { toolTextsOf } from "../src/core/encoders/dense-texts.js";
import { expandCatalog } from "../src/bench/synthetic/expand.js";
import { embedPieces } from "../src/bench/static-table-write.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "ta-static-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const vocabulary = JSON.parse(readFileSync(useLiteVocabularyPath(), "utf8")) as UseLiteVocabulary;

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}

describe("the shipped table", () => {
  it("holds what the installed model gives for its pieces (a sample across the vocabulary), within int8 rounding", async () => {
    const data = decodeStaticTable(readFileSync(staticTablePath()));
    assert.equal(data.pieces, vocabulary.length);
    assert.equal(data.dim, 512);
    const ids = Array.from({ length: 24 }, (_, i) => 6 + Math.floor((i * (vocabulary.length - 7)) / 23));
    const fresh = await embedPieces(ids.map((id) => vocabulary[id]!));
    ids.forEach((id, i) => {
      const row = Array.from(data.values.subarray(id * data.dim, (id + 1) * data.dim), (v) => v * data.scales[id]!);
      assert.ok(cosine(row, fresh[i]!) > 0.999, `piece ${id} (${JSON.stringify(vocabulary[id]![0])}): cosine ${cosine(row, fresh[i]!)}`);
    });
  });

  it("loads with the installed vocabulary", async () => {
    const table = await loadStaticTable((why) => assert.fail(why));
    assert.ok(table);
    assert.equal(table.dim, 512);
  });

  it("is refused with another vocabulary, or damaged, saying why", async () => {
    const other = vocabulary.map(([piece, score], i) => [piece, i === 100 ? (score ?? 0) - 1 : score]);
    const otherPath = path.join(dir, "vocab.json");
    writeFileSync(otherPath, JSON.stringify(other));
    await assert.rejects(readStaticTable(staticTablePath(), otherPath), /made from another @energetic-ai\/model-embeddings-en vocabulary/);
    const bytes = readFileSync(staticTablePath());
    const damaged = path.join(dir, "short.bin");
    writeFileSync(damaged, bytes.subarray(0, bytes.byteLength - 10));
    await assert.rejects(readStaticTable(damaged), /static token table: 4128042 bytes, expected 4128052 for 8000 pieces × 512/);
    const notTable = path.join(dir, "other.bin");
    writeFileSync(notTable, Buffer.alloc(100));
    await assert.rejects(readStaticTable(notTable), /not a table file/);
  });

  it("round-trips through its format: int8 rows with one scale each", () => {
    const sha = "ab".repeat(32);
    const rows = [
      [0.5, -0.25, 0, 1],
      [0, 0, 0, 0],
    ];
    const data = decodeStaticTable(encodeStaticTable(sha, rows, 4));
    assert.equal(data.vocabularySha256, sha);
    assert.deepEqual(Array.from(data.values.subarray(0, 4)), [64, -32, 0, 127]);
    assert.ok(Math.abs(data.scales[0]! - 1 / 127) < 1e-9);
    assert.deepEqual(Array.from(data.values.subarray(4)), [0, 0, 0, 0]);
    assert.throws(() => encodeStaticTable("xyz", rows, 4), /vocabularySha256 must be 64 hex digits/);
    assert.throws(() => encodeStaticTable(sha, [[1, 2]], 4), /row 0 has 2 values, expected 4/);
  });
});

describe("static vectors", () => {
  it("tokenizing word by word splits every catalog text as the model's tokenizer splits the whole text", () => {
    const tokenizer = new UseLiteTokenizer(vocabulary);
    const catalog = ToolCatalog.fromCatalogObject(expandCatalog(120, 3));
    const texts = [...toolTextsOf(catalog, undefined), "Send an e-mail to Bob: «hello», 3×faster!", "  spaced   out\ttext  "];
    for (const text of texts) {
      const prepared = prepareUseLiteText(text, Number.MAX_SAFE_INTEGER);
      const byWord = prepared.split(" ").flatMap((w) => (w ? tokenizer.encode(w) : []));
      assert.deepEqual(byWord, tokenizer.encode(prepared), prepared.slice(0, 80));
    }
  });

  it("are unit length, the same for the same text, and in the encoder's space", async () => {
    const table = (await loadStaticTable())!;
    const out = new Float32Array(table.dim);
    let norm = 0;
    for (const v of table.embedInto("Search the web for images matching a description", out)) norm += v * v;
    assert.ok(Math.abs(norm - 1) < 1e-5, `norm² ${norm}`);
    // The same text gives the same vector, whatever was embedded before (the word cache keeps piece ids only).
    assert.deepEqual(table.embedInto("Search the web for images matching a description", new Float32Array(table.dim)), out);
    // In the encoder's space: the encoder's vector of a tool's own text is among the 5 nearest of 40 tools' to the
    // tool's static vector far more often than chance (5 in 40; measured 22 of 40); a table of another space would sit at chance.
    const texts = toolTextsOf(ToolCatalog.fromCatalogObject(expandCatalog(40, 5)), undefined);
    const encoder = new UseLiteEmbeddings();
    try {
      const real = await encoder.embedDocuments(texts);
      let hits = 0;
      texts.forEach((t, i) => {
        const v = table.embedInto(t, new Float32Array(table.dim));
        const own = cosine(v, real[i]!);
        if (real.filter((r) => cosine(v, r) > own).length < 5) hits++;
      });
      assert.ok(hits / texts.length >= 0.4, `own text among the 5 nearest for ${hits} of ${texts.length} tools`);
    } finally {
      await encoder.close();
    }
  });
});

describe("the encoder's worker pool", () => {
  it("runs a single text (a route's query) before the batches waiting, after the forward pass running", async () => {
    const pool = new UseLiteWorkerPool({ size: 1, growAfterTexts: 0 });
    try {
      await pool.warmUp();
      const batch = Array.from({ length: 16 }, (_, i) => `a tool description number ${i} about repositories, issues and files`);
      const order: string[] = [];
      const track = (name: string, p: Promise<unknown>) => p.then(() => order.push(name));
      const batches = [0, 1, 2, 3].map((b) => track(`batch${b}`, pool.embed(batch)));
      const query = track("query", pool.embed(["open a pull request"]));
      await Promise.all([...batches, query]);
      assert.deepEqual(order, ["batch0", "query", "batch1", "batch2", "batch3"]);
    } finally {
      await pool.close();
    }
  });
});

describe("rerankByRealRows (a static-channel route's best tools in the order of their real vectors)", () => {
  // Six tools; the query is the first axis. Static scores rank them 0..5; real rows and BM25 say otherwise.
  const query = [2, 0, 0];
  const rows: (number[] | undefined)[] = [
    [0.1, 1, 0], // tool 0: real cosine 0.1
    [0.9, 0.1, 0], // tool 1: 0.9
    undefined, // tool 2: not embedded yet
    [0.5, 0.5, 0], // tool 3: 0.5
    [1, 0, 0], // tool 4: 1.0 (but outside the top 4)
    [0.2, 0.9, 0], // tool 5
  ];
  const staticScores = () => Float32Array.from([0.96, 0.95, 0.94, 0.93, 0.92, 0.91]);

  it("reorders the top tools with rows among their slots, keeping the slots' scores; the rest stay put", async () => {
    const scores = staticScores();
    const asked: number[][] = [];
    await rerankByRealRows(scores, query, undefined, 4, async (ids) => (asked.push([...ids]), ids.map((i) => rows[i])));
    assert.deepEqual(asked, [[0, 1, 2, 3]]);
    // Tools 1 (0.9), 3 (0.5), 0 (0.1) take slots 0, 1, 3 in that order; tool 2 (no row) keeps slot 2; 4 and 5 unchanged.
    assert.deepEqual([...scores], [...Float32Array.from([0.93, 0.96, 0.94, 0.95, 0.92, 0.91])]);
  });

  it("adds the lexical channel at its weight, as the built router's fusion does", async () => {
    const scores = staticScores();
    // BM25 lifts tool 0 (0.1 + 0.5 · 1.0 = 0.6) above tool 3 (0.5), not above tool 1 (0.9).
    const lexical = { scores: [1, 0, 0, 0, 0, 0], weight: 0.5 };
    await rerankByRealRows(scores, query, lexical, 4, async (ids) => ids.map((i) => rows[i]));
    assert.deepEqual([...scores], [...Float32Array.from([0.95, 0.96, 0.94, 0.93, 0.92, 0.91])]);
  });

  it("changes nothing with fewer than two rows to order", async () => {
    const scores = staticScores();
    await rerankByRealRows(scores, query, undefined, 4, async (ids) => ids.map((i) => (i === 1 ? rows[i] : undefined)));
    assert.deepEqual([...scores], [...staticScores()]);
  });
});
