import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Embeddings } from "@langchain/core/embeddings";
import { UseLiteEmbeddings, prepareUseLiteText } from "../src/core/encoders/use-lite.js";
import { LexicalEmbeddings, lexicalTokens, lightStem } from "../src/core/encoders/lexical.js";
import { CachedEmbeddings, embeddingCacheFileName } from "../src/core/encoders/cache.js";
import { resolveEncoder } from "../src/core/encoders/index.js";

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const norm = (a: number[]) => Math.sqrt(dot(a, a));

let tmpRoot: string;
before(async () => {
  tmpRoot = await mkdtemp(path.join(tmpdir(), "tool-attention-encoders-"));
});
after(async () => {
  await rm(tmpRoot, { recursive: true, force: true });
});

describe("UseLiteEmbeddings (real model)", () => {
  const enc = new UseLiteEmbeddings();

  it("returns one unit vector per input, empty strings included; dimension read from output", async () => {
    const inputs = ["ok", "", "   ", "send an email to bob", ""];
    const vs = await enc.embedDocuments(inputs);
    assert.equal(vs.length, inputs.length);
    const dim = vs[0]!.length;
    assert.equal(dim, 512);
    assert.equal(enc.dimension, 512);
    for (const v of vs) {
      assert.equal(v.length, dim);
      assert.ok(Math.abs(norm(v) - 1) < 1e-5, `norm ${norm(v)}`);
      assert.ok(v.every(Number.isFinite));
    }
    assert.deepEqual(await enc.embedDocuments([]), []);
  });

  it("keeps count and order across batch boundaries", async () => {
    const small = new UseLiteEmbeddings({ batchSize: 2 });
    const texts = ["alpha", "", "list files in a directory", "send an email to bob", ""];
    const [batched, whole] = await Promise.all([small.embedDocuments(texts), enc.embedDocuments(texts)]);
    assert.equal(batched.length, texts.length);
    for (let i = 0; i < texts.length; i++) assert.ok(dot(batched[i]!, whole[i]!) > 0.9999);
  });

  it("is case- and whitespace-insensitive", async () => {
    const [a, b] = await enc.embedDocuments(["Send an Email to BOB!", "  send an   email to bob! "]);
    assert.ok(dot(a!, b!) > 0.9999, `cosine ${dot(a!, b!)}`);
    const q = await enc.embedQuery("SEND AN EMAIL TO BOB!");
    assert.ok(dot(q, a!) > 0.9999);
  });

  it("ranks a paraphrase above an unrelated text", async () => {
    const [q, para, other] = await enc.embedDocuments([
      "send an email to bob",
      "compose and send an e-mail message",
      "delete a git branch",
    ]);
    assert.ok(dot(q!, para!) > dot(q!, other!), `related ${dot(q!, para!)} vs unrelated ${dot(q!, other!)}`);
  });

  it("truncates long texts at a word boundary and ids non-default limits", () => {
    const long = "word ".repeat(200);
    const t = prepareUseLiteText(long, 50);
    assert.ok(t.length <= 50);
    assert.ok(t.endsWith("word"));
    assert.equal(prepareUseLiteText(""), "-");
    assert.equal(new UseLiteEmbeddings().modelId, "use-lite-512");
    assert.equal(new UseLiteEmbeddings({ maxChars: 200 }).modelId, "use-lite-512-c200");
  });
});

