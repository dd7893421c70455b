/**
 * Compaction of what the model is sent in Phase 2 (the parameter schemas of the active tools), as one
 * option object the adapters pass through. Each part is optional and off unless asked for.
 */
import type { JsonSchema } from "../types.js";
import type { TokenEncoding } from "../tokens/count.js";
import { isPlainObject } from "./schema-walk.js";
import { shortenSchema, type ShortListOptions } from "./short-list.js";
import { dedupSchema, inlineRefs } from "./ref-dedup.js";
import { refDedupAllowed, type SchemaProvider } from "./providers.js";

export interface Phase2CompactionOptions {
  /** Drop optional content from parameter schemas (see short-list.ts); `true` or options. Default off. */
  shortList?: boolean | ShortListOptions;
  /**
   * Hoist repeated subschemas into `$defs`. Default: on only when `provider` resolves `$ref`
   * (PROVIDER_SCHEMA_SUPPORT); `true`/`false` overrides the table.
   */
  refDedup?: boolean;
  /**
   * Inline existing `$ref`s for providers that do not resolve them (a Notion-style `$defs` block would
   * otherwise reach e.g. Gemini as dangling pointers). Default: on when the provider does not resolve refs.
   */
  inlineRefs?: boolean;
  /** Provider the schemas are sent to; decides the ref defaults. Default "unknown" (no ref rewriting assumed). */
  provider?: SchemaProvider;
  /** Encoding used to decide whether a hoist pays off. */
  encoding?: TokenEncoding;
}

/**
 * The adapters' default: the short list with closed objects kept, which removes only what cannot change which calls
 * are valid (documentation keywords, restated JSON Schema defaults, obvious `default`s): the same names, types,
 * required fields, enums, formats and constraints. `phase2: false` sends schemas exactly as the tools declare them.
 */
export const LOSSLESS_PHASE2: Readonly<Phase2CompactionOptions> = Object.freeze({ shortList: Object.freeze({ keepClosedObjects: true }) });

/** Whether the options change anything at all (adapters skip the rewrite otherwise). */
export function compactionEnabled(options: Phase2CompactionOptions | undefined): boolean {
  if (!options) return false;
  const dedup = refDedupAllowed(options.provider, options.refDedup);
  return Boolean(options.shortList) || dedup || (options.inlineRefs ?? (options.provider !== undefined && !dedup));
}

function hasRefs(schema: JsonSchema): boolean {
  return JSON.stringify(schema).includes('"$ref"');
}

/** The Phase-2 parameter schema of one tool under these options (a new object; the input is not modified). */
export function compactParameters(schema: JsonSchema, options: Phase2CompactionOptions = {}): JsonSchema {
  let out = schema;
  const dedup = refDedupAllowed(options.provider, options.refDedup);
  const inline = options.inlineRefs ?? (options.provider !== undefined && !dedup && hasRefs(schema));
  if (inline && hasRefs(out)) out = inlineRefs(out);
  if (options.shortList) out = shortenSchema(out, isPlainObject(options.shortList) ? options.shortList : {});
  if (dedup) out = dedupSchema(out, { encoding: options.encoding }).schema;
  return out;
}
