/**
 * What the Anthropic and OpenAI emulators share: the scripted replies, the record kept of each request, the
 * HTTP plumbing (a `node:http` server on 127.0.0.1, JSON bodies, server-sent events) and deterministic ids.
 * The emulators are real HTTP servers so that the real LangChain clients, with their own request building and
 * response parsing, are what gets exercised; only the model's words are scripted.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PrefixCache, type CallUsage } from "../core/cost/prefix-cache.js";
import { resolveProfile, type ProfileSpec } from "../core/cost/profiles.js";
import type { TokenEncoding } from "../core/tokens/count.js";

/** One tool call the emulated model makes. */
export interface EmulatorToolCall {
  name: string;
  input: Record<string, unknown>;
}

/** What the emulated model answers: text, tool calls, or both (text first, as the providers order them). */
export interface EmulatorReply {
  text?: string;
  toolCalls?: EmulatorToolCall[];
}

/**
 * The replies, in order: a list consumed one per answered request, or a function of the request body and the
 * reply's index (0-based, counting only requests that passed validation).
 */
export type EmulatorScript = readonly EmulatorReply[] | ((body: Record<string, unknown>, index: number) => EmulatorReply);

export interface EmulatorOptions {
  /** The replies; without one every request is answered with the text "ok". */
  script?: EmulatorScript;
  /**
   * Caching profile for every model, instead of the one resolved from the request's `model`. Takes a full
   * `ProviderProfile`, a provider name or overrides (see `resolveProfile`).
   */
  profile?: ProfileSpec;
  /** Tokenizer for prompt and output token counts (default: the wire module's, cl100k_base). */
  encoding?: TokenEncoding;
}

/** What the emulator saw and billed for one request to its API endpoint. */
export interface RecordedRequest {
  /** The parsed JSON body as the client sent it (`{}` when it was not valid JSON). */
  body: Record<string, unknown>;
  /** Request headers, lower-cased; API keys are redacted. */
  headers: Record<string, string>;
  /** Cache accounting of the prompt (all zero for a rejected request). */
  usage: CallUsage;
  /** `usage.billed`: input cost in base-input-token equivalents under the profile. */
  billed: number;
  /** Number of prompt segments (tool definitions, system blocks, message blocks). */
  segments: number;
  /** Tools declared with `defer_loading: true` (Anthropic). */
  deferred: string[];
  /** Tools rendered in the prompt prefix. */
  loaded: string[];
  /** Tools made available mid-conversation (Anthropic `tool_addition` / `tool_reference`). */
  added: string[];
  /** Name of the caching profile the request was priced with. */
  profile?: string;
  /** Whether the answer was streamed. */
  stream: boolean;
  /** The reply sent (absent when the request was rejected). */
  reply?: EmulatorReply;
  /** Output tokens billed for the reply. */
  outputTokens: number;
  /** Set when the request was answered with an error status. */
  error?: { status: number; type: string; message: string };
}

