/**
 * Model families: the pooling and the query / document prefixes a sentence-embedding model was TRAINED with.
 * Getting them wrong does not fail loudly, it just ranks worse: an e5 model fed texts without "query: " /
 * "passage: ", or a bge model mean-pooled instead of CLS-pooled, returns plausible vectors of lower quality.
 * So they are looked up here, in one table, from the model id (or the local directory name), and every field can
 * be overridden per model (`TransformersEmbeddings` options) or by passing a family of your own.
 *
 * Prefixes are asymmetric on purpose: retrieval models such as e5 and bge embed the searcher's text (the user's
 * request) and the searched texts (tool descriptions) differently. `queryPrefix` goes in front of every text given
 * to `embedQuery` / `embedQueries`, `documentPrefix` in front of every text given to `embedDocuments`.
 *
 * Sources: each model's card on the Hugging Face Hub (quoted in `source`). A model that matches no family gets
 * {@link GENERIC_FAMILY_DEFAULTS}: mean pooling, no prefixes (right for most sentence-transformers models).
 */

/** How token vectors become one sentence vector (the transformers.js feature-extraction `pooling` option). */
export type TransformersPooling = "mean" | "cls" | "last_token";

/** The defaults one family of models was trained with. */
export interface ModelFamily {
  /** Short name, shown in `TransformersEmbeddings.family` and usable as `family: "<name>"` to force it. */
  readonly name: string;
  /**
   * Tested (case-insensitively, via the regex's own flags) against the model's hub id, or the last two segments of
   * a local directory path, so a copy at `/models/bge-small-en-v1.5` is recognized like `Xenova/bge-small-en-v1.5`.
   * The first family in the table that matches wins, so put more specific patterns first.
   */
  readonly match: RegExp;
  /** Pooling the model was trained with. */
  readonly pooling: TransformersPooling;
  /** Prepended to queries (the user's request). Empty: none. */
  readonly queryPrefix: string;
  /** Prepended to documents (tool texts). Empty: none. */
  readonly documentPrefix: string;
  /** Where these values come from. */
  readonly source: string;
}

/** Defaults for a model that matches no family: mean pooling, no prefixes. */
export const GENERIC_FAMILY_DEFAULTS: Pick<ModelFamily, "pooling" | "queryPrefix" | "documentPrefix"> = Object.freeze({
  pooling: "mean",
  queryPrefix: "",
  documentPrefix: "",
});

/** The instruction bge (English), mxbai and Snowflake arctic-embed v1 put in front of retrieval queries. */
export const BGE_EN_QUERY_INSTRUCTION = "Represent this sentence for searching relevant passages: ";

/**
 * Known families, most specific first. Frozen: to change a default, pass `family` (a name from this table or a
 * {@link ModelFamily} of your own) or the individual fields to `TransformersEmbeddings`.
 */
