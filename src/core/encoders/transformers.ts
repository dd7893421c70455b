/**
 * Any transformers.js feature-extraction model (ONNX) as LangChain Embeddings: MiniLM, bge, gte, e5, nomic...,
 * by Hugging Face Hub id or local directory. The package `@huggingface/transformers` is OPTIONAL (not a dependency:
 * it pulls onnxruntime-node, ~200 MB) and is imported on first use, so nothing here costs anything until a model is
 * asked for.
 *
 * Where the files come from (in order):
 * - a local directory path (`model: "/models/bge-small-en-v1.5"`): that directory;
 * - a hub id (`model: "Xenova/bge-small-en-v1.5"`): `<localModelPath>/<hub id>/` (option `localModelPath`, default
 *   env `TOOL_ATTENTION_MODEL_DIR`), then transformers.js' own download cache, then — only when `allowRemote` (env
 *   `TOOL_ATTENTION_ALLOW_REMOTE_MODELS=1`) — the Hub. Remote downloads are off by default so that routing never
 *   reaches the network behind the user's back.
 * A model directory holds `config.json`, `tokenizer.json`, `tokenizer_config.json` and `onnx/model<suffix>.onnx`
 * (suffix per `dtype`: fp32 → "", q8 → "_quantized", fp16 → "_fp16"...), as in the Xenova / onnx-community repos.
 *
 * Pooling and prefixes default to the model's family (see families.ts): e5 gets "query: " / "passage: ", bge-en its
 * query instruction and CLS pooling, and so on. Every default can be overridden.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { Embeddings, type EmbeddingsParams } from "@langchain/core/embeddings";
import { GENERIC_FAMILY_DEFAULTS, MODEL_FAMILIES, modelFamilyNamed, modelFamilyOf, type ModelFamily, type TransformersPooling } from "./families.js";
import { prefixIdSuffix } from "./model-id.js";
import type { QueryBatchEmbeddings } from "./query-batch.js";

/** The optional package this module runs on. */
export const TRANSFORMERS_PACKAGE = "@huggingface/transformers";
/**
 * How to install it without internet access beyond the npm registry: onnxruntime-node's postinstall downloads CUDA
 * binaries, which fails offline; the CPU binaries ship in the npm tarball, so the download can be skipped.
 */
export const TRANSFORMERS_INSTALL_COMMAND = `ONNXRUNTIME_NODE_INSTALL=skip npm install ${TRANSFORMERS_PACKAGE}`;
/** Env var: directory holding model directories by hub id (`<dir>/Xenova/bge-small-en-v1.5/...`). */
export const MODEL_DIR_ENV = "TOOL_ATTENTION_MODEL_DIR";
/** Env var: "1" lets transformers.js download missing model files from the Hugging Face Hub. */
export const ALLOW_REMOTE_ENV = "TOOL_ATTENTION_ALLOW_REMOTE_MODELS";

/** Weight formats of the ONNX exports (`onnx/model<suffix>.onnx`). */
export type TransformersDtype = "fp32" | "fp16" | "q8" | "int8" | "uint8" | "q4" | "q4f16" | "bnb4";

/** File-name suffix of each dtype's ONNX file, as transformers.js looks for them. */
export const DTYPE_FILE_SUFFIX: Readonly<Record<TransformersDtype, string>> = Object.freeze({
  fp32: "",
  fp16: "_fp16",
  q8: "_quantized",
  int8: "_int8",
  uint8: "_uint8",
  q4: "_q4",
  q4f16: "_q4f16",
  bnb4: "_bnb4",
});

/** Default texts per forward pass: bounds peak memory (padding to the longest text of the batch); vectors do not depend on it. */
export const TRANSFORMERS_DEFAULT_BATCH_SIZE = 32;

/** The parts of `@huggingface/transformers` used here (structural: the package is optional, v3 and v4 both fit). */
export interface TransformersModuleLike {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline: (task: "feature-extraction", model: string, options?: Record<string, unknown>) => Promise<FeatureExtractorLike>;
}
/** A transformers.js feature-extraction pipeline. */
export type FeatureExtractorLike = (
  texts: string[],
  options: { pooling: TransformersPooling; normalize: boolean },
) => Promise<{ tolist(): number[][] }>;