describe("lexicalTokens", () => {
  it("splits identifiers", () => {
    assert.deepEqual(lexicalTokens("getWeReadRank"), ["get", "we", "read", "rank"]);
    assert.deepEqual(lexicalTokens("get_weread_rank"), ["get", "weread", "rank"]);
    assert.deepEqual(lexicalTokens("list-pull-requests"), ["list", "pull", "request"]);
    assert.deepEqual(lexicalTokens("HTTPServer"), ["http", "server"]);
    assert.deepEqual(lexicalTokens("oauth2Token"), ["oauth", "2", "token"]);
    assert.deepEqual(lexicalTokens("github.create_issue"), ["github", "creat", "issu"]);
  });

  it("drops stopwords and stems lightly", () => {
    assert.deepEqual(lexicalTokens("Send the emails to the users"), ["send", "email", "user"]);
    assert.equal(lightStem("queries"), lightStem("query"));
    assert.equal(lightStem("branches"), "branch");
    assert.equal(lightStem("creating"), lightStem("create"));
    assert.equal(lightStem("created"), lightStem("creates"));
    assert.equal(lightStem("running"), "run");
    assert.equal(lightStem("status"), "status");
    assert.equal(lightStem("class"), "class");
  });

  it("tokenizes CJK as characters plus bigrams, and other scripts as words", () => {
    assert.deepEqual(lexicalTokens("微信读书"), ["微", "信", "读", "书", "微信", "信读", "读书"]);
    assert.deepEqual(lexicalTokens("查询微信读书app排名"), [
      "查", "询", "微", "信", "读", "书", "查询", "询微", "微信", "信读", "读书", "app", "排", "名", "排名",
    ]);
    assert.deepEqual(lexicalTokens("タワー"), ["タ", "ワ", "ー", "タワ", "ワー"]);
    assert.deepEqual(lexicalTokens("Привет, мир"), ["привет", "мир"]);
    assert.deepEqual(lexicalTokens("café crème"), ["café", "crème"]);
    assert.deepEqual(lexicalTokens(""), []);
    assert.deepEqual(lexicalTokens("   the  a  "), []);
  });

  it("reads an ASCII text exactly as the Unicode path does (the fast path changes speed, not tokens)", () => {
    // A trailing non-ASCII word sends the same text down the general path; its own token comes last.
    const texts = [
      "getWeReadRank HTTPServer oauth2Token x86_64 3dModel PRs v2Beta ABCdef aB1cD2",
      "List the open pull-requests of a repo (owner/name), newest first; up to 100 per page.",
      "Queries the DB: SELECT * FROM users WHERE id = $1 -- running, stopped, created, boxes, statuses",
      ...JSON.parse(readFileSync("data/demo-catalog.json", "utf8")).servers.flatMap((s: { tools: { name: string; description?: string }[] }) =>
        s.tools.flatMap((t) => [t.name, t.description ?? ""]),
      ),
    ];
    for (const text of texts) {
      const general = lexicalTokens(`${text} é`);
      assert.equal(general.at(-1), "é");
      assert.deepEqual(lexicalTokens(text), general.slice(0, -1), text);
      assert.deepEqual(lexicalTokens(text, { stem: false, removeStopwords: false }), lexicalTokens(`${text} é`, { stem: false, removeStopwords: false }).slice(0, -1), text);
    }
  });
});

describe("LexicalEmbeddings", () => {
  const corpus = [
    "get_weread_rank: get the WeRead book ranking list",
    "send_email: send an email message to a user",
    "list_files: list the files in a directory",
    "read_file: read the contents of a file",
    "delete_file: delete a file",
    "create_branch: create a git branch",
    "",
  ];

  it("returns normalized document vectors of the configured dimension, zero for empty docs", async () => {
    const lex = new LexicalEmbeddings({ dim: 1024 });
    assert.equal(lex.modelId, "lexical-bm25-h1024");
    const vs = await lex.embedDocuments(corpus);
    assert.equal(vs.length, corpus.length);
    for (const v of vs.slice(0, -1)) {
      assert.equal(v.length, 1024);
      assert.ok(Math.abs(norm(v) - 1) < 1e-9);
    }
    assert.equal(norm(vs.at(-1)!), 0);
    assert.ok(Math.abs(norm(await lex.embedQuery("weread rank")) - 1) < 1e-9);
    assert.equal(lex.corpusSize, corpus.length);
  });

  it("a query sharing a rare term beats one sharing only common terms", async () => {
    const lex = new LexicalEmbeddings();
    const docs = await lex.embedDocuments(corpus);
    const target = docs[0]!; // the weread doc
    const rare = await lex.embedQuery("weread");
    const common = await lex.embedQuery("file list");
    assert.ok(lex.idf("weread") > lex.idf("fil"));
    assert.ok(dot(rare, target) > dot(common, target), `rare ${dot(rare, target)} vs common ${dot(common, target)}`);
    // And routing-style: the rare-term query ranks the weread tool first.
    const scores = docs.map((d) => dot(rare, d));
    assert.equal(scores.indexOf(Math.max(...scores)), 0);
    // Cosines of non-negative BM25 weights stay within [0, 1] up to hash-collision noise.
    for (const s of scores) assert.ok(s > -0.05 && s <= 1 + 1e-9);
  });

  it("matches camelCase queries against snake_case tool names", async () => {
    const lex = new LexicalEmbeddings();
    const docs = await lex.embedDocuments(corpus);
    const q = await lex.embedQuery("deleteFile please");
    const scores = docs.map((d) => dot(q, d));
    assert.equal(scores.indexOf(Math.max(...scores)), 4);
  });

  it("works before any fit (idf = 1)", async () => {
    const lex = new LexicalEmbeddings();
    assert.equal(lex.fitted, false);
    assert.equal(lex.idf("anything"), 1);
    const a = await lex.embedQuery("send email");
    const b = await lex.embedQuery("Send EMAILS");
    assert.ok(Math.abs(norm(a) - 1) < 1e-9);
    assert.ok(Math.abs(dot(a, b) - 1) < 1e-9);
    assert.equal(norm(await lex.embedQuery("")), 0);
  });
});