/** A running emulator. */
export interface Emulator {
  /** Base URL to give the client. */
  readonly url: string;
  /** Every request to the API endpoint, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Forgets the prompt cache, the records, the id counters and the script position (a fresh emulator). */
  reset(): void;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

export const ZERO_USAGE: CallUsage = Object.freeze({ uncached: 0, cacheWrite: 0, cacheRead: 0, total: 0, billed: 0 });

/** The record of a request before it is checked or priced (what every endpoint starts from). */
export function newRecord(body: Record<string, unknown> | undefined, headers: IncomingHttpHeaders): RecordedRequest {
  return {
    body: body ?? {},
    headers: recordHeaders(headers),
    usage: ZERO_USAGE,
    billed: 0,
    segments: 0,
    deferred: [],
    loaded: [],
    added: [],
    stream: body?.stream === true,
    outputTokens: 0,
  };
}

/** The default answer: a short text, so an unscripted emulator still completes every call. */
export const DEFAULT_REPLY: EmulatorReply = Object.freeze({ text: "ok" });

/** Hands out scripted replies; `undefined` once a list script is used up. */
export class ScriptCursor {
  private index = 0;
  constructor(private readonly script: EmulatorScript | undefined) {}
  next(body: Record<string, unknown>): EmulatorReply | undefined {
    const i = this.index++;
    if (this.script === undefined) return DEFAULT_REPLY;
    if (typeof this.script === "function") return this.script(body, i);
    return this.script[i];
  }
  /** Why `next` gave nothing, for the error the client receives. */
  get exhausted(): string {
    return typeof this.script === "function" ? "the script function returned no reply" : `all ${this.script?.length ?? 0} scripted replies are used up`;
  }
  rewind(): void {
    this.index = 0;
  }
}

/** Deterministic ids (`msg_emu_0001`, ...): reproducible transcripts make runs comparable byte for byte. */
export class IdCounter {
  private n = 0;
  constructor(private readonly prefix: string) {}
  next(): string {
    this.n++;
    return `${this.prefix}${String(this.n).padStart(4, "0")}`;
  }
  reset(): void {
    this.n = 0;
  }
}

const SECRET_HEADERS = new Set(["x-api-key", "authorization", "api-key"]);

/** Lower-cased single-valued headers; keys are redacted so records can be printed or stored safely. */
export function recordHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = SECRET_HEADERS.has(name) ? "[redacted]" : Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** Reads the request body; `body` is undefined when it is not a JSON object. */
export async function readJson(req: IncomingMessage): Promise<{ body?: Record<string, unknown>; problem?: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    return { problem: `The request body is not valid JSON: ${(e as Error).message}` };
  }
  if (!isObject(parsed)) return { problem: "The request body must be a JSON object" };
  return { body: parsed };
}

export function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Starts a server-sent event stream; `send` writes one event (named when `event` is given). */
export function openEventStream(res: ServerResponse, headers: Record<string, string> = {}) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive", ...headers });
  return {
    send(data: unknown, event?: string): void {
      res.write(`${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
    },
    end(): void {
      res.end();
    },
  };
}

/**
 * Splits a string into up to `parts` pieces of about equal length (on code points), so streamed deltas really
 * arrive in several chunks and the client has to reassemble them.
 */
export function pieces(text: string, parts = 3): string[] {
  const chars = Array.from(text);
  if (chars.length === 0) return [];
  const size = Math.ceil(chars.length / parts);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

/** Listens on 127.0.0.1 (an ephemeral port) and resolves the bound server and its origin. */
export async function listen(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    handler(req, res).catch((e: unknown) => {
      // A bug in the emulator, not a scripted failure: answer 500 so the client fails instead of hanging.
      if (!res.headersSent) sendJson(res, 500, { error: { message: String((e as Error)?.stack ?? e) } });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}` };
}

/**
 * A close function for the server (idempotent, so `after` hooks and `finally` blocks may both call it); open
 * connections are dropped, since keep-alive connections from the clients' HTTP agents would hold it open.
 */
export function closer(server: Server): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= new Promise((resolve, reject) => {
      server.close((e) => (e ? reject(e) : resolve()));
      server.closeAllConnections();
    }));
}

/** The request path without its query string (the Anthropic SDK's beta endpoint appends `?beta=true`). */
export function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? "/", "http://emulator").pathname;
}

/**
 * The provider-side prompt caches of one emulator: one per model (a provider's cache is not shared between models,
 * and minimum cacheable lengths differ by model), priced with the override profile or the model's own.
 */
export class ModelCaches {
  private readonly caches = new Map<string, PrefixCache>();
  constructor(
    private readonly provider: "anthropic" | "openai",
    private readonly profile?: ProfileSpec,
  ) {}

  for(model: string): PrefixCache {
    let cache = this.caches.get(model);
    if (!cache) {
      cache = new PrefixCache(resolveProfile(this.profile ?? this.provider, model));
      this.caches.set(model, cache);
    }
    return cache;
  }

  clear(): void {
    this.caches.clear();
  }
}
