/**
 * LangChain's `llmToolSelectorMiddleware` as a method to compare against: the prompt and response schema of its
 * extra selection call. The conversation-cost replay (`tool-attention cost`) prices that call per model call, and
 * the benchmark counts its tokens per turn, so both read them from here.
 */
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { z } from "zod/v3";
import type { JsonSchema } from "../core/types.js";

/** The selection prompt text of LangChain's `llmToolSelectorMiddleware` (langchain 1.5.x defaults). */
export const LLM_SELECTOR_SYSTEM_PROMPT = "Your goal is to select the most relevant tools for answering the user's query.";

/**
 * The structured-output schema `llmToolSelectorMiddleware` asks the selection model to fill, built the way it
 * builds it (zod v3: an array of a union of one literal per tool name, with the same description) and
 * converted to JSON Schema with LangChain's converter. In langchain 1.5.x the literals carry names only.
 */
export function llmSelectorSchema(names: readonly string[]): JsonSchema {
  if (names.length === 0) throw new Error("llmSelectorSchema: the selector needs at least one tool");
  const literals = names.map((n) => z.literal(n));
  const choice = literals.length === 1 ? literals[0] : z.union(literals as unknown as [z.ZodLiteral<string>, z.ZodLiteral<string>, ...z.ZodLiteral<string>[]]);
  const schema = z.object({ tools: z.array(choice).describe("Tools to use. Place the most relevant tools first.") });
  return toJsonSchema(schema) as JsonSchema;
}