/** Deterministic stateless encoder that counts calls: tests the cache, not an encoder. */
class CountingEncoder extends Embeddings {
  calls = 0;
  texts = 0;
  constructor() {
    super({});
  }
  private vec(t: string): number[] {
    let h = 7;
    for (const ch of t) h = (h * 31 + ch.codePointAt(0)!) % 1_000_003;
    const v = Array.from({ length: 8 }, (_, i) => Math.sin(h * (i + 1) + i));
    const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
    return v.map((x) => x / n);
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.calls++;
    this.texts += texts.length;
    return texts.map((t) => this.vec(t));
  }
  async embedQuery(text: string): Promise<number[]> {
    this.calls++;
    return this.vec(text);
  }
}

describe("CachedEmbeddings", () => {
  it("embeds only misses, in one call, and a second instance over the same dir makes zero inner calls", async () => {
    const dir = await mkdtemp(path.join(tmpRoot, "cache-"));
    const inner1 = new CountingEncoder();
    const c1 = new CachedEmbeddings(inner1, { modelId: "counting-8", cacheDir: dir });
    const texts = ["alpha", "beta", "alpha", "", "gamma delta"];
    const v1 = await c1.embedDocuments(texts);
    assert.equal(v1.length, texts.length);
    assert.equal(inner1.calls, 1);
    assert.equal(inner1.texts, 4); // duplicates embedded once
    assert.deepEqual(c1.stats, { hits: 0, misses: 4 });
    const again = await c1.embedDocuments(["beta", "epsilon"]);
    assert.equal(inner1.calls, 2);
    assert.equal(inner1.texts, 5);
    assert.deepEqual(again[0], v1[1]);
    assert.deepEqual(c1.stats, { hits: 1, misses: 5 });

    const inner2 = new CountingEncoder();
    const c2 = new CachedEmbeddings(inner2, { modelId: "counting-8", cacheDir: dir });
    const v2 = await c2.embedDocuments(texts);
    assert.equal(inner2.calls, 0);
    assert.deepEqual(v2, v1);
    assert.deepEqual(c2.stats, { hits: 5, misses: 0 });
    assert.deepEqual(await c2.embedDocuments(["epsilon"]), [again[1]]);

    // Another model id does not share entries.
    const inner3 = new CountingEncoder();
    const c3 = new CachedEmbeddings(inner3, { modelId: "counting-8-other", cacheDir: dir });
    await c3.embedDocuments(["alpha"]);
    assert.equal(inner3.calls, 1);
    const files = (await readdir(dir)).sort();
    assert.deepEqual(files, [embeddingCacheFileName("counting-8"), embeddingCacheFileName("counting-8-other")].sort());
  });

  it("survives a corrupt or truncated cache file with one warning, then rewrites it", async () => {
    const dir = await mkdtemp(path.join(tmpRoot, "corrupt-"));
    const file = path.join(dir, embeddingCacheFileName("counting-8"));
    const good = new CachedEmbeddings(new CountingEncoder(), { modelId: "counting-8", cacheDir: dir, warn: () => {} });
    const expected = await good.embedDocuments(["alpha", "beta"]);

    for (const junk of [Buffer.from("not a cache file at all"), Buffer.alloc(3), Buffer.from("TAE1\x01\x00\x00\x00\x08\x00\x00\x00\x05\x00\x00\x00partial", "latin1")]) {
      await writeFile(file, junk);
      const warnings: string[] = [];
      const inner = new CountingEncoder();
      const c = new CachedEmbeddings(inner, { modelId: "counting-8", cacheDir: dir, warn: (m) => warnings.push(m) });
      const v = await c.embedDocuments(["alpha", "beta"]);
      assert.deepEqual(v, expected);
      assert.equal(inner.calls, 1);
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.match(warnings[0]!, /corrupt/);
      // Rewritten: a fresh instance now hits.
      const inner2 = new CountingEncoder();
      await new CachedEmbeddings(inner2, { modelId: "counting-8", cacheDir: dir, warn: () => assert.fail("no warning expected") }).embedDocuments(["alpha", "beta"]);
      assert.equal(inner2.calls, 0);
    }
  });

  it("cacheDir: false keeps a memory cache only; queries use an LRU and pass through", async () => {
    const inner = new CountingEncoder();
    const c = new CachedEmbeddings(inner, { modelId: "counting-8", cacheDir: false, queryCacheSize: 2 });
    assert.equal(c.cacheFile, undefined);
    await c.embedDocuments(["a"]);
    await c.embedDocuments(["a"]);
    assert.equal(inner.calls, 1);
    const q1 = await c.embedQuery("q1");
    await c.embedQuery("q1");
    assert.equal(inner.calls, 2);
    await c.embedQuery("q2");
    await c.embedQuery("q3"); // evicts q1
    await c.embedQuery("q1");
    assert.equal(inner.calls, 5);
    assert.deepEqual(await c.embedQuery("q1"), q1);
  });

  it("honours TOOL_ATTENTION_CACHE_DIR", async () => {
    const dir = await mkdtemp(path.join(tmpRoot, "env-"));
    const prev = process.env.TOOL_ATTENTION_CACHE_DIR;
    process.env.TOOL_ATTENTION_CACHE_DIR = dir;
    try {
      const c = new CachedEmbeddings(new CountingEncoder(), { modelId: "counting-8" });
      assert.equal(c.cacheDir, dir);
      await c.embedDocuments(["x"]);
      assert.deepEqual(await readdir(dir), [embeddingCacheFileName("counting-8")]);
    } finally {
      if (prev === undefined) delete process.env.TOOL_ATTENTION_CACHE_DIR;
      else process.env.TOOL_ATTENTION_CACHE_DIR = prev;
    }
  });
});

