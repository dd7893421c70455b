/**
 * tool-attention: intent routing, precondition gating, two-phase tool prompts and a hallucination gate for
 * LangChain.js / LangGraph agents.
 */
export type * from "./core/types.js";

// Core (framework-free)
export { ToolCatalog, type CatalogEntry, type CatalogFile, type CatalogOptions, type CatalogServer } from "./core/catalog/catalog.js";
export { splitIdentifier, firstSentence, summarizeTool, routingTextOf, SUMMARY_MAX_TOKENS } from "./core/catalog/text.js";
export {
  ToolAttentionRouter,
  DEFAULT_K,
  DEFAULT_THETA,
  slateSize,
  type RouterOptions,
  type RouteOptions,
} from "./core/router/router.js";
export {
  checkPreconditions,
  validatePreconditions,
  stateViewFrom,
  emptyStateView,
  type PreconditionResult,
} from "./core/preconditions/preconditions.js";
export { LazySchemaLoader, type FullToolSchema, type SchemaFetcher, type SchemaLoaderOptions } from "./core/loader/schema-loader.js";
export { renderPool, renderFullSchema, SchemaTokenCounter, POOL_HEADER, type PoolOptions } from "./core/render/render.js";
export {
  gateToolCalls,
  rejectionFor,
  type GateContext,
  type GateResult,
  type RejectedCall,
  type RejectionKind,
  type ToolCallLike,
} from "./core/gate/gate.js";
export { countTokens, truncateToTokens, DEFAULT_ENCODING, type TokenEncoding } from "./core/tokens/count.js";
export { routingEventOf, type GateEvent, type RoutingEvent, type ToolAttentionEvent } from "./core/events/events.js";
export {
  resolveEncoder,
  UseLiteEmbeddings,
  LexicalEmbeddings,
  CachedEmbeddings,
  lexicalTokens,
  ENCODER_NAMES,
  type EncoderName,
} from "./core/encoders/index.js";
export { createVectorIndex, describeIndexBackend, type VectorIndex, type IndexPreference } from "./core/index/vector-index.js";

// Adapters
export { toolAttentionMiddleware, type ToolAttentionMiddlewareOptions } from "./adapters/langchain/middleware.js";
export { catalogFromLangChainTools, entryFromLangChainTool, type LangChainToolLike } from "./adapters/langchain/tools.js";
export type { ToolAttentionDecisionState } from "./adapters/langchain/turn.js";
export {
  createToolAttentionHooks,
  ToolAttentionAnnotation,
  ToolAttentionStateFields,
  type ToolAttentionHooksOptions,
  type ToolAttentionGraphState,
} from "./adapters/langgraph/hooks.js";

// Evaluation
export { evaluate, type EvalOptions, type EvalReport } from "./eval/evaluate.js";
export { loadTasks, type EvalTask } from "./eval/tasks.js";
export { scoreTask, aggregate, quantile } from "./eval/metrics.js";
export { calibrate, sweep, activeAt, DEFAULT_THETAS, type CalibrateOptions, type CalibrationPoint, type CalibrationResult } from "./eval/calibrate.js";