/** Options of {@link TransformersEmbeddings}. The LangChain `EmbeddingsParams` fields are accepted but unused (local model). */
export interface TransformersEmbeddingsOptions extends EmbeddingsParams {
  /**
   * Hugging Face Hub id (`"Xenova/bge-small-en-v1.5"`) or path of a local model directory (absolute, or starting
   * with `./`, `../` or `~/`). Must have an ONNX export (the Xenova/* and onnx-community/* repos do).
   */
  model: string;
  /**
   * Force a family's defaults instead of detecting it from `model`: a name from `MODEL_FAMILIES` ("e5", "bge-en"...),
   * a family of your own, or `null` for the generic defaults (mean pooling, no prefixes). Default: detected.
   */
  family?: string | ModelFamily | null;
  /** Pooling of token vectors into one vector. Default: the family's, else "mean". */
  pooling?: TransformersPooling;
  /** Scale vectors to unit length (cosine = dot product, what the router's index expects). Default true. */
  normalize?: boolean;
  /** Prepended to every query (`embedQuery`, `embedQueries`). Default: the family's, else none. */
  queryPrefix?: string;
  /** Prepended to every document (`embedDocuments`, i.e. tool texts). Default: the family's, else none. */
  documentPrefix?: string;
  /** Which ONNX weights to load. Default "fp32" (`onnx/model.onnx`); "q8" (`model_quantized.onnx`) is ~4× smaller and faster on CPU. */
  dtype?: TransformersDtype;
  /** Directory holding models by hub id (`<dir>/<hub id>/config.json`...). Default env `TOOL_ATTENTION_MODEL_DIR`. Ignored for a path `model`. */
  localModelPath?: string;
  /** Let transformers.js download missing files from the Hub. Default: env `TOOL_ATTENTION_ALLOW_REMOTE_MODELS` is "1". */
  allowRemote?: boolean;
  /** Texts per forward pass. Default 32. */
  batchSize?: number;
  /** How error messages name this encoder. Default `hf:<model>`. */
  label?: string;
  /**
   * The transformers.js module to use instead of `import("@huggingface/transformers")`: for bundlers (which cannot
   * follow this module's dynamic import of an optional package), or to pin a copy of your own.
   */
  transformers?: TransformersModuleLike | (() => Promise<TransformersModuleLike>);
}

/** Where a model's files are looked for. */
export interface ModelLocation {
  /** "hub": a hub id resolved under `root`; "path": a local directory given by path. */
  kind: "hub" | "path";
  /** What transformers.js is asked to load, relative to `root`: the hub id, or the directory's base name. */
  id: string;
  /** The directory transformers.js looks in (`env.localModelPath`); `undefined`: transformers.js' default. */
  root: string | undefined;
  /** Absolute directory expected to hold the files, when known. */
  dir: string | undefined;
}

/** Whether `model` is a filesystem path rather than a hub id. */
export function isModelPath(model: string): boolean {
  return /^(?:\/|\.{1,2}(?:\/|\\|$)|~[\\/]|[A-Za-z]:[\\/]|\\\\)/.test(model);
}

/** Hub ids: `name` or `owner/name`, letters, digits, `.`, `_`, `-`. */
const HUB_ID = /^[A-Za-z0-9][\w.-]*(?:\/[\w.-]+)?$/;

/** Where the files of `model` are looked for (see the module comment). Throws on a string that is neither a hub id nor a path. */
export function modelLocation(model: string, localModelPath: string | undefined = process.env[MODEL_DIR_ENV]): ModelLocation {
  if (isModelPath(model)) {
    const expanded = model.startsWith("~") ? path.join(process.env.HOME ?? process.env.USERPROFILE ?? "~", model.slice(2)) : model;
    const dir = path.resolve(expanded);
    // transformers.js joins localModelPath and the id (v3) or takes paths as is (v4): parent + base name works in both.
    return { kind: "path", id: path.basename(dir), root: path.dirname(dir) + path.sep, dir };
  }
  if (!HUB_ID.test(model))
    throw new Error(`"${model}" is neither a Hugging Face Hub id ("owner/name") nor a directory path (absolute, or starting with ./ ../ ~/).`);
  const root = localModelPath && localModelPath.trim() !== "" ? path.resolve(localModelPath) + path.sep : undefined;
  return { kind: "hub", id: model, root, dir: root ? path.join(root, model) : undefined };
}

