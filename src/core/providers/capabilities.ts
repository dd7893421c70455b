/**
 * What each provider's models accept, as data: the delivery a thread gets depends on it, and a request the API
 * rejects is worse than any bill. Each row cites the documentation page it was read from and the date it was
 * checked; the first row whose pattern matches the model id wins. Users override rows (a model released after this
 * table, a price change) with `capabilities` overrides, and a chat model whose LangChain profile declares
 * `midConversationSystemMessages` / `midConversationTools` takes precedence over the table for those two fields.
 *
 * An unknown model of a known provider gets the conservative row: no mid-conversation system messages or tool
 * changes, which every documented model of that provider accepts.
 */

/** Which HTTP API a model is called through. */
export type ProviderApi = "anthropic-messages" | "openai-chat" | "openai-responses" | "other";

export interface ModelCapabilities {
  provider: "anthropic" | "openai" | "other";
  /** A label for events and reports, e.g. "claude-opus-4-8". */
  family: string;
  /** `role: "system"` messages after the first turn are accepted where they sit. */
  midConversationSystemMessages: boolean;
  /** Tools can be added mid-conversation (Anthropic: `tool_addition` blocks in a mid-conversation system message). */
  midConversationTools: boolean;
  /** The beta header mid-conversation tool changes need, when they need one. */
  midConversationToolsBeta?: string;
  /** Tools may be declared `defer_loading: true` and loaded by a tool search (server-side or client `tool_reference`). */
  deferLoading: boolean;
  /** Prompts shorter than this are not cached (no error). */
  minCacheable: number;
  /** Price of a cache write (5-minute TTL on Anthropic) relative to base input. */
  cacheWrite: number;
  /** Price of a 1-hour cache write (Anthropic), relative to base input. */
  cacheWrite1h?: number;
  /** Price of a cache read relative to base input. */
  cacheRead: number;
  /** Where these facts were read, and when. */
  source: { doc: string; checked: string };
}

const MID_TOOLS_BETA = "mid-conversation-tool-changes-2026-07-01";
const MID_DOC = "https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages";
const CACHE_DOC = "https://platform.claude.com/docs/en/build-with-claude/prompt-caching";
const PRICE_DOC = "https://platform.claude.com/docs/en/about-claude/pricing";
const OPENAI_CACHE_DOC = "https://developers.openai.com/api/docs/guides/prompt-caching";
const CHECKED = "2026-11-25";

const claude = (family: string, mid: "both" | "system" | "none", minCacheable: number, cacheRead = 0.1): ModelCapabilities => ({
  provider: "anthropic",
  family,
  midConversationSystemMessages: mid !== "none",
  midConversationTools: mid === "both",
  ...(mid === "both" ? { midConversationToolsBeta: MID_TOOLS_BETA } : {}),
  deferLoading: true,
  minCacheable,
  cacheWrite: 1.25,
  cacheWrite1h: 2,
  cacheRead,
  source: { doc: `${MID_DOC}; ${CACHE_DOC}; ${PRICE_DOC}`, checked: CHECKED },
});

const gpt = (family: string, cacheRead: number, cacheWrite = 1): ModelCapabilities => ({
  provider: "openai",
  family,
  midConversationSystemMessages: true,
  midConversationTools: false,
  deferLoading: false,
  minCacheable: 1024,
  cacheWrite,
  cacheRead,
  source: { doc: OPENAI_CACHE_DOC, checked: CHECKED },
});

/**
 * Known model families, first match wins (tested against the model id without its provider prefix).
 * Anthropic: mid-conversation system messages and tool changes from Claude Opus 4.8 on (Opus 4.8, Opus 5 and 5.5,
 * Sonnet 5.5, Haiku 5.5, Fable 5 and 5.1, Mythos 5 and 5.1); Sonnet 5 accepts system messages but not tool changes;
 * earlier models answer 400. Minimum cacheable lengths from the prompt-caching page; Fable and Mythos 5.1 read at
 * 0.025× (pricing page). OpenAI: cache writes cost 1.25× from the GPT-5.6 family on, nothing extra before.
 */
