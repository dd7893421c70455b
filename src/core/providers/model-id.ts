/**
 * Which provider, model and API a chat model stands for, however the user made it: a `ChatAnthropic` /
 * `ChatOpenAI` instance, or a string id (`createAgent({ model: "anthropic:claude-sonnet-4-5" })`), which LangChain
 * turns into a `ConfigurableModel` whose provider and model sit in its default config, not in `.model`.
 * `createAgent` sends every `openai:` string id through the Responses API; `ChatOpenAI` does for `useResponsesApi`
 * and for the models it prefers there (gpt-5.6, codex, some -pro).
 */
import { providerOfModel } from "../compaction/providers.js";
import type { ProfileFlags, ProviderApi } from "./capabilities.js";

export interface ModelIdentity {
  provider: "anthropic" | "openai" | "other";
  /** The model id without a provider prefix, when known. */
  model?: string;
  api: ProviderApi;
  /** The chat model's LangChain profile fields that decide delivery, when it declares them. */
  profile?: ProfileFlags;
}

/** The provider a model id names by its prefix or its family ("anthropic:…", "claude-…", "gpt-…", "o3…"). */
export function providerOfModelId(id: string, declared?: string): ModelIdentity["provider"] {
  const p = (declared ?? (/^([a-z_-]+):/i.exec(id)?.[1] ?? "")).toLowerCase();
  if (p === "anthropic") return "anthropic";
  if (p === "openai" || p === "azure_openai") return "openai";
  if (p) return "other";
  if (/^claude/i.test(id)) return "anthropic";
  if (/^(gpt-|o[1-9]\b|o[1-9]-|chatgpt-|codex)/i.test(id)) return "openai";
  return "other";
}

function profileFlags(model: unknown): ProfileFlags | undefined {
  try {
    const profile = (model as { profile?: ProfileFlags } | undefined)?.profile;
    if (!profile || typeof profile !== "object") return undefined;
    const { midConversationSystemMessages, midConversationTools } = profile;
    if (typeof midConversationSystemMessages !== "boolean" && typeof midConversationTools !== "boolean") return undefined;
    return { midConversationSystemMessages, midConversationTools };
  } catch {
    // A ConfigurableModel's profile needs its model instance; before the first call there may be none.
    return undefined;
  }
}

/** Identifies a chat model instance or a `ConfigurableModel` (string model id). */
export function identifyModel(model: unknown): ModelIdentity {
  const m = model as { _defaultConfig?: Record<string, unknown>; model?: unknown; modelName?: unknown; useResponsesApi?: unknown; _useResponsesApi?: (o?: unknown) => boolean } | undefined;
  const config = m?._defaultConfig;
  if (config && typeof config === "object" && typeof config.model === "string") {
    const id = config.model;
    const provider = providerOfModelId(id, typeof config.modelProvider === "string" ? config.modelProvider : undefined);
    const name = id.replace(/^[a-z_-]+:/i, "");
    const api: ProviderApi = provider === "anthropic" ? "anthropic-messages" : provider === "openai" ? (config.useResponsesApi === true || prefersResponses(name) ? "openai-responses" : "openai-chat") : "other";
    return { provider, model: name, api, profile: profileFlags(model) };
  }
  const detected = providerOfModel(model);
  const provider = detected === "anthropic" || detected === "openai" ? detected : "other";
  const name = typeof m?.model === "string" ? m.model : typeof m?.modelName === "string" ? m.modelName : undefined;
  let api: ProviderApi = provider === "anthropic" ? "anthropic-messages" : "other";
  if (provider === "openai") {
    let responses = m?.useResponsesApi === true;
    try {
      responses ||= typeof m?._useResponsesApi === "function" ? m._useResponsesApi.call(m, {}) === true : false;
    } catch {
      // An older client without the method: only the flag says.
    }
    api = responses || (name !== undefined && prefersResponses(name)) ? "openai-responses" : "openai-chat";
  }
  return { provider, model: name, api, profile: profileFlags(model) };
}

/** Models `ChatOpenAI` calls through the Responses API without being asked (as @langchain/openai 1.6 decides). */
function prefersResponses(model: string): boolean {
  return /gpt-5\.6|codex|gpt-5\.[245]-pro/i.test(model);
}