/**
 * LangChain Embeddings over a transformers.js feature-extraction model. Stateless (a text always gets the same
 * vector), so it is safe behind `CachedEmbeddings`; `modelId` names the model AND every setting that changes the
 * vectors (pooling, normalization, dtype, prefixes), so caches of different configurations never mix.
 *
 * The model loads on first use, or on `load()` (what `resolveEncoder` calls so that a missing package or missing
 * files fail when the router prepares, not mid-turn). Instances with the same model files share one loaded pipeline.
 */
export class TransformersEmbeddings extends Embeddings implements QueryBatchEmbeddings {
  /** The model as given (hub id or path). */
  readonly model: string;
  /** Where its files are looked for. */
  readonly location: ModelLocation;
  /** Name of the family whose defaults apply, `undefined` when none matched (generic defaults). */
  readonly family: string | undefined;
  readonly pooling: TransformersPooling;
  readonly normalize: boolean;
  readonly queryPrefix: string;
  readonly documentPrefix: string;
  readonly dtype: TransformersDtype;
  readonly allowRemote: boolean;
  readonly batchSize: number;
  /** How errors name this encoder. */
  readonly label: string;
  /**
   * `hf:<hub id or absolute path>|<pooling>|<dtype>` plus `|raw` when not normalized and `|q=<hash>` / `|d=<hash>`
   * for non-empty prefixes (sha256 of the prefix, 8 hex digits).
   */
  readonly modelId: string;
  /** Vector dimension, read from the first output (`undefined` before the first call). */
  dimension: number | undefined;

  private readonly transformersOption: TransformersEmbeddingsOptions["transformers"];
  private extractor: Promise<FeatureExtractorLike> | undefined;

  constructor(options: TransformersEmbeddingsOptions) {
    const { model, family, pooling, normalize, queryPrefix, documentPrefix, dtype, localModelPath, allowRemote, batchSize, label, transformers, ...params } =
      options ?? ({} as TransformersEmbeddingsOptions);
    super(params);
    if (typeof model !== "string" || model.trim() === "") throw new TypeError("TransformersEmbeddings: options.model must be a hub id or a directory path.");
    this.model = model.trim();
    this.label = label ?? `hf:${this.model}`;
    this.location = modelLocation(this.model, localModelPath ?? process.env[MODEL_DIR_ENV]);
    const fam = resolveFamily(this.model, family);
    this.family = fam?.name;
    this.pooling = pooling ?? fam?.pooling ?? GENERIC_FAMILY_DEFAULTS.pooling;
    this.normalize = normalize ?? true;
    this.queryPrefix = queryPrefix ?? fam?.queryPrefix ?? GENERIC_FAMILY_DEFAULTS.queryPrefix;
    this.documentPrefix = documentPrefix ?? fam?.documentPrefix ?? GENERIC_FAMILY_DEFAULTS.documentPrefix;
    this.dtype = dtype ?? "fp32";
    if (!(this.dtype in DTYPE_FILE_SUFFIX))
      throw new TypeError(`TransformersEmbeddings: dtype must be one of ${Object.keys(DTYPE_FILE_SUFFIX).join(", ")}, got "${this.dtype}".`);
    if (!["mean", "cls", "last_token"].includes(this.pooling))
      throw new TypeError(`TransformersEmbeddings: pooling must be "mean", "cls" or "last_token", got "${this.pooling}".`);
    this.allowRemote = allowRemote ?? process.env[ALLOW_REMOTE_ENV] === "1";
    this.batchSize = Math.max(1, Math.floor(batchSize ?? TRANSFORMERS_DEFAULT_BATCH_SIZE));
    this.transformersOption = transformers;
    const where = this.location.kind === "path" ? this.location.dir! : this.model;
    this.modelId = `hf:${where}|${this.pooling}|${this.dtype}${this.normalize ? "" : "|raw"}${prefixIdSuffix(this.queryPrefix, this.documentPrefix)}`;
  }