describe("resolveEncoder", () => {
  it("defaults to cached USE-lite", async () => {
    const dir = await mkdtemp(path.join(tmpRoot, "resolve-"));
    const r = await resolveEncoder(undefined, { cacheDir: dir });
    assert.equal(r.name, "use-lite");
    assert.equal(r.modelId, "use-lite-512");
    assert.ok(r.embeddings instanceof CachedEmbeddings);
    const [v] = await r.embeddings.embedDocuments(["send an email to bob"]);
    assert.equal(v!.length, 512);
  });

  it("never caches the lexical encoder", async () => {
    const r = await resolveEncoder("lexical", { cacheDir: tmpRoot });
    assert.equal(r.name, "lexical");
    assert.equal(r.modelId, "lexical-bm25-h4096");
    assert.ok(r.embeddings instanceof LexicalEmbeddings);
    const r2 = await resolveEncoder(new LexicalEmbeddings({ dim: 256 }), { cacheDir: tmpRoot });
    assert.ok(r2.embeddings instanceof LexicalEmbeddings);
    assert.equal(r2.modelId, "lexical-bm25-h256");
  });

  it("uses a custom encoder as is, cached only with an explicit cacheDir", async () => {
    const enc = Object.assign(new CountingEncoder(), { model: "text-embedding-3-small" });
    const plain = await resolveEncoder(enc);
    assert.equal(plain.embeddings, enc);
    assert.equal(plain.modelId, "text-embedding-3-small");
    assert.equal(plain.name, "custom");
    const anon = await resolveEncoder(new CountingEncoder());
    assert.equal(anon.modelId, "custom");
    const cached = await resolveEncoder(enc, { cacheDir: await mkdtemp(path.join(tmpRoot, "custom-")) });
    assert.ok(cached.embeddings instanceof CachedEmbeddings);
  });

  it("rejects unknown names", async () => {
    await assert.rejects(resolveEncoder("nope" as never), /Unknown encoder "nope"/);
  });

  it('"minilm" explains what is missing when @huggingface/transformers is absent', async (t) => {
    try {
      await import(["@huggingface", "transformers"].join("/"));
      t.skip("@huggingface/transformers is installed here; the missing-package message cannot be tested");
      return;
    } catch {
      // expected: not installed
    }
    await assert.rejects(resolveEncoder("minilm"), (err: Error) => {
      assert.match(err.message, /@huggingface\/transformers/);
      assert.match(err.message, /ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface\/transformers/);
      assert.match(err.message, /TOOL_ATTENTION_MODEL_DIR/);
      assert.match(err.message, /TOOL_ATTENTION_ALLOW_REMOTE_MODELS=1/);
      assert.match(err.message, /Xenova\/all-MiniLM-L6-v2/);
      return true;
    });
  });
});
