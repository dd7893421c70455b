/**
 * Which chat-model providers resolve local `$ref`s in tool parameter schemas. $ref dedup is only on by default
 * where the provider does; elsewhere a hoisted schema would reach the model as an unresolved pointer.
 *
 * Sources (as of late 2025):
 * - OpenAI function calling / Structured Outputs: local definitions (`$defs`/`definitions`) and `$ref`,
 *   including recursive schemas, are supported.
 * - Anthropic tool use: `input_schema` is JSON Schema; the structured-outputs documentation lists local `$ref`,
 *   `$defs` and `definitions` as supported (recursive schemas are not, in strict mode).
 * - Google Gemini: the `parameters` field takes an OpenAPI 3.0 Schema subset without `$ref`; only the newer
 *   `parametersJsonSchema` field takes JSON Schema with refs. LangChain's Google integrations fill `parameters`.
 * - Ollama: the tool JSON is written into the model's chat template as text; nothing resolves refs, a model
 *   has to follow them by itself.
 */
export type SchemaProvider = "openai" | "anthropic" | "google" | "google-json-schema" | "ollama" | "unknown";

export interface ProviderSchemaSupport {
  /** Local `#/$defs/…` refs in tool parameters are resolved by the provider. */
  resolvesRef: boolean;
  /** Why, in one line (shown in audit output and docs). */
  note: string;
}

export const PROVIDER_SCHEMA_SUPPORT: Readonly<Record<SchemaProvider, ProviderSchemaSupport>> = Object.freeze({
  openai: { resolvesRef: true, note: "function parameters accept local $defs/definitions and $ref (recursive too)" },
  anthropic: { resolvesRef: true, note: "input_schema accepts local $ref, $defs and definitions" },
  google: { resolvesRef: false, note: "`parameters` is an OpenAPI 3.0 subset without $ref" },
  "google-json-schema": { resolvesRef: true, note: "`parametersJsonSchema` accepts JSON Schema with $ref" },
  ollama: { resolvesRef: false, note: "the schema is pasted into the chat template as text; no ref resolution" },
  unknown: { resolvesRef: false, note: "provider not known; refs are not assumed to resolve" },
});

/** The provider of a LangChain chat model, from its `_llmType()` (or a class name) — "unknown" when unsure. */
export function providerOfModel(model: unknown): SchemaProvider {
  let id = "";
  const m = model as { _llmType?: () => string; getName?: () => string } | null;
  try {
    id = `${m?._llmType?.() ?? ""} ${m?.getName?.() ?? ""}`.toLowerCase();
  } catch {
    id = "";
  }
  if (/azure|openai/.test(id)) return "openai";
  if (/anthropic|claude/.test(id)) return "anthropic";
  if (/google|gemini|vertex/.test(id)) return "google";
  if (/ollama/.test(id)) return "ollama";
  return "unknown";
}

/** Whether $ref dedup may be applied for this provider; an explicit `true`/`false` from the user wins. */
export function refDedupAllowed(provider: SchemaProvider | undefined, override?: boolean): boolean {
  if (override !== undefined) return override;
  return PROVIDER_SCHEMA_SUPPORT[provider ?? "unknown"]?.resolvesRef ?? false;
}