export const MODEL_CAPABILITIES: readonly { pattern: RegExp; caps: ModelCapabilities }[] = [
  { pattern: /claude-(fable|mythos)-5-[1-9]/i, caps: claude("claude-fable/mythos-5.1+", "both", 512, 0.025) },
  { pattern: /claude-mythos-preview/i, caps: claude("claude-mythos-preview", "none", 2048) },
  { pattern: /claude-(fable|mythos)-5/i, caps: claude("claude-fable/mythos-5", "both", 512) },
  { pattern: /claude-opus-5/i, caps: claude("claude-opus-5+", "both", 512) },
  { pattern: /claude-(sonnet|haiku)-5-[5-9]/i, caps: claude("claude-sonnet/haiku-5.5+", "both", 1024) },
  { pattern: /claude-sonnet-5/i, caps: claude("claude-sonnet-5", "system", 1024) },
  { pattern: /claude-opus-4-8/i, caps: claude("claude-opus-4-8", "both", 1024) },
  { pattern: /claude-opus-4-7/i, caps: claude("claude-opus-4-7", "none", 2048) },
  { pattern: /claude-(opus-4-[56]|haiku-4-5)/i, caps: claude("claude-opus-4.5/4.6/haiku-4.5", "none", 4096) },
  { pattern: /claude-3(-5)?-haiku|claude-haiku-3/i, caps: claude("claude-haiku-3.x", "none", 2048) },
  { pattern: /claude-(sonnet|opus)-4|claude-(3-7-)?sonnet/i, caps: claude("claude-sonnet-4.x/opus-4.0-4.1", "none", 1024) },
  { pattern: /gpt-(5\.[6-9]|[6-9])/i, caps: gpt("gpt-5.6+", 0.1, 1.25) },
  { pattern: /gpt-4o|chatgpt-4o/i, caps: gpt("gpt-4o", 0.5) },
  { pattern: /^o1\b|^o1-|^o3-mini/i, caps: gpt("o1/o3-mini", 0.5) },
  { pattern: /gpt-4\.1|^o[34]\b|^o[34]-/i, caps: gpt("gpt-4.1/o3/o4", 0.25) },
  { pattern: /gpt-5/i, caps: gpt("gpt-5", 0.1) },
];

/** The row an unknown model of a provider gets: what every documented model of that provider accepts. */
export const CONSERVATIVE_CAPABILITIES: Readonly<Record<"anthropic" | "openai" | "other", ModelCapabilities>> = {
  anthropic: claude("claude (unknown model)", "none", 1024),
  openai: gpt("openai (unknown model)", 0.1),
  other: {
    provider: "other",
    family: "other",
    midConversationSystemMessages: false,
    midConversationTools: false,
    deferLoading: false,
    minCacheable: Number.POSITIVE_INFINITY,
    cacheWrite: 1,
    cacheRead: 1,
    source: { doc: "no provider documentation: no caching, no mid-conversation changes assumed", checked: CHECKED },
  },
};

/** A LangChain chat model's profile fields that decide delivery (`@langchain/core` `ModelProfile`). */
export interface ProfileFlags {
  midConversationSystemMessages?: boolean;
  midConversationTools?: boolean;
}

/** The capability row of a model, and whether it was known (an unknown one gets the conservative row). */
export function capabilitiesOf(
  provider: "anthropic" | "openai" | "other",
  model: string | undefined,
  options: { overrides?: Partial<ModelCapabilities>; profile?: ProfileFlags } = {},
): { caps: ModelCapabilities; known: boolean } {
  const id = (model ?? "").replace(/^[a-z_-]+:/i, "");
  const row = provider === "other" ? undefined : MODEL_CAPABILITIES.find((r) => r.caps.provider === provider && r.pattern.test(id));
  let caps = row?.caps ?? CONSERVATIVE_CAPABILITIES[provider];
  // LangChain's own profile knows what the installed provider package sends: it wins over the table for these two.
  const p = options.profile;
  if (p && (typeof p.midConversationSystemMessages === "boolean" || typeof p.midConversationTools === "boolean")) {
    const tools = p.midConversationTools ?? caps.midConversationTools;
    caps = {
      ...caps,
      midConversationTools: tools,
      // midConversationTools implies system messages (ModelProfile's contract).
      midConversationSystemMessages: tools || (p.midConversationSystemMessages ?? caps.midConversationSystemMessages),
      ...(tools && provider === "anthropic" ? { midConversationToolsBeta: caps.midConversationToolsBeta ?? MID_TOOLS_BETA } : {}),
    };
  }
  if (options.overrides) caps = { ...caps, ...options.overrides };
  return { caps, known: !!row || !!options.overrides };
}
