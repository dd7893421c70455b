/**
 * Shared types of the framework-free core. Nothing here imports LangChain or LangGraph: adapters translate
 * their state and tools into these shapes, so the same router, gate and renderer serve every front end.
 */

/** A JSON Schema object as a server declared it (kept verbatim: anyOf/oneOf/allOf and $defs intact). */
export type JsonSchema = { [key: string]: unknown };

/**
 * Declarative preconditions. Every listed condition must hold for the tool to be usable this turn.
 * They are evaluated on agent state only (never on the user's wording), so paraphrase cannot bypass them.
 */
export interface DeclarativePreconditions {
  /** Every scope listed must be in `state.scopes` (e.g. auth scopes the user granted). */
  requiresScopes?: string[];
  /**
   * A prior tool whose output must exist in the history. A plain name matches that tool; a name ending in
   * `*` is a prefix (`"search_*"`). An array means any one of them is enough.
   */
  afterTool?: string | string[];
  /** Workflow milestone(s) that must be in `state.milestones`. An array means all of them. */
  milestone?: string | string[];
}

/** A custom precondition: `true` allows the tool, a string (or `{ allow: false, reason }`) gates it out. */
export type PreconditionPredicate = (
  state: AgentStateView,
  tool: ToolRecord,
) => boolean | string | { allow: boolean; reason?: string };

export type Precondition = DeclarativePreconditions | PreconditionPredicate;

/** What preconditions can see of the agent's state. Adapters build it from their own state. */
export interface AgentStateView {
  /** Auth scopes currently held. */
  scopes: ReadonlySet<string>;
  /** Workflow milestones reached. */
  milestones: ReadonlySet<string>;
  /** Names of tools whose (non-error) output is in the history. */
  toolOutputs: ReadonlySet<string>;
  /** Anything else the application keeps in state, for custom predicates. */
  raw?: unknown;
}

/** The plain object form of a tool, as MCP `tools/list` returns it plus this project's optional fields. */
export interface ToolSpec {
  name: string;
  description?: string;
  inputSchema?: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: { [key: string]: unknown };
  title?: string;
  tags?: string[];
  preconditions?: DeclarativePreconditions;
}

/** One tool in a catalog. */
export interface ToolRecord {
  /** Unique within the catalog: the name, or `server__name` when the name occurs on several servers. */
  id: string;
  /** The name the model calls. */
  name: string;
  /** Server (or group) it came from; `""` when unknown. */
  server: string;
  description: string;
  /** Full input schema (Phase 2). May be absent when the schema is loaded lazily. */
  inputSchema?: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: { [key: string]: unknown };
  tags: string[];
  preconditions: Precondition[];
  /** Compact one-line description for the Phase-1 pool, at most 60 tokens, deterministic. */
  summary: string;
  /** The text that is embedded for routing. */
  routingText: string;
}

/** One scored candidate. */
export interface ScoredTool {
  id: string;
  name: string;
  server: string;
  score: number;
}

export interface GatedTool extends ScoredTool {
  reason: string;
}

/** The outcome of one routing decision. */
/** A scoring channel of the router (see src/core/router/channels/). */
export type RoutingChannel = "dense" | "static" | "multiVector" | "server" | "lexical";

export interface RoutingDecision {
  turnId: string;
  /** A short hash of the routed query (the query itself is not logged). */
  queryHash: string;
  query: string;
  theta: number;
  k: number;
  /** Active tools, best first, with their scores. */
  active: ScoredTool[];
  /** Candidates from the slate that cleared θ but were removed by preconditions, with the reason. */
  gatedOut: GatedTool[];
  /** Slate candidates scoring below θ (counted, not listed). */
  belowTheta: number;
  /** The wide slate that was scored before gating. */
  candidates: ScoredTool[];
  /** Tokens of the Phase-1 summary pool. */
  phase1Tokens: number;
  /** Tokens of the full schemas of the active tools. */
  phase2Tokens: number;
  /** Tokens of the full schemas of the whole catalog (what would be sent without routing). */
  fullSchemaTokens: number;
  /**
   * Set on a route of a progressive start's lexical phase that came before the catalog's full-schema count finished:
   * `fullSchemaTokens` is then an estimate from the schemas' JSON size (within about 20 %), not a count.
   */
  fullSchemaTokensEstimated?: true;
  /**
   * Where the route's time went, in milliseconds (performance.now() pairs): `encode` the query embedding, `search`
   * the channels' scoring, `fusion` combining them into one score per tool, `gate` θ, preconditions and top-k,
   * `tokens` the token accounting of the decision; `total` the whole route. `fusion` and `tokens` are always set by
   * the router (optional only for decisions built elsewhere).
   */
  latencyMs: { encode: number; search: number; fusion?: number; gate: number; tokens?: number; total: number };
  /**
   * The scoring channels that served this route: `["lexical"]` or `["static", "lexical"]` while a progressive start
   * (or a large catalog change) is still embedding (see `ProgressiveOptions.staticChannel`), `["lexical"]` when the
   * encoder failed; `["dense", "multiVector", "server", "lexical"]` (those
   * the router has) once the hybrid is built.
   */
  channels: RoutingChannel[];
  /**
   * Set when the dense encoder failed (on this route's query, or while loading or embedding the catalog) and the
   * tools were scored on the lexical (BM25) channel alone (θ is then the lexical θ). Absent on a normal route, and
   * on a route served lexically only because the catalog is still being embedded (see `channels`).
   */
  degraded?: "lexical";
  /** With a shared store (`RouterOptions.store`): the catalog version this route was scored on. */
  catalogVersion?: number;
}

/** The structured error content a rejected tool call receives. */
export interface ToolNotAvailable {
  error: "tool_not_available";
  tool: string;
  available: string[];
  reason?: string;
  /** The tool exists and its preconditions hold: it is bound from the next model call on; call it again. */
  promoted?: boolean;
  /** Tool screening quarantined the tool (its definition looked poisoned); `reason` says which rule fired where. */
  quarantined?: boolean;
  /** The tool's definition changed since it was approved: it cannot be called until the user approves it again. */
  held?: boolean;
  /** The name the model called, when the gate resolved it to `tool` (e.g. `create_entities` → `memory__create_entities`). */
  calledAs?: string;
  /** The called name fits several tools: the model must call one of these by its exact name. */
  candidates?: string[];
  /** Up to 3 catalog tools closest to the call (their preconditions hold), best first. */
  closest?: string[];
  /** Why the call's arguments do not fit the tool's schema (a call to a tool that was not delivered). */
  argumentErrors?: string;
}
