/**
 * Structured events: one per routing decision and one per gate check that rejected something or resolved a name. They go to the
 * `onEvent` callback and, in the LangChain adapter, into run metadata, so dashboards can see what was routed.
 */
import type { RoutingChannel, RoutingDecision } from "../types.js";
import type { RejectionKind } from "../gate/gate.js";
import type { DeliveryMode } from "../delivery/plan.js";
import type { ResolvedHow } from "../catalog/names.js";

export interface RoutingEvent {
  type: "tool_attention.route";
  turnId: string;
  queryHash: string;
  candidates: { id: string; score: number }[];
  gatedOutByState: { id: string; reason: string }[];
  active: { id: string; score: number }[];
  belowTheta: number;
  theta: number;
  k: number;
  phase1Tokens: number;
  phase2Tokens: number;
  fullSchemaTokens: number;
  /** `fullSchemaTokens` is an estimate (see RoutingDecision.fullSchemaTokensEstimated). */
  fullSchemaTokensEstimated?: true;
  latencyMs: RoutingDecision["latencyMs"];
  /** The channels that served this route (`["lexical"]` while the catalog is still being embedded). */
  channels: RoutingChannel[];
  /** Present when the dense encoder failed and this route ran on the lexical channel alone. */
  degraded?: "lexical";
  /** With a shared store: the catalog version the route was scored on (every process on that version agrees). */
  catalogVersion?: number;
}

/**
 * Why a call in a gate event did not run: the gate's rejection kind, or `"promoted"` for a call to a catalog
 * tool that only missed this turn's cut (its preconditions hold). A promoted call did not run either, but its
 * tool is now bound for the next model call, so dashboards should not count it as a routing miss the model
 * could not recover from. `"ambiguous"`: the called name fits several tools (the answer lists them).
 */
export type GateEventKind = RejectionKind | "promoted" | "ambiguous";

export interface GateEvent {
  type: "tool_attention.gate";
  turnId: string;
  allowed: string[];
  /** `tool` is the canonical name; `calledAs` the name the model used when the gate resolved it. */
  rejected: { tool: string; kind: GateEventKind; toolCallId: string; calledAs?: string }[];
  /** Calls whose names the gate resolved to catalog names (run, promoted or refused under `to`). */
  resolved?: { from: string; to: string; how: ResolvedHow; toolCallId: string }[];
  /** Allowed calls of tools that were not delivered on this call: their arguments fit the schema, so they ran. */
  ranUnbound?: string[];
}

/** One model call's delivery, as reported in `tool_attention.delivery` events. */
export interface DeliveryEvent {
  type: "tool_attention.delivery";
  turnId: string;
  /** The provider profile the call was priced with. */
  profile: string;
  /** The capability row the model was matched to (see `MODEL_CAPABILITIES`). */
  model?: string;
  mode: DeliveryMode;
  /**
   * How routed tools reach the model: bound in the tools array; `tool_addition` blocks (deferred, on models that take
   * tool changes mid-conversation); or the `call_tool` dispatcher with schemas as a system message, or as user text
   * where the model rejects mid-conversation system messages.
   */
  via: "bound" | "tool_addition" | "dispatcher" | "dispatcher-user-text";
  /** The tool set changed, so the provider re-bills the cached prefix from the tools on. */
  cacheBroken: boolean;
  bound: number;
  added: string[];
  /** Bound tools this call did not route, kept because rebinding would cost more (stable). */
  keptUnrouted: string[];
  /** Routed tools left unbound this call (stable): reachable by name through promotion. */
  unboundRouted: string[];
  /** Estimated billed-equivalent input tokens of this call, and of the same call with every schema cached. */
  billedEstimate: number;
  allCachedEstimate: number;
  toolSetChanges: number;
  reason: string;
  /** Where the call's delivery time went (see `DeliveryLatency`). */
  latencyMs?: DeliveryLatency;
  /**
   * Set when the call was planned on schema tokens estimated from the schemas' JSON size: the first calls of a
   * progressive start, while the catalog's count runs behind them (seconds on 10,000 tools).
   */
  schemaTokensEstimated?: true;
}

/**
 * Time the middleware spent shaping one model call, in milliseconds: `tokens` counting the conversation for the
 * plan, `render` the system message with the pool, `delivery` the plan and the request's tools and messages
 * (compaction included), `total` all of it.
 */
export interface DeliveryLatency {
  tokens: number;
  render: number;
  delivery: number;
  total: number;
}

/**
 * The end of a catalog's embedding: the dense channels joined (`ready`), or the encoder could not load or failed
 * while embedding and the router routes on the lexical channel (`degraded`, with the error). One per build.
 */
export interface EncoderEvent {
  type: "tool_attention.encoder";
  state: "ready" | "degraded";
  /** The encoder's model id ("" when it never loaded). */
  encoder: string;
  /** Tools of the catalog the build was for. */
  tools: number;
  /** Texts with a vector when the build ended, of `total` (whole texts and multi-vector rows). */
  embedded: number;
  total: number;
  /** Seconds from the start of the build (including the encoder's load) to its end. */
  seconds: number;
  /** Set when `state` is "degraded": why. */
  error?: string;
  /** With a shared store: the catalog version the build was for. */
  catalogVersion?: number;
}

export type ToolAttentionEvent = RoutingEvent | GateEvent | DeliveryEvent | EncoderEvent;

const round = (x: number) => Math.round(x * 10000) / 10000;

export function routingEventOf(d: RoutingDecision): RoutingEvent {
  return {
    type: "tool_attention.route",
    turnId: d.turnId,
    queryHash: d.queryHash,
    candidates: d.candidates.map((c) => ({ id: c.id, score: round(c.score) })),
    gatedOutByState: d.gatedOut.map((g) => ({ id: g.id, reason: g.reason })),
    active: d.active.map((a) => ({ id: a.id, score: round(a.score) })),
    belowTheta: d.belowTheta,
    theta: d.theta,
    k: d.k,
    phase1Tokens: d.phase1Tokens,
    phase2Tokens: d.phase2Tokens,
    fullSchemaTokens: d.fullSchemaTokens,
    ...(d.fullSchemaTokensEstimated ? { fullSchemaTokensEstimated: true as const } : {}),
    latencyMs: d.latencyMs,
    channels: [...d.channels],
    ...(d.degraded ? { degraded: d.degraded } : {}),
    ...(d.catalogVersion !== undefined ? { catalogVersion: d.catalogVersion } : {}),
  };
}
