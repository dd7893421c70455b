/**
 * Stronger encoders: `hf:` specs, model families (pooling, asymmetric prefixes), `withPrefixes` over any Embeddings,
 * cache keys per vector space, batch query embedding, and the errors users see when the optional package or the
 * model files are missing.
 *
 * - The prefix wrapper runs over the REAL USE-lite encoder.
 * - `TransformersEmbeddings` mechanics (which text goes to which side, pooling, env handling, shared pipelines) run
 *   over a stand-in transformers.js module passed through the public `transformers` option, because the package and
 *   model weights are optional and absent on most machines.
 * - One test loads a REAL model when `TOOL_ATTENTION_MODEL_DIR` holds one (and the package is installed); otherwise
 *   it is skipped with a message saying what to provide.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  BGE_EN_QUERY_INSTRUCTION,
  CachedEmbeddings,
  embedQueryBatch,
  embeddingCacheFileName,
  embeddingCacheKey,
  isEncoderSpec,
  MODEL_ALIASES,
  MODEL_FAMILIES,
  modelFamilyOf,
  parseEncoderSpec,
  resolveEncoder,
  TransformersEmbeddings,
  UseLiteEmbeddings,
  withPrefixes,
  type FeatureExtractorLike,
  type TransformersModuleLike,
} from "../src/core/encoders/index.js";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const norm = (a: number[]) => Math.sqrt(dot(a, a));
const cos = (a: number[], b: number[]) => dot(a, b) / (norm(a) * norm(b));

let tmpRoot: string;
before(async () => {
  tmpRoot = await mkdtemp(path.join(tmpdir(), "tool-attention-stronger-"));
});
after(async () => {
  await rm(tmpRoot, { recursive: true, force: true });
});

describe("encoder specs", () => {
  it("parses built-in names, the minilm alias and hf: specs", () => {
    for (const n of ["use-lite", "lexical", "hybrid"] as const) assert.deepEqual(parseEncoderSpec(n), { kind: "builtin", name: n });
    const mini = parseEncoderSpec("minilm");
    assert.equal(mini.kind, "transformers");
    assert.equal(mini.kind === "transformers" && mini.name, "minilm");
    assert.equal(mini.kind === "transformers" && mini.options.model, "Xenova/all-MiniLM-L6-v2");

    const hub = parseEncoderSpec("hf:Xenova/bge-small-en-v1.5");
    assert.deepEqual(hub, { kind: "transformers", name: "transformers", options: { model: "Xenova/bge-small-en-v1.5", label: "hf:Xenova/bge-small-en-v1.5" } });
    const abs = parseEncoderSpec("hf:/opt/models/e5-small-v2");
    assert.equal(abs.kind === "transformers" && abs.options.model, "/opt/models/e5-small-v2");
    const rel = parseEncoderSpec("hf:./models/gte-small");
    assert.equal(rel.kind === "transformers" && rel.options.model, "./models/gte-small");
  });

  it("parses ?options (URL query syntax, + is a space)", () => {
    const p = parseEncoderSpec("hf:/m/my-model?pooling=cls&dtype=q8&normalize=false&batch=4&query=query:+&document=passage%3A%20&family=none");
    assert.equal(p.kind, "transformers");
    if (p.kind !== "transformers") return;
    assert.deepEqual(p.options, {
      model: "/m/my-model",
      label: "hf:/m/my-model",
      pooling: "cls",
      dtype: "q8",
      normalize: false,
      batchSize: 4,
      queryPrefix: "query: ",
      documentPrefix: "passage: ",
      family: null,
    });
    const fam = parseEncoderSpec("hf:/m/x?family=e5");
    assert.equal(fam.kind === "transformers" && fam.options.family, "e5");
  });

  it("rejects bad specs with a message that shows the syntax", () => {
    assert.throws(() => parseEncoderSpec("nope"), /Unknown encoder "nope".*hf:<hub id or model directory>/);
    assert.throws(() => parseEncoderSpec("hf:"), /name a model after "hf:"/);
    assert.throws(() => parseEncoderSpec("hf:Xenova/x?bogus=1"), /unknown option "bogus" \(known: pooling, normalize, dtype, batch, family, query, document\)/);
    assert.throws(() => parseEncoderSpec("hf:Xenova/x?dtype=fp64"), /dtype must be one of fp32, fp16, q8/);
    assert.throws(() => parseEncoderSpec("hf:Xenova/x?pooling=max"), /pooling must be mean, cls or last_token/);
    assert.throws(() => parseEncoderSpec("hf:not a hub id"), /neither a Hugging Face Hub id/);
    assert.equal(isEncoderSpec("hf:Xenova/gte-small"), true);
    assert.equal(isEncoderSpec("gte-small"), false);
  });
});

describe("model families", () => {
  const fam = (model: string) => modelFamilyOf(model)?.name;

  it("knows e5, bge, gte and MiniLM, by hub id or local directory", () => {
    assert.equal(fam("Xenova/e5-small-v2"), "e5");
    assert.equal(fam("intfloat/multilingual-e5-small"), "e5");
    assert.equal(fam("intfloat/multilingual-e5-large-instruct"), "e5-instruct");
    assert.equal(fam("Xenova/bge-small-en-v1.5"), "bge-en");
    assert.equal(fam("/srv/models/bge-base-en-v1.5/"), "bge-en");
    assert.equal(fam("Xenova/bge-m3"), "bge-m3");
    assert.equal(fam("Xenova/gte-small"), "gte");
    assert.equal(fam("Alibaba-NLP/gte-base-en-v1.5"), "gte-v1.5");
    assert.equal(fam("Xenova/all-MiniLM-L6-v2"), "sentence-transformers");
    assert.equal(fam("nomic-ai/nomic-embed-text-v1.5"), "nomic");
    assert.equal(fam("someone/my-custom-encoder"), undefined);
    // Names are unique (they are used to force a family).
    assert.equal(new Set(MODEL_FAMILIES.map((f) => f.name)).size, MODEL_FAMILIES.length);
  });

  it("applies the family defaults, and every field can be overridden", () => {
    const e5 = new TransformersEmbeddings({ model: "Xenova/e5-small-v2" });
    assert.deepEqual([e5.family, e5.pooling, e5.queryPrefix, e5.documentPrefix], ["e5", "mean", "query: ", "passage: "]);
    const bge = new TransformersEmbeddings({ model: "Xenova/bge-small-en-v1.5" });
    assert.deepEqual([bge.family, bge.pooling, bge.queryPrefix, bge.documentPrefix], ["bge-en", "cls", BGE_EN_QUERY_INSTRUCTION, ""]);
    assert.equal(BGE_EN_QUERY_INSTRUCTION, "Represent this sentence for searching relevant passages: ");
    const gte = new TransformersEmbeddings({ model: "Xenova/gte-small" });
    assert.deepEqual([gte.family, gte.pooling, gte.queryPrefix, gte.documentPrefix], ["gte", "mean", "", ""]);
    const mini = new TransformersEmbeddings({ model: MODEL_ALIASES.minilm! });
    assert.deepEqual([mini.pooling, mini.queryPrefix, mini.documentPrefix], ["mean", "", ""]);
    const generic = new TransformersEmbeddings({ model: "someone/my-custom-encoder" });
    assert.deepEqual([generic.family, generic.pooling, generic.queryPrefix], [undefined, "mean", ""]);

    const overridden = new TransformersEmbeddings({ model: "Xenova/bge-small-en-v1.5", pooling: "mean", queryPrefix: "", dtype: "q8" });
    assert.deepEqual([overridden.pooling, overridden.queryPrefix, overridden.dtype], ["mean", "", "q8"]);
    const forced = new TransformersEmbeddings({ model: "/models/renamed-copy", family: "e5" });
    assert.deepEqual([forced.family, forced.queryPrefix, forced.documentPrefix], ["e5", "query: ", "passage: "]);
    const none = new TransformersEmbeddings({ model: "Xenova/e5-small-v2", family: null });
    assert.deepEqual([none.family, none.queryPrefix], [undefined, ""]);
    const own = new TransformersEmbeddings({
      model: "/models/x",
      family: { name: "mine", match: /x/, pooling: "cls", queryPrefix: "Q: ", documentPrefix: "D: ", source: "test" },
    });
    assert.deepEqual([own.family, own.pooling, own.queryPrefix], ["mine", "cls", "Q: "]);
    assert.throws(() => new TransformersEmbeddings({ model: "m/x", family: "nope" }), /unknown family "nope" \(known: e5-instruct, e5, bge-en/);
    assert.throws(() => new TransformersEmbeddings({ model: "m/x", dtype: "fp64" as never }), /dtype must be one of/);
  });

  it("model ids name the model and every setting that changes vectors", () => {
    const id = (o: ConstructorParameters<typeof TransformersEmbeddings>[0]) => new TransformersEmbeddings(o).modelId;
    assert.match(id({ model: "Xenova/bge-small-en-v1.5" }), /^hf:Xenova\/bge-small-en-v1\.5\|cls\|fp32\|q=[0-9a-f]{8}$/);
    assert.equal(id({ model: "Xenova/gte-small" }), "hf:Xenova/gte-small|mean|fp32");
    assert.match(id({ model: "Xenova/e5-small-v2" }), /\|q=[0-9a-f]{8}\|d=[0-9a-f]{8}$/);
    assert.equal(id({ model: "./rel/gte-small" }), `hf:${path.resolve("rel/gte-small")}|mean|fp32`);
    const ids = new Set([
      id({ model: "Xenova/e5-small-v2" }),
      id({ model: "Xenova/e5-small-v2", queryPrefix: "" }),
      id({ model: "Xenova/e5-small-v2", documentPrefix: "" }),
      id({ model: "Xenova/e5-small-v2", pooling: "cls" }),
      id({ model: "Xenova/e5-small-v2", dtype: "q8" }),
      id({ model: "Xenova/e5-small-v2", normalize: false }),
      id({ model: "Xenova/e5-base-v2" }),
    ]);
    assert.equal(ids.size, 7);
    // The "|" separator keeps the CLI's "encoder: <id>; ..." description parseable.
    assert.ok(!id({ model: "Xenova/e5-small-v2" }).includes(";"));
  });
});

describe("withPrefixes over the real USE-lite encoder", () => {
  const inner = new UseLiteEmbeddings();
  const e5Style = withPrefixes(inner, { query: "query: ", document: "passage: " });
  const text = "send an email to bob";

  it("prefixes queries and documents asymmetrically", async () => {
    const [q, [d], [rawQ, rawD], plain] = await Promise.all([
      e5Style.embedQuery(text),
      e5Style.embedDocuments([text]),
      inner.embedDocuments([`query: ${text}`, `passage: ${text}`]),
      inner.embedQuery(text),
    ]);
    assert.equal(q.length, 512);
    assert.ok(cos(q, rawQ!) > 0.9999, "embedQuery embeds query prefix + text");
    assert.ok(cos(d!, rawD!) > 0.9999, "embedDocuments embeds document prefix + text");
    // The two sides differ: the same text is a different vector as a query and as a document...
    assert.ok(cos(q, d!) < 0.999, `query vs document cosine ${cos(q, d!)}`);
    // ...and neither is the unprefixed vector.
    assert.ok(cos(q, plain) < 0.999 && cos(d!, plain) < 0.999);
    // Still the same meaning: a prefix shifts the vector, it does not replace it.
    assert.ok(cos(q, d!) > 0.5, `query vs document cosine ${cos(q, d!)}`);
  });

  it("embeds query batches on the query side", async () => {
    const texts = [text, "list files in a directory"];
    const batch = await e5Style.embedQueries(texts);
    const single = await Promise.all(texts.map((t) => e5Style.embedQuery(t)));
    const docs = await e5Style.embedDocuments(texts);
    for (let i = 0; i < texts.length; i++) {
      assert.ok(cos(batch[i]!, single[i]!) > 0.9999);
      assert.ok(cos(batch[i]!, docs[i]!) < 0.999);
    }
    assert.deepEqual(await embedQueryBatch(e5Style, []), []);
  });

  it("gives each prefix pair its own model id, cache keys and cache file", async () => {
    const queryOnly = withPrefixes(inner, { query: BGE_EN_QUERY_INSTRUCTION });
    assert.equal(inner.modelId, "use-lite-512");
    assert.match(e5Style.modelId, /^use-lite-512\|q=[0-9a-f]{8}\|d=[0-9a-f]{8}$/);
    assert.match(queryOnly.modelId, /^use-lite-512\|q=[0-9a-f]{8}$/);
    assert.equal(withPrefixes(inner, {}).modelId, "use-lite-512");
    assert.equal(withPrefixes(inner, { query: "query: ", document: "passage: " }).modelId, e5Style.modelId);
    assert.equal(withPrefixes(inner, { query: "q", modelId: "my-model" }).modelId.split("|")[0], "my-model");
    const keys = new Set([inner.modelId, e5Style.modelId, queryOnly.modelId].map((m) => embeddingCacheKey(m, text)));
    assert.equal(keys.size, 3);
    assert.notEqual(embeddingCacheFileName(e5Style.modelId), embeddingCacheFileName(inner.modelId));

    // Through resolveEncoder's disk cache: vectors of the two spaces land in different files and never mix.
    const dir = path.join(tmpRoot, "prefix-cache");
    const [a, b] = await Promise.all([resolveEncoder(e5Style, { cacheDir: dir }), resolveEncoder(inner, { cacheDir: dir })]);
    assert.ok(a.embeddings instanceof CachedEmbeddings && b.embeddings instanceof CachedEmbeddings);
    assert.equal(a.modelId, e5Style.modelId);
    assert.equal(a.name, "custom");
    const [[va], [vb]] = await Promise.all([a.embeddings.embedDocuments([text]), b.embeddings.embedDocuments([text])]);
    assert.ok(cos(va!, vb!) < 0.999, "prefixed and plain document vectors are different entries");
    const files = (await readdir(dir)).filter((f) => f.endsWith(".f32")).sort();
    assert.deepEqual(files, [embeddingCacheFileName(inner.modelId), embeddingCacheFileName(e5Style.modelId)].sort());

    // The cache's batch query path stays on the query side (never embedDocuments).
    const [cq] = await embedQueryBatch(a.embeddings, [text]);
    assert.ok(cos(cq!, await e5Style.embedQuery(text)) > 0.9999);
    assert.ok(cos(cq!, va!) < 0.999);
  });

  it("rejects what is not an encoder", () => {
    assert.throws(() => withPrefixes({} as never, { query: "q" }), /expected a LangChain Embeddings/);
  });
});

/** A stand-in for the transformers.js module: records what reaches the model, returns deterministic vectors. */
function fakeTransformers(opts: { fail?: (model: string) => Error | undefined } = {}) {
  const calls: { texts: string[]; pooling: string; normalize: boolean; model: string }[] = [];
  const loads: { model: string; options: Record<string, unknown>; localModelPath: string; allowRemoteModels: boolean }[] = [];
  const mod: TransformersModuleLike = {
    env: { allowRemoteModels: true, allowLocalModels: true, localModelPath: "/default/models/" },
    async pipeline(_task, model, options = {}) {
      loads.push({ model, options, localModelPath: mod.env.localModelPath, allowRemoteModels: mod.env.allowRemoteModels });
      await new Promise((r) => setTimeout(r, 5));
      const err = opts.fail?.(model);
      if (err) throw err;
      const extractor: FeatureExtractorLike = async (texts, o) => {
        calls.push({ texts: [...texts], pooling: o.pooling, normalize: o.normalize, model });
        // 4-d vectors that depend on the text, so a prefix changes the vector.
        return { tolist: () => texts.map((t) => [t.length, t.charCodeAt(0) || 0, t.split(" ").length, 1]) };
      };
      return extractor;
    },
  };
  return { mod, calls, loads };
}

