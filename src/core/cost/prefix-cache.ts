/**
 * A model of a provider's prompt cache: a request is a sequence of prompt segments (tool definitions, system
 * blocks, message blocks, in the provider's prefix order), each with a token count and an identity. The cache
 * remembers which prefixes were written and answers, for a new request, how many tokens are read from the
 * cache, written to it, and processed uncached, under the profile's rules:
 *
 * - "breakpoints" (Anthropic): a prefix is written at each `cache_control` breakpoint whose prefix reaches the
 *   minimum length; a request reads the longest written prefix found at a breakpoint or up to `lookbackBlocks`
 *   blocks before one; tokens after the last breakpoint are uncached.
 * - "automatic" (OpenAI): every request's prefix is written; a request reads the longest written prefix, from
 *   `minCacheable` tokens on, rounded down to `increment`-token steps. Writes are billed at `cacheWrite` (1.25×
 *   from the GPT-5.6 family on, the uncached price before).
 *
 * Segment identity is exact (a changed tool definition is a different segment), so a changed tool set breaks
 * the cache from that point on, as it does at the provider. Matching is at segment granularity.
 */
import type { ProviderProfile } from "./profiles.js";

/** One block of the rendered prompt, in prefix order. */
export interface PromptSegment {
  /** Identity of the block's content: equal ids mean byte-identical blocks (see `SegmentInterner`). */
  id: number;
  /** Billed tokens of the block. */
  tokens: number;
  /** An explicit cache breakpoint after this block (breakpoint-style providers). */
  breakpoint?: boolean;
}

/** What one request is billed, in tokens and in base-input-token equivalents. */
export interface CallUsage {
  /** Input tokens processed without the cache (after the last breakpoint, or past the cached prefix). */
  uncached: number;
  /** Input tokens written to the cache at the write premium (breakpoint-style providers only). */
  cacheWrite: number;
  /** Input tokens read from the cache. */
  cacheRead: number;
  /** All input tokens of the request. */
  total: number;
  /** Billed-equivalent input tokens: uncached·u + cacheWrite·w + cacheRead·r under the profile. */
  billed: number;
}

/** Gives each distinct block content a small integer id (so prefixes hash cheaply). */
export class SegmentInterner {
  private readonly ids = new Map<string, number>();
  private readonly keys: string[] = [];
  idOf(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(key, id);
      this.keys.push(key);
    }
    return id;
  }
  /** The key an id was given for (undefined for an id this interner never gave). */
  keyOf(id: number): string | undefined {
    return this.keys[id - 1];
  }
  get size(): number {
    return this.ids.size;
  }
}

/** Rolling 53-bit hash of a prefix of segment ids (two 32-bit FNV-style lanes). */
function prefixHashes(segments: readonly PromptSegment[]): number[] {
  const out = new Array<number>(segments.length);
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < segments.length; i++) {
    const id = segments[i].id;
    a = Math.imul(a ^ id, 0x01000193) >>> 0;
    b = Math.imul(b ^ (id * 2654435761), 0x85ebca6b) >>> 0;
    a = Math.imul(a ^ (a >>> 15), 0x2c1b3c6d) >>> 0;
    out[i] = a * 0x200000 + (b & 0x1fffff);
  }
  return out;
}

/** Billed-equivalent tokens of a usage under a profile. */
export function billedOf(u: Omit<CallUsage, "billed" | "total">, p: ProviderProfile): number {
  return u.uncached * p.uncached + u.cacheWrite * p.cacheWrite + u.cacheRead * p.cacheRead;
}

/**
 * What each segment of a request was billed, in base-input-token equivalents: the prefix the cache served is
 * priced at the read rate, the part written next at the write rate, the rest uncached (both cache styles lay a
 * request out in that order). A segment straddling two parts is split by its tokens. The charges sum to
 * `usage.billed`; a breakdown of a bill by what the request carried (tools, pool, history) sums them per kind.
 */
export function segmentCharges(segments: readonly PromptSegment[], usage: CallUsage, p: ProviderProfile): number[] {
  const readEnd = usage.cacheRead;
  const writeEnd = readEnd + usage.cacheWrite;
  const out = new Array<number>(segments.length);
  let at = 0;
  for (let i = 0; i < segments.length; i++) {
    const from = at;
    const to = at + segments[i].tokens;
    const read = Math.max(0, Math.min(to, readEnd) - from);
    const write = Math.max(0, Math.min(to, writeEnd) - Math.max(from, readEnd));
    out[i] = read * p.cacheRead + write * p.cacheWrite + (to - from - read - write) * p.uncached;
    at = to;
  }
  return out;
}

/**
 * One provider-side cache (one organization's, within the cache lifetime). `account` prices a request and
 * records what it wrote.
 */
export class PrefixCache {
  private readonly entries = new Set<number>();

  constructor(readonly profile: ProviderProfile) {}

  /** Forgets everything written (a cold cache). */
  clear(): void {
    this.entries.clear();
  }

  /** Prices a request and records the prefixes it writes. */
  account(segments: readonly PromptSegment[]): CallUsage {
    const p = this.profile;
    const n = segments.length;
    const cum = new Array<number>(n);
    let total = 0;
    for (let i = 0; i < n; i++) {
      total += segments[i].tokens;
      cum[i] = total;
    }
    if (p.cache === "none" || n === 0) return { uncached: total, cacheWrite: 0, cacheRead: 0, total, billed: total * p.uncached };
    const hashes = prefixHashes(segments);
    let usage: Omit<CallUsage, "billed">;
    if (p.cache === "breakpoints") {
      let read = 0;
      let lastCached = -1;
      for (let b = 0; b < n; b++) {
        if (!segments[b].breakpoint) continue;
        for (let q = b; q >= 0 && q >= b - p.lookbackBlocks; q--) {
          if (this.entries.has(hashes[q])) {
            if (cum[q] > read) read = cum[q];
            break;
          }
        }
        if (cum[b] >= p.minCacheable) lastCached = b;
      }
      for (let b = 0; b <= lastCached; b++) if (segments[b].breakpoint && cum[b] >= p.minCacheable) this.entries.add(hashes[b]);
      const cachedEnd = lastCached >= 0 ? cum[lastCached] : 0;
      const cacheWrite = Math.max(0, cachedEnd - read);
      usage = { uncached: total - Math.max(read, cachedEnd), cacheWrite, cacheRead: read, total };
    } else {
      let read = 0;
      for (let i = n - 1; i >= 0; i--)
        if (cum[i] >= p.minCacheable && this.entries.has(hashes[i])) {
          read = cum[i];
          break;
        }
      const cached = read >= p.minCacheable ? p.minCacheable + Math.floor((read - p.minCacheable) / p.increment) * p.increment : 0;
      for (let i = 0; i < n; i++) if (cum[i] >= p.minCacheable) this.entries.add(hashes[i]);
      // The rest of a cacheable prompt is written. Where writes cost the same as uncached input (OpenAI before the
      // GPT-5.6 family) it is reported as uncached, as those APIs do; from GPT-5.6 on writes are billed at 1.25×.
      const written = p.cacheWrite !== p.uncached && total >= p.minCacheable ? total - cached : 0;
      usage = { uncached: total - cached - written, cacheWrite: written, cacheRead: cached, total };
    }
    return { ...usage, billed: billedOf(usage, p) };
  }
}
