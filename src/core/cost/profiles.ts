/**
 * Provider pricing profiles for prompt caching: what a cached, uncached or cache-written input token costs
 * relative to a base input token, and when a prefix is cached at all. Users bill per conversation, and both
 * Anthropic and OpenAI cache the prompt prefix in the order tools → system → messages, so a tool set that
 * changes between calls re-bills the whole history. These profiles let the router, the adapters and the
 * bench price a model call the way the provider does.
 *
 * Figures are from the providers' public documentation (collected 2026-11). They change: pass your own
 * `ProviderProfile` (or overrides) wherever a profile is taken.
 */

import { MODEL_CAPABILITIES } from "../providers/capabilities.js";

/** How a provider decides what is cached. */
export type CacheStyle =
  /** Explicit `cache_control` breakpoints on blocks; hits are looked up a few blocks back from each one. */
  | "breakpoints"
  /** Automatic: the longest previously seen prefix, from a minimum length, in fixed token increments. */
  | "automatic"
  /** No prompt caching: every input token is billed at the base price. */
  | "none";

export interface ProviderProfile {
  /** Provider family: decides the request shape (and which delivery strategies exist). */
  provider: "anthropic" | "openai" | "other";
  /** A label for reports, e.g. "anthropic:claude-sonnet-4". */
  name: string;
  cache: CacheStyle;
  /** Price of an uncached input token relative to the base input price (1). */
  uncached: number;
  /** Price of a token written to the cache (Anthropic 5-minute writes: 1.25; OpenAI: no premium, 1). */
  cacheWrite: number;
  /** Price of a token read from the cache (Anthropic 0.1; OpenAI depends on the model family). */
  cacheRead: number;
  /** Prefixes shorter than this are silently not cached. */
  minCacheable: number;
  /** Automatic caching matches in these increments beyond `minCacheable` (OpenAI: 128). 1 = any length. */
  increment: number;
  /** Explicit breakpoints allowed per request (Anthropic: 4). */
  maxBreakpoints: number;
  /** How many blocks before a breakpoint the provider checks for an earlier hit (Anthropic: about 20). */
  lookbackBlocks: number;
}

const ANTHROPIC_BASE: Omit<ProviderProfile, "name" | "minCacheable"> = {
  provider: "anthropic",
  cache: "breakpoints",
  uncached: 1,
  cacheWrite: 1.25,
  cacheRead: 0.1,
  increment: 1,
  maxBreakpoints: 4,
  lookbackBlocks: 20,
};

const OPENAI_BASE: Omit<ProviderProfile, "name" | "cacheRead"> = {
  provider: "openai",
  cache: "automatic",
  uncached: 1,
  cacheWrite: 1,
  minCacheable: 1024,
  increment: 128,
  maxBreakpoints: 0,
  lookbackBlocks: 0,
};

/**
 * Known model classes, first match wins: built from the capability table (`MODEL_CAPABILITIES`), which cites the
 * documented minimum cacheable lengths and the cache read and write prices of each family.
 */
export const PROVIDER_PROFILES: readonly { pattern: RegExp; profile: ProviderProfile }[] = MODEL_CAPABILITIES.map(({ pattern, caps }) => ({
  pattern,
  profile:
    caps.provider === "anthropic"
      ? { ...ANTHROPIC_BASE, name: `anthropic:${caps.family.replace(/^claude-/, "")}`, minCacheable: caps.minCacheable, cacheWrite: caps.cacheWrite, cacheRead: caps.cacheRead }
      : { ...OPENAI_BASE, name: `openai:${caps.family}`, minCacheable: caps.minCacheable, cacheWrite: caps.cacheWrite, cacheRead: caps.cacheRead },
}));

/** The profile used for a provider when the model name matches nothing more specific. */
export const DEFAULT_PROFILES: Readonly<Record<"anthropic" | "openai" | "other", ProviderProfile>> = {
  anthropic: { ...ANTHROPIC_BASE, name: "anthropic:sonnet", minCacheable: 1024 },
  openai: { ...OPENAI_BASE, name: "openai:gpt-5", cacheRead: 0.1 },
  other: {
    provider: "other",
    name: "other:uncached",
    cache: "none",
    uncached: 1,
    cacheWrite: 1,
    cacheRead: 1,
    minCacheable: Number.POSITIVE_INFINITY,
    increment: 1,
    maxBreakpoints: 0,
    lookbackBlocks: 0,
  },
};

/** A provider name, a full profile, or a provider name with overrides. */
export type ProfileSpec = "anthropic" | "openai" | "other" | ProviderProfile | (Partial<ProviderProfile> & { provider: ProviderProfile["provider"] });

/** Checks a profile's numbers; throws naming the field. */
export function validateProfile(p: ProviderProfile): ProviderProfile {
  for (const field of ["uncached", "cacheWrite", "cacheRead", "minCacheable", "increment", "maxBreakpoints", "lookbackBlocks"] as const) {
    const v = p[field];
    if (typeof v !== "number" || Number.isNaN(v) || v < 0)
      throw new Error(`Invalid provider profile "${p.name}": ${field} must be a number ≥ 0 (got ${String(v)})`);
  }
  if (p.increment < 1) throw new Error(`Invalid provider profile "${p.name}": increment must be ≥ 1 (got ${p.increment})`);
  if (!["breakpoints", "automatic", "none"].includes(p.cache))
    throw new Error(`Invalid provider profile "${p.name}": cache must be "breakpoints", "automatic" or "none" (got ${String(p.cache)})`);
  return p;
}

/** Resolves a profile spec (provider name, overrides or full profile), optionally for a model name. */
export function resolveProfile(spec: ProfileSpec, model?: string): ProviderProfile {
  if (typeof spec === "string") {
    if (!(spec in DEFAULT_PROFILES)) throw new Error(`Unknown provider "${spec}" (expected anthropic, openai or other)`);
    const byModel = model ? PROVIDER_PROFILES.find((p) => p.profile.provider === spec && p.pattern.test(model)) : undefined;
    return byModel?.profile ?? DEFAULT_PROFILES[spec];
  }
  if (!spec || typeof spec !== "object" || !(spec.provider in DEFAULT_PROFILES))
    throw new Error(`Invalid provider profile: provider must be anthropic, openai or other (got ${JSON.stringify((spec as { provider?: unknown })?.provider)})`);
  const base = resolveProfile(spec.provider, model);
  return validateProfile({ ...base, ...spec, name: spec.name ?? `${base.name}*` });
}

/** The profile for a model name alone (e.g. "claude-sonnet-4-5", "gpt-5-mini"), or undefined when unknown. */
export function profileForModel(model: string): ProviderProfile | undefined {
  return PROVIDER_PROFILES.find((p) => p.pattern.test(model))?.profile;
}