export const MODEL_FAMILIES: readonly ModelFamily[] = Object.freeze(([
  {
    // Instruct variant: an instruction on the query side only, documents bare. The task sentence is ours (the card
    // asks for a one-sentence task description); override queryPrefix to change it.
    name: "e5-instruct",
    match: /multilingual-e5-(?:small|base|large)-instruct/i,
    pooling: "mean",
    queryPrefix: "Instruct: Given a user request, retrieve the tool that fulfils it\nQuery: ",
    documentPrefix: "",
    source: "intfloat/multilingual-e5-large-instruct model card",
  },
  {
    name: "e5",
    match: /(?:^|\/)(?:multilingual-)?e5-(?:small|base|large)(?:-v2)?$/i,
    pooling: "mean",
    queryPrefix: "query: ",
    documentPrefix: "passage: ",
    source: "intfloat/e5-small-v2 model card (\"query: \" / \"passage: \", average pooling)",
  },
  {
    name: "bge-en",
    match: /bge-(?:small|base|large)-en(?:-v1\.5)?$/i,
    pooling: "cls",
    queryPrefix: BGE_EN_QUERY_INSTRUCTION,
    documentPrefix: "",
    source: "BAAI/bge-small-en-v1.5 model card (CLS pooling; instruction for short retrieval queries only)",
  },
  {
    name: "bge-zh",
    match: /bge-(?:small|base|large)-zh(?:-v1\.5)?$/i,
    pooling: "cls",
    queryPrefix: "为这个句子生成表示以用于检索相关文章：",
    documentPrefix: "",
    source: "BAAI/bge-small-zh-v1.5 model card",
  },
  {
    name: "bge-m3",
    match: /bge-m3$/i,
    pooling: "cls",
    queryPrefix: "",
    documentPrefix: "",
    source: "BAAI/bge-m3 model card (dense retrieval needs no instruction)",
  },
  {
    name: "gte-v1.5",
    match: /gte-(?:base|large)-en-v1\.5$/i,
    pooling: "cls",
    queryPrefix: "",
    documentPrefix: "",
    source: "Alibaba-NLP/gte-base-en-v1.5 model card (CLS embedding, no instruction)",
  },
  {
    name: "gte",
    match: /(?:^|\/)gte-(?:small|base|large)(?:-zh)?$/i,
    pooling: "mean",
    queryPrefix: "",
    documentPrefix: "",
    source: "thenlper/gte-small model card (average pooling, no instruction)",
  },
  {
    name: "nomic",
    match: /nomic-embed-text-v1(?:\.5)?$/i,
    pooling: "mean",
    queryPrefix: "search_query: ",
    documentPrefix: "search_document: ",
    source: "nomic-ai/nomic-embed-text-v1.5 model card (task prefixes, mean pooling)",
  },
  {
    name: "mxbai",
    match: /mxbai-embed-large-v1$/i,
    pooling: "cls",
    queryPrefix: BGE_EN_QUERY_INSTRUCTION,
    documentPrefix: "",
    source: "mixedbread-ai/mxbai-embed-large-v1 model card (CLS pooling, retrieval prompt on queries)",
  },
  {
    name: "arctic-embed",
    match: /snowflake-arctic-embed-(?:xs|s|m|l)(?:-v1\.5)?$/i,
    pooling: "cls",
    queryPrefix: BGE_EN_QUERY_INSTRUCTION,
    documentPrefix: "",
    source: "Snowflake/snowflake-arctic-embed-s model card (CLS pooling, query prefix only; v2.0 models differ)",
  },
  {
    name: "sentence-transformers",
    match: /(?:^|\/)(?:all-MiniLM-L(?:6|12)-v[12]|all-mpnet-base-v[12]|paraphrase-[\w-]+)$/i,
    pooling: "mean",
    queryPrefix: "",
    documentPrefix: "",
    source: "sentence-transformers/all-MiniLM-L6-v2 model card (mean pooling, symmetric)",
  },
] satisfies ModelFamily[]).map((f) => Object.freeze(f)));

/**
 * The part of a model reference families are matched against: a hub id as is, a local path as its last two
 * segments (`/models/Xenova/bge-small-en-v1.5` → `Xenova/bge-small-en-v1.5`, `/m/bge-small-en-v1.5` →
 * `m/bge-small-en-v1.5`), separators normalized to "/", trailing separators dropped.
 */
export function familyKey(model: string): string {
  const parts = model.replace(/\\/g, "/").replace(/\/+$/, "").split("/").filter(Boolean);
  return parts.slice(-2).join("/");
}

/** The first family of `families` matching `model` (a hub id or a local directory path), or `undefined`. */
export function modelFamilyOf(model: string, families: readonly ModelFamily[] = MODEL_FAMILIES): ModelFamily | undefined {
  const key = familyKey(model);
  return families.find((f) => f.match.test(key));
}

/** A family of the built-in table by name (`undefined` when unknown). */
export function modelFamilyNamed(name: string): ModelFamily | undefined {
  return MODEL_FAMILIES.find((f) => f.name === name);
}
