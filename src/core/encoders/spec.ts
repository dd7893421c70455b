/**
 * Encoder spec strings: what `encoder: "..."` (router, middleware) and the CLI's `--encoder` accept.
 *
 *   use-lite | lexical | hybrid          built-in encoders (see index.ts)
 *   minilm                               alias of hf:Xenova/all-MiniLM-L6-v2
 *   hf:<hub id>                          e.g. hf:Xenova/bge-small-en-v1.5 — any transformers.js feature-extraction model
 *   hf:<directory>                       e.g. hf:/models/e5-small-v2, hf:./models/gte-small, hf:~/models/x
 *   hf:<hub id or directory>?<options>   URL query syntax, values percent-encoded ("+" is a space):
 *       pooling=mean|cls|last_token   normalize=true|false   dtype=fp32|q8|fp16|...   batch=<n>
 *       family=<name>|none            query=<prefix>          document=<prefix>
 *     e.g. hf:Xenova/bge-small-en-v1.5?dtype=q8
 *          hf:/models/my-e5?query=query:+&document=passage:+
 *
 * "hf:" names the transformers.js backend (Hugging Face's), not the Hub: a local directory needs no network.
 * Options not given come from the model's family (families.ts) and `TransformersEmbeddings`' defaults.
 */
import type { TransformersPooling } from "./families.js";
import { DTYPE_FILE_SUFFIX, modelLocation, type TransformersDtype, type TransformersEmbeddingsOptions } from "./transformers.js";

/** The scheme of transformers.js specs. */
export const TRANSFORMERS_SPEC_PREFIX = "hf:";

/** A transformers.js encoder spec (`hf:<hub id or path>[?options]`). */
export type TransformersEncoderSpec = `hf:${string}`;

/** Built-in encoder names. */
export type BuiltinEncoderName = "use-lite" | "lexical" | "minilm" | "hybrid";

/** Aliases of transformers.js models. Kept to one: a short name per model would hide which model runs. */
export const MODEL_ALIASES: Readonly<Record<string, string>> = Object.freeze({ minilm: "Xenova/all-MiniLM-L6-v2" });

/** A parsed spec. */
export type ParsedEncoderSpec =
  | { kind: "builtin"; name: "use-lite" | "lexical" | "hybrid" }
  | {
      kind: "transformers";
      /** "minilm" for the alias (a symmetric model: the router may batch its queries as documents), else "transformers". */
      name: "minilm" | "transformers";
      /** Options for `TransformersEmbeddings` (model, label and whatever the spec set). */
      options: TransformersEmbeddingsOptions;
    };

/** Option keys of the `?` part, each with its parser. */
const SPEC_OPTIONS: Record<string, (value: string, o: TransformersEmbeddingsOptions) => void> = {
  pooling: (v, o) => {
    if (!["mean", "cls", "last_token"].includes(v)) throw new Error(`pooling must be mean, cls or last_token, got "${v}"`);
    o.pooling = v as TransformersPooling;
  },
  normalize: (v, o) => {
    if (!/^(true|false|1|0)$/.test(v)) throw new Error(`normalize must be true or false, got "${v}"`);
    o.normalize = v === "true" || v === "1";
  },
  dtype: (v, o) => {
    if (!(v in DTYPE_FILE_SUFFIX)) throw new Error(`dtype must be one of ${Object.keys(DTYPE_FILE_SUFFIX).join(", ")}, got "${v}"`);
    o.dtype = v as TransformersDtype;
  },
  batch: (v, o) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`batch must be a positive integer, got "${v}"`);
    o.batchSize = n;
  },
  family: (v, o) => {
    o.family = v === "none" ? null : v;
  },
  query: (v, o) => {
    o.queryPrefix = v;
  },
  document: (v, o) => {
    o.documentPrefix = v;
  },
};

/** Whether `spec` is a string `resolveEncoder` accepts (a built-in name, an alias or a well-formed `hf:` spec). */
export function isEncoderSpec(spec: string): boolean {
  try {
    parseEncoderSpec(spec);
    return true;
  } catch {
    return false;
  }
}

/** Parses an encoder spec string (see the module comment). Throws an Error explaining the syntax on a bad spec. */
export function parseEncoderSpec(spec: string): ParsedEncoderSpec {
  const s = String(spec ?? "").trim();
  if (s === "use-lite" || s === "lexical" || s === "hybrid") return { kind: "builtin", name: s };
  if (s in MODEL_ALIASES) return { kind: "transformers", name: "minilm", options: { model: MODEL_ALIASES[s]!, label: s } };
  if (!s.toLowerCase().startsWith(TRANSFORMERS_SPEC_PREFIX)) {
    throw new Error(
      `Unknown encoder "${s}". Use "hybrid" (default), "use-lite", "lexical", "minilm", ` +
        `"hf:<hub id or model directory>" (e.g. "hf:Xenova/bge-small-en-v1.5"), or pass a LangChain Embeddings instance.`,
    );
  }
  const body = s.slice(TRANSFORMERS_SPEC_PREFIX.length);
  const q = body.indexOf("?");
  const model = (q < 0 ? body : body.slice(0, q)).trim();
  if (model === "") throw new Error(`Encoder "${s}": name a model after "hf:", e.g. "hf:Xenova/bge-small-en-v1.5" or "hf:/path/to/model".`);
  try {
    modelLocation(model, undefined);
  } catch (err) {
    throw new Error(`Encoder "${s}": ${(err as Error).message}`);
  }
  const options: TransformersEmbeddingsOptions = { model, label: q < 0 ? s : `hf:${model}` };
  if (q >= 0) {
    for (const [key, value] of new URLSearchParams(body.slice(q + 1))) {
      const apply = SPEC_OPTIONS[key];
      if (!apply) throw new Error(`Encoder "${s}": unknown option "${key}" (known: ${Object.keys(SPEC_OPTIONS).join(", ")}).`);
      try {
        apply(value, options);
      } catch (err) {
        throw new Error(`Encoder "${s}": ${(err as Error).message}.`);
      }
    }
  }
  return { kind: "transformers", name: "transformers", options };
}
