/**
 * Model ids name a vector space. Caches (`CachedEmbeddings`) and persisted indexes are keyed by them, so two encoder
 * configurations that can return different vectors for the same text must never share an id — and the prefixes a
 * model puts in front of queries or documents are part of that configuration.
 */
import { createHash } from "node:crypto";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";

/** `modelId` (this package's encoders), else `model` / `modelName` (LangChain integrations), else "custom". */
export function modelIdOf(embeddings: EmbeddingsInterface): string {
  const s = embeddings as unknown as Record<string, unknown>;
  for (const field of ["modelId", "model", "modelName"]) {
    const v = s[field];
    if (typeof v === "string" && v.trim() !== "") return v;
  }
  return "custom";
}

/** First 8 hex digits of sha256(text): short enough for a log line, long enough never to collide in practice. */
export function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}

/**
 * The id suffix of a pair of prefixes: `|q=<hash>` and / or `|d=<hash>`, empty when both are empty. Hashed rather
 * than spelled out because instructions are long ("Represent this sentence for searching relevant passages: ").
 */
export function prefixIdSuffix(queryPrefix: string, documentPrefix: string): string {
  return `${queryPrefix ? `|q=${shortHash(queryPrefix)}` : ""}${documentPrefix ? `|d=${shortHash(documentPrefix)}` : ""}`;
}