describe("TransformersEmbeddings mechanics (stand-in transformers.js module)", () => {
  it("sends query prefix + text for queries, document prefix + text for documents, with the family's pooling", async () => {
    const { mod, calls, loads } = fakeTransformers();
    const e5 = new TransformersEmbeddings({ model: "Xenova/e5-small-v2", localModelPath: "/opt/m", transformers: mod, batchSize: 2 });
    await e5.load();
    assert.deepEqual(loads, [{ model: "Xenova/e5-small-v2", options: { dtype: "fp32", local_files_only: true }, localModelPath: `${path.resolve("/opt/m")}${path.sep}`, allowRemoteModels: false }]);
    // The application's transformers.js settings are restored after the load.
    assert.deepEqual(mod.env, { allowRemoteModels: true, allowLocalModels: true, localModelPath: "/default/models/" });

    await e5.embedQuery("find weather");
    await e5.embedDocuments(["get forecast", "send mail", "read file"]);
    await e5.embedQueries(["a", "b"]);
    assert.deepEqual(
      calls.map((c) => c.texts),
      [["query: find weather"], ["passage: get forecast", "passage: send mail"], ["passage: read file"], ["query: a", "query: b"]],
    );
    assert.ok(calls.every((c) => c.pooling === "mean" && c.normalize === true));
    assert.equal(e5.dimension, 4);

    const bge = new TransformersEmbeddings({ model: "Xenova/bge-small-en-v1.5", transformers: mod });
    await bge.embedQuery("x");
    await bge.embedDocuments(["y"]);
    assert.deepEqual(calls.slice(-2).map((c) => [c.texts[0], c.pooling]), [[`${BGE_EN_QUERY_INSTRUCTION}x`, "cls"], ["y", "cls"]]);
  });

  it("loads a local directory by parent + name, and shares one pipeline per model files", async () => {
    const { mod, loads } = fakeTransformers();
    const a = new TransformersEmbeddings({ model: "/srv/models/e5-small-v2", transformers: mod });
    const b = new TransformersEmbeddings({ model: "/srv/models/e5-small-v2", transformers: mod, queryPrefix: "" });
    const c = new TransformersEmbeddings({ model: "/srv/models/e5-small-v2", transformers: mod, dtype: "q8" });
    await Promise.all([a.load(), b.load(), c.load()]);
    assert.equal(a.family, "e5");
    assert.notEqual(a.modelId, b.modelId);
    assert.deepEqual(
      loads.map((l) => [l.model, l.localModelPath, l.options.dtype]),
      [
        ["e5-small-v2", `${path.resolve("/srv/models")}${path.sep}`, "fp32"],
        ["e5-small-v2", `${path.resolve("/srv/models")}${path.sep}`, "q8"],
      ],
    );
  });

  it("resolveEncoder loads an instance now, caches it, and reports it as \"transformers\"", async () => {
    const { mod } = fakeTransformers();
    const enc = new TransformersEmbeddings({ model: "Xenova/e5-base-v2", transformers: mod });
    const r = await resolveEncoder(enc, { cacheDir: path.join(tmpRoot, "hf-cache") });
    assert.equal(r.name, "transformers");
    assert.equal(r.modelId, enc.modelId);
    assert.ok(r.embeddings instanceof CachedEmbeddings);
    assert.equal((r.embeddings as CachedEmbeddings).inner, enc);
  });

  it("the router embeds evaluation query batches on the query side", async () => {
    const { mod, calls } = fakeTransformers();
    const catalog = ToolCatalog.fromFile(new URL("../data/demo-catalog.json", import.meta.url).pathname);
    const enc = new TransformersEmbeddings({ model: "Xenova/e5-small-v2", transformers: mod });
    const router = new ToolAttentionRouter(catalog, { encoder: enc, cacheDir: path.join(tmpRoot, "router-cache"), log: false });
    await router.prepare();
    assert.ok(calls.flatMap((c) => c.texts).every((t) => t.startsWith("passage: ")), "tool texts embedded as documents");
    calls.length = 0;
    await router.embedQueries(["weather in paris", "send an email"]);
    assert.deepEqual(calls.flatMap((c) => c.texts), ["query: weather in paris", "query: send an email"]);
  });

  it("a failed load names the model, where it looked, and what to do; it can be retried", async () => {
    const modelDir = path.join(tmpRoot, "models");
    await mkdir(path.join(modelDir, "Xenova", "gte-small"), { recursive: true });
    await writeFile(path.join(modelDir, "Xenova", "gte-small", "config.json"), "{}");
    let fail = true;
    const { mod, loads } = fakeTransformers({ fail: () => (fail ? new Error("file was not found locally") : undefined) });
    const enc = new TransformersEmbeddings({ model: "Xenova/gte-small", localModelPath: modelDir, transformers: mod });
    await assert.rejects(enc.embedQuery("x"), (err: Error) => {
      assert.match(err.message, /^Encoder "hf:Xenova\/gte-small": could not load Xenova\/gte-small \(file was not found locally\)/);
      assert.ok(err.message.includes(`Looked in ${path.join(modelDir, "Xenova", "gte-small")}`), err.message);
      assert.match(err.message, /missing tokenizer\.json, tokenizer_config\.json, onnx\/model\.onnx/);
      assert.match(err.message, /remote downloads are disabled \(TOOL_ATTENTION_ALLOW_REMOTE_MODELS is not 1\)/);
      assert.match(err.message, /set TOOL_ATTENTION_MODEL_DIR=<dir>/);
      return true;
    });
    fail = false;
    assert.equal((await enc.embedQuery("x")).length, 4);
    assert.equal(loads.length, 2);

    const local = new TransformersEmbeddings({ model: path.join(tmpRoot, "nowhere", "bge-small-en-v1.5"), transformers: fakeTransformers({ fail: () => new Error("nope") }).mod });
    await assert.rejects(local.load(), (err: Error) => {
      assert.ok(err.message.includes(`Looked in ${path.join(tmpRoot, "nowhere", "bge-small-en-v1.5")}: the directory does not exist`), err.message);
      assert.match(err.message, /must hold config\.json, tokenizer\.json, tokenizer_config\.json, onnx\/model\.onnx/);
      return true;
    });
  });
});