  /** Loads the model (once; a failure is not memoized, so it can be retried after fixing the cause). */
  load(): Promise<void> {
    return this.getExtractor().then(() => undefined);
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    return this.embedTexts(documents.map((d) => this.documentPrefix + String(d ?? "")));
  }

  async embedQuery(query: string): Promise<number[]> {
    return (await this.embedTexts([this.queryPrefix + String(query ?? "")]))[0]!;
  }

  /** Query-side vectors of many texts in batched forward passes (same vectors as `embedQuery` on each). */
  async embedQueries(queries: string[]): Promise<number[][]> {
    return this.embedTexts(queries.map((q) => this.queryPrefix + String(q ?? "")));
  }

  private async embedTexts(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const extractor = await this.getExtractor();
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      // The tokenizer truncates to the model's window and handles empty strings.
      const batch = texts.slice(i, i + this.batchSize);
      const rows = (await extractor(batch, { pooling: this.pooling, normalize: this.normalize })).tolist();
      if (!Array.isArray(rows) || rows.length !== batch.length)
        throw new Error(`Encoder ${this.label}: the model returned ${Array.isArray(rows) ? rows.length : typeof rows} vectors for ${batch.length} texts.`);
      out.push(...rows);
    }
    this.dimension ??= out[0]?.length;
    return out;
  }

  private getExtractor(): Promise<FeatureExtractorLike> {
    if (!this.extractor) {
      this.extractor = this.loadExtractor();
      this.extractor.catch(() => {
        this.extractor = undefined;
      });
    }
    return this.extractor;
  }

  private async loadExtractor(): Promise<FeatureExtractorLike> {
    const tf = await importTransformers(this.transformersOption, () => this.missingPackageHint());
    const key = `${this.location.root ?? "(default)"}\0${this.location.id}\0${this.dtype}\0${this.allowRemote}`;
    let shared = sharedPipelines.get(key);
    if (!shared) {
      shared = serialized(() => this.createPipeline(tf));
      sharedPipelines.set(key, shared);
      shared.catch(() => sharedPipelines.delete(key));
    }
    return shared;
  }

  private async createPipeline(tf: TransformersModuleLike): Promise<FeatureExtractorLike> {
    const env = tf.env;
    const saved = { localModelPath: env.localModelPath, allowRemoteModels: env.allowRemoteModels, allowLocalModels: env.allowLocalModels };
    try {
      // transformers.js reads these globals while it fetches the files; loads are serialized (see `serialized`) and
      // the values restored afterwards, so an application's own transformers.js settings are left as they were.
      // `local_files_only` alone is not enough: v4 still asks the Hub for tokenizer metadata with it set.
      if (this.location.root) env.localModelPath = this.location.root;
      env.allowLocalModels = true;
      env.allowRemoteModels = this.allowRemote;
      return await tf.pipeline("feature-extraction", this.location.id, { dtype: this.dtype, local_files_only: !this.allowRemote });
    } catch (err) {
      throw new Error(this.filesMissingMessage(err, env.localModelPath), { cause: err });
    } finally {
      env.localModelPath = saved.localModelPath;
      env.allowRemoteModels = saved.allowRemoteModels;
      env.allowLocalModels = saved.allowLocalModels;
    }
  }

  /** The files a model directory needs for this dtype. */
  requiredFiles(): string[] {
    return ["config.json", "tokenizer.json", "tokenizer_config.json", `onnx/model${DTYPE_FILE_SUFFIX[this.dtype]}.onnx`];
  }

  /** What to do to get the model files, for error messages. */
  private howToGetFiles(): string {
    const files = this.requiredFiles().join(", ");
    if (this.location.kind === "path") return `The directory ${this.location.dir} must hold ${files}.`;
    return (
      `Put the files under <dir>/${this.model}/ (${files}) and set ${MODEL_DIR_ENV}=<dir> (or the localModelPath option), ` +
      `or set ${ALLOW_REMOTE_ENV}=1 (or allowRemote: true) to let transformers.js download them from the Hugging Face Hub.`
    );
  }

  private missingPackageHint(): string {
    return (
      `Encoder "${this.label}" needs the optional package ${TRANSFORMERS_PACKAGE}, which is not installed. ` +
      `Install it with: ${TRANSFORMERS_INSTALL_COMMAND} (the variable skips onnxruntime-node's CUDA download; the CPU ` +
      `binaries ship in the package). It also needs the model files of ${this.model}: ${this.howToGetFiles()} ` +
      `Or use the built-in encoders "hybrid" (default, offline), "use-lite" or "lexical".`
    );
  }

  private filesMissingMessage(err: unknown, defaultRoot: string | undefined): string {
    const reason = (err as Error)?.message ?? String(err);
    let where: string;
    if (this.location.kind === "path") {
      where = `looked in ${this.location.dir}${describeMissing(this.location.dir!, this.requiredFiles())}`;
    } else if (this.location.dir) {
      where = `looked in ${this.location.dir} (${MODEL_DIR_ENV} or localModelPath)${describeMissing(this.location.dir, this.requiredFiles())}`;
    } else {
      where = `${MODEL_DIR_ENV} is not set (transformers.js looked in its default local path ${defaultRoot ?? "?"})`;
    }
    const remote = this.allowRemote ? "remote downloads are enabled" : `remote downloads are disabled (${ALLOW_REMOTE_ENV} is not 1)`;
    return `Encoder "${this.label}": could not load ${this.model} (${reason}). ${capitalize(where)}; ${remote}. ${this.howToGetFiles()}`;
  }
}

