/**
 * tool-attention: intent routing, precondition gating, two-phase tool prompts and a hallucination gate for
 * LangChain.js / LangGraph agents.
 */
export type * from "./core/types.js";

// Core (framework-free)
export {
  ToolCatalog,
  describeReasons,
  type CatalogEntry,
  type CatalogFile,
  type CatalogOptions,
  type CatalogServer,
  type QuarantinedTool,
  type ScreeningFlag,
  type ScreeningOptions,
  type CatalogFinding,
  type ScreeningProgress,
  PROGRESSIVE_SCREENING_MIN_TOOLS,
  screeningKey,
} from "./core/catalog/catalog.js";
export { DiskScreeningCache, SCREEN_RULES_VERSION, screeningCacheKey, type ScreeningCache } from "./core/catalog/screening-cache.js";
export {
  screenTool,
  familyOf,
  SCREENING_RULES,
  type ScreenableTool,
  type ScreenContext,
  type ScreeningFamily,
  type ScreeningReason,
  type ScreeningResult,
  type ScreeningRule,
  type ScreeningFinding,
  DEFAULT_SCREENING_THRESHOLD,
  SCREENING_CATEGORIES,
  CATEGORY_DESCRIPTIONS,
  type ScreeningCategory,
  SCREENING_ACTIONS,
  type ScreeningAction,
  type ScreeningPolicy,
  type CategoryPolicy,
  screenTools,
  type ScreenToolsOptions,
  type ScreenToolsEntry,
  type ScreeningReport,
  type ScreeningJudge,
} from "./core/screening/index.js";
export {
  resolveCallName,
  normalizeToolName,
  unqualifiedName,
  type CallNameResolution,
  type ResolvedHow,
} from "./core/catalog/names.js";
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
  type RejectionDetails,
  type RejectionKind,
  type RenamedCall,
  type ToolCallLike,
} from "./core/gate/gate.js";
export { closestTools, callQuery, type ClosestOptions } from "./core/gate/closest.js";
export { countTokens, truncateToTokens, DEFAULT_ENCODING, type TokenEncoding } from "./core/tokens/count.js";
export { routingEventOf, type GateEvent, type GateEventKind, type RoutingEvent, type ToolAttentionEvent } from "./core/events/events.js";
export {
  resolveEncoder,
  UseLiteEmbeddings,
  closeUseLiteWorkers,
  LexicalEmbeddings,
  CachedEmbeddings,
  lexicalTokens,
  ENCODER_NAMES,
  type EncoderName,
  // Stronger encoders (optional @huggingface/transformers) and prefixes over any Embeddings
  TransformersEmbeddings,
  withPrefixes,
  PrefixedEmbeddings,
  parseEncoderSpec,
  MODEL_FAMILIES,
  modelFamilyOf,
  embedQueryBatch,
  type TransformersEmbeddingsOptions,
  type TransformersDtype,
  type TransformersPooling,
  type ModelFamily,
  type PrefixOptions,
  type ParsedEncoderSpec,
  type QueryBatchEmbeddings,
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
export { replayCost, COST_METHODS, type CostBreakdown, type CostMethod, type CostReport, type CostRow, type ReplayCostOptions } from "./eval/cost.js";

// Routing quality: hybrid retrieval, tool texts, tags, rolling intent, sticky tools, multi-turn evaluation
export {
  DEFAULT_ENCODER,
  DEFAULT_LEXICAL_WEIGHT,
  DEFAULT_LEXICAL_THETA,
  defaultThetaFor,
  type EncoderFallbackOptions,
  type LexicalChannelOptions,
  type RouteQuery,
  type TagFilter,
} from "./core/router/router.js";
// Anticipation: the likely next tools of a workflow, from the catalog's co-usage and the thread's transitions
export { CoUsage, coUsageOf, transitionsOf, EDGE_WEIGHTS, type AnticipationInput, type CoUsageEdge, type Successor } from "./core/anticipation/co-usage.js";
// Progressive start: routable before the catalog is embedded; health() and the encoder event say how far it is
export {
  DEFAULT_PROGRESSIVE_MIN_TOOLS,
  DEFAULT_STATIC_WAIT_MS,
  STATIC_CHANNEL_MAX_TOOLS,
  type ProgressiveOptions,
  type RouterHealth,
  type RouterBuildState,
} from "./core/router/router.js";
export type { EncoderEvent } from "./core/events/events.js";
export { Bm25Index, acronymsOf, type Bm25Field, type Bm25Options, type WeightedText } from "./core/encoders/bm25.js";
export { toolTextOf, toolFieldsOf, parameterNamesOf, type ToolTextOptions, type ToolTextContext, type ToolTextSource } from "./core/catalog/text.js";
export { turnIntent, lastObservations, DEFAULT_INTENT, type IntentOptions } from "./adapters/langchain/messages.js";
export { nextSticky, stickyConfig } from "./adapters/langchain/turn.js";
export { simulatedIntent, type SimulateOptions } from "./eval/evaluate.js";

// Multi-intent decomposition
export { splitClauses, type ClauseOptions } from "./core/router/clauses.js";
export { DEFAULT_DECOMPOSE_WHOLE_WEIGHT, type DecomposeOptions } from "./core/router/router.js";
export { simulatedObservation } from "./eval/evaluate.js";

// Compaction (each technique optional and measurable on its own)
export { TERSE_POOL_HEADER, POOL_HEADER_RUNS, TERSE_POOL_HEADER_RUNS, NAMES_POOL_HEADER_RUNS, SERVERS_POOL_HEADER_RUNS } from "./core/render/render.js";
export {
  DEFAULT_POOL_MAX_TOKENS,
  NAMES_POOL_HEADER,
  NAMES_POOL_HEADER_NO_PROMOTE,
  SERVERS_POOL_HEADER,
  SERVERS_POOL_HEADER_NO_PROMOTE,
  renderPoolTiered,
  type PoolTier,
  type RenderedPool,
} from "./core/render/render.js";
export { measureCompaction, type CompactionReport, type TechniqueTokens } from "./core/compaction/measure.js";
export { shortenSchema, shortenTool, SHORT_LIST_TOOL_FIELDS, type ShortListOptions } from "./core/compaction/short-list.js";
export {
  dedupSchema,
  dedupTool,
  dedupAcrossTools,
  dedupBlocker,
  inlineRefs,
  renderSharedDefsCatalog,
  sharedDefsLine,
  type DedupResult,
  type RefDedupOptions,
  type SharedDefsCatalog,
} from "./core/compaction/ref-dedup.js";
export { renderTerse, renderTerseCatalog, terseDefLines, splitDescription, typeText, type TerseLevel, type TerseOptions } from "./core/compaction/terse.js";
export {
  PROVIDER_SCHEMA_SUPPORT,
  providerOfModel,
  refDedupAllowed,
  type ProviderSchemaSupport,
  type SchemaProvider,
} from "./core/compaction/providers.js";
export { compactParameters, compactionEnabled, type Phase2CompactionOptions } from "./core/compaction/phase2.js";
export {
  REQUIRE_OUTPUT_ARG,
  checkRequiredOutput,
  filterToolResult,
  filterJsonText,
  outputFields,
  pickFields,
  requireOutputParameter,
  withRequireOutputParameter,
  type InvalidOutputFields,
} from "./core/compaction/require-output.js";
export { requireOutputMiddleware, withRequireOutput, type RequireOutputMiddlewareOptions } from "./adapters/langchain/require-output.js";
export { compactBoundTools, compactToolDefinition, jsonSchemaOfTool, type ToolDefinitionLike } from "./adapters/langchain/compact-tools.js";

export * from "./mcp/index.js";

export { calibrate, sweep, activeAt, DEFAULT_THETAS, type CalibrateOptions, type CalibrationPoint, type CalibrationResult } from "./eval/calibrate.js";

// Conversation cost: provider caching profiles, the prefix-cache model, request bodies → prompt segments, and delivery.
export {
  PROVIDER_PROFILES,
  DEFAULT_PROFILES,
  resolveProfile,
  profileForModel,
  validateProfile,
  type CacheStyle,
  type ProfileSpec,
  type ProviderProfile,
} from "./core/cost/profiles.js";
export { PrefixCache, SegmentInterner, billedOf, segmentCharges, type CallUsage, type PromptSegment } from "./core/cost/prefix-cache.js";
export { WireContext, anthropicPrompt, openaiPrompt, ProviderRequestError, type AnthropicPrompt } from "./core/cost/wire.js";
export {
  planDelivery,
  resolveDeliveryMode,
  preferAll,
  availableTools,
  type DeliveryAddition,
  type DeliveryMode,
  type DeliveryOption,
  type DeliveryPlan,
  type DeliveryState,
  type PlanInput,
  type StableOptions,
} from "./core/delivery/plan.js";
export {
  profileOfModel,
  capabilitiesOfModel,
  MID_CONVERSATION_TOOLS_BETA,
  SEARCH_TOOL_NAME,
  type DeliveryOptions,
} from "./adapters/langchain/delivery.js";
// What each provider's models accept (mid-conversation tool changes, deferral, cache prices), and model ids.
export {
  MODEL_CAPABILITIES,
  CONSERVATIVE_CAPABILITIES,
  capabilitiesOf,
  type ModelCapabilities,
  type ProfileFlags,
  type ProviderApi,
} from "./core/providers/capabilities.js";
export { identifyModel, providerOfModelId, type ModelIdentity } from "./core/providers/model-id.js";
export { answeringToolErrors, defaultToolErrorContent, toolErrorAnswer, type ToolErrorPolicy, type FailedCall } from "./adapters/langchain/tool-errors.js";
export { argumentFit } from "./core/gate/arguments.js";
export { DELIVERY_OPTIONS } from "./adapters/langchain/options.js";
export type { DeliveryEvent } from "./core/events/events.js";

// Shared routing state for multi-process deployments: PostgreSQL, a LangGraph BaseStore, or local files.
export * from "./core/store/index.js";