describe("missing @huggingface/transformers", () => {
  it("hf: specs and minilm fail at resolve time with the install command and the model files needed", async (t) => {
    if (await transformersInstalled()) {
      t.skip("@huggingface/transformers is installed here; the missing-package message cannot be tested");
      return;
    }
    for (const [spec, model] of [
      ["hf:Xenova/bge-small-en-v1.5", "Xenova/bge-small-en-v1.5"],
      ["minilm", "Xenova/all-MiniLM-L6-v2"],
    ] as const) {
      await assert.rejects(resolveEncoder(spec), (err: Error) => {
        assert.ok(err.message.startsWith(`Encoder "${spec}" needs the optional package @huggingface/transformers, which is not installed.`), err.message);
        assert.ok(err.message.includes("Install it with: ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface/transformers"));
        assert.ok(err.message.includes(`model files of ${model}`));
        assert.match(err.message, /TOOL_ATTENTION_MODEL_DIR=<dir>/);
        assert.match(err.message, /TOOL_ATTENTION_ALLOW_REMOTE_MODELS=1/);
        return true;
      });
    }
    const dir = path.join(tmpRoot, "local-e5");
    await assert.rejects(resolveEncoder(`hf:${dir}?dtype=q8`), (err: Error) => {
      assert.ok(err.message.includes(`The directory ${dir} must hold config.json, tokenizer.json, tokenizer_config.json, onnx/model_quantized.onnx`), err.message);
      return true;
    });
    // The router surfaces it at prepare time, not mid-route: in strict mode as prepare()'s error; by default it routes
    // lexically and health() carries the same message.
    const catalog = ToolCatalog.fromFile(new URL("../data/demo-catalog.json", import.meta.url).pathname);
    const strict = new ToolAttentionRouter(catalog, { encoder: "hf:Xenova/gte-small", log: false, encoderFallback: false });
    await assert.rejects(strict.prepare(), /ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface\/transformers/);
    const router = new ToolAttentionRouter(catalog, { encoder: "hf:Xenova/gte-small", log: false });
    await router.prepare();
    assert.equal(router.health().state, "degraded");
    assert.match(router.health().error ?? "", /ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface\/transformers/);
  });
});