/** One loaded pipeline per (files, dtype, remote policy), shared by every instance: a model is held in memory once. */
const sharedPipelines = new Map<string, Promise<FeatureExtractorLike>>();

/** Loads run one at a time, because they set transformers.js' process-wide `env` while the files are fetched. */
let loadChain: Promise<unknown> = Promise.resolve();
function serialized<T>(fn: () => Promise<T>): Promise<T> {
  const run = loadChain.then(fn, fn);
  loadChain = run.catch(() => undefined);
  return run;
}

/** The family whose defaults apply (see {@link TransformersEmbeddingsOptions.family}). */
function resolveFamily(model: string, family: TransformersEmbeddingsOptions["family"]): ModelFamily | undefined {
  if (family === null) return undefined;
  if (family === undefined) return modelFamilyOf(model);
  if (typeof family === "string") {
    const f = modelFamilyNamed(family);
    if (!f) throw new TypeError(`TransformersEmbeddings: unknown family "${family}" (known: ${MODEL_FAMILIES.map((x) => x.name).join(", ")}).`);
    return f;
  }
  return family;
}

async function importTransformers(
  given: TransformersEmbeddingsOptions["transformers"],
  hint: () => string,
): Promise<TransformersModuleLike> {
  if (given) return typeof given === "function" ? await given() : given;
  try {
    // Module name in a variable: the package is optional and tsc must not require it.
    const name: string = TRANSFORMERS_PACKAGE;
    return (await import(name)) as TransformersModuleLike;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException)?.code;
    const message = String((err as Error)?.message ?? err);
    // Only the package itself being absent is "not installed"; a missing dependency of it is a broken install.
    const notFound = code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND" || /Cannot find (?:package|module)/.test(message);
    if (notFound && message.includes(`'${TRANSFORMERS_PACKAGE}'`)) throw new Error(`${hint()} (import failed: ${message})`, { cause: err });
    // Installed but broken (e.g. onnxruntime-node's native binary missing): say so rather than "not installed".
    throw new Error(
      `${TRANSFORMERS_PACKAGE} is installed but failed to load (${message}). ` +
        `Reinstall it with: ${TRANSFORMERS_INSTALL_COMMAND}`,
      { cause: err },
    );
  }
}

/** ": missing a, b" for the required files absent from `dir` (or ": the directory does not exist"). */
function describeMissing(dir: string, files: string[]): string {
  if (!existsSync(dir)) return ": the directory does not exist";
  const missing = files.filter((f) => !existsSync(path.join(dir, f)));
  return missing.length ? `: missing ${missing.join(", ")}` : "";
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
