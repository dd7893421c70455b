/**
 * The router's options as tables TypeScript checks against their types (`satisfies OptionKeys<…>` fails the build
 * when an option is added to a type and not here), so construction can refuse a key it does not know.
 */
import { checkEnum, checkNested, checkOptionKeys, type OptionKeys } from "../util/options.js";
import type { PoolOptions } from "../render/render.js";
import type { ProgressiveOptions, RouterOptions } from "./options.js";

export const ROUTER_OPTION_KEYS = {
  encoder: true,
  lexical: true,
  toolText: true,
  theta: true,
  margin: true,
  tagBoost: true,
  anticipationBoost: true,
  k: true,
  minActive: true,
  multiVector: true,
  servers: true,
  slate: true,
  alwaysInclude: true,
  decompose: true,
  index: true,
  ann: true,
  encoding: true,
  schemas: true,
  pool: true,
  cacheDir: true,
  onEvent: true,
  log: true,
  encoderFallback: true,
  store: true,
  progressive: true,
} as const satisfies OptionKeys<RouterOptions>;

export const PROGRESSIVE_OPTION_KEYS = { minTools: true, staticChannel: true, staticWaitMs: true, rerankTop: true, rerankWaitMs: true } as const satisfies OptionKeys<ProgressiveOptions>;

export const POOL_OPTION_KEYS = {
  groupByServer: true,
  header: true,
  format: true,
  maxTokens: true,
  encoding: true,
  callByName: true,
  runValidCalls: true,
} as const satisfies OptionKeys<PoolOptions>;

export const INDEX_PREFERENCES = ["auto", "faiss", "flat", "hnsw"] as const;
export const TOKEN_ENCODINGS = ["cl100k_base", "o200k_base"] as const;

/**
 * Checks the router's options with `known` as the accepted keys (the adapters pass theirs: router options plus
 * their own) and the enums the router reads. Numbers and ranges are checked where they are read.
 */
export function checkRouterOptions(where: string, options: object, known: Readonly<Record<string, true>> = ROUTER_OPTION_KEYS): void {
  checkOptionKeys(where, options, known);
  const o = options as RouterOptions;
  checkEnum(where, "index", o.index, INDEX_PREFERENCES);
  checkEnum(where, "encoding", o.encoding, TOKEN_ENCODINGS);
  checkNested(where, "pool", o.pool, POOL_OPTION_KEYS);
  checkEnum(where, "pool.format", o.pool?.format, ["line", "terse"]);
  checkNested(where, "progressive", o.progressive, PROGRESSIVE_OPTION_KEYS, true);
}