describe("CLI --encoder", () => {
  const ROOT = fileURLToPath(new URL("..", import.meta.url));
  async function cli(args: string[]): Promise<{ code: number; stderr: string }> {
    try {
      const { stderr } = await promisify(execFile)(process.execPath, ["--import", "tsx", path.join(ROOT, "src/cli/main.ts"), ...args], { cwd: ROOT });
      return { code: 0, stderr };
    } catch (err) {
      const e = err as { code: number; stderr: string };
      return { code: e.code, stderr: e.stderr };
    }
  }
  const route = (encoder: string) => cli(["route", "--catalog", path.join(ROOT, "data/demo-catalog.json"), "--query", "weather in Paris", "--encoder", encoder]);

  it("rejects a malformed spec as a usage error naming the option", async () => {
    const r = await route("hf:Xenova/gte-small?bogus=1");
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /--encoder: Encoder "hf:Xenova\/gte-small\?bogus=1": unknown option "bogus"/);
    const unknown = await route("gte-small");
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /Unknown encoder "gte-small".*hf:Xenova\/bge-small-en-v1\.5/);
  });

  it("accepts hf: specs and reports what is missing", async (t) => {
    if (await transformersInstalled()) {
      t.skip("@huggingface/transformers is installed here; the missing-package message cannot be tested");
      return;
    }
    const r = await route("hf:Xenova/bge-small-en-v1.5");
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Encoder "hf:Xenova\/bge-small-en-v1\.5" needs the optional package/);
    assert.match(r.stderr, /ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface\/transformers/);
  });
});

describe("a real transformers.js model (TOOL_ATTENTION_MODEL_DIR)", () => {
  it("loads, embeds both sides and ranks a paraphrase first", async (t) => {
    const root = process.env.TOOL_ATTENTION_MODEL_DIR;
    if (!(await transformersInstalled())) {
      t.skip(
        "@huggingface/transformers is not installed: run ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface/transformers" +
          (root ? "" : " and set TOOL_ATTENTION_MODEL_DIR to a directory holding a model such as Xenova/all-MiniLM-L6-v2") +
          " to run this test",
      );
      return;
    }
    if (!root) {
      t.skip("TOOL_ATTENTION_MODEL_DIR is not set: point it at a directory holding a model such as Xenova/all-MiniLM-L6-v2 to run this test");
      return;
    }
    const models = findModelDirs(root);
    if (models.length === 0) {
      t.skip(`no model directory (config.json + onnx/model.onnx or onnx/model_quantized.onnx) found under ${root}`);
      return;
    }
    for (const m of models.slice(0, 3)) {
      const enc = new TransformersEmbeddings({ model: m.dir, dtype: m.dtype });
      const q = await enc.embedQuery("send an email to bob");
      const docs = await enc.embedDocuments(["Send an email message to a recipient", "Delete a branch from a git repository", ""]);
      assert.equal(docs.length, 3);
      for (const v of [q, ...docs]) {
        assert.equal(v.length, q.length);
        assert.ok(Math.abs(norm(v) - 1) < 1e-3, `${m.model}: norm ${norm(v)}`);
      }
      assert.ok(cos(q, docs[0]!) > cos(q, docs[1]!), `${m.model}: related ${cos(q, docs[0]!)} vs unrelated ${cos(q, docs[1]!)}`);
      const [asQuery] = await enc.embedQueries(["send an email to bob"]);
      assert.ok(cos(asQuery!, q) > 0.9999);
      if (enc.queryPrefix !== enc.documentPrefix) {
        const [asDoc] = await enc.embedDocuments(["send an email to bob"]);
        assert.ok(cos(asDoc!, q) < 0.9999, `${m.model}: prefixes must make the two sides differ`);
      }
      t.diagnostic(`${m.model} (${m.dtype}, family ${enc.family ?? "generic"}): ${q.length}-d, related ${cos(q, docs[0]!).toFixed(3)} vs unrelated ${cos(q, docs[1]!).toFixed(3)}`);
    }
  });
});

async function transformersInstalled(): Promise<boolean> {
  try {
    await import(["@huggingface", "transformers"].join("/"));
    return true;
  } catch {
    return false;
  }
}

/** Model directories under `root` (depth ≤ 3): absolute path, path relative to `root`, and the dtype whose file exists. */
function findModelDirs(root: string): { dir: string; model: string; dtype: "fp32" | "q8" }[] {
  const out: { dir: string; model: string; dtype: "fp32" | "q8" }[] = [];
  const walk = (dir: string, depth: number) => {
    if (existsSync(path.join(dir, "config.json"))) {
      const dtype = existsSync(path.join(dir, "onnx", "model.onnx")) ? "fp32" : existsSync(path.join(dir, "onnx", "model_quantized.onnx")) ? "q8" : undefined;
      if (dtype) out.push({ dir, model: path.relative(root, dir).split(path.sep).join("/"), dtype });
      return;
    }
    if (depth >= 3) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory() && !e.name.startsWith(".")) walk(path.join(dir, e.name), depth + 1);
  };
  if (existsSync(root)) walk(path.resolve(root), 0);
  return out;
}
