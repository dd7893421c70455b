/**
 * The shapes the synthetic servers are written in: a tool definition with its core parameters, the
 * optional parameters it may grow with during calibration, and the user phrasings that ask for it.
 */
import type { DeclarativePreconditions, JsonSchema } from "../../core/types.js";

/** What a tool does to the world; drives which optional parameters fit it and which tools get preconditions. */
export type ToolKind = "list" | "read" | "write" | "admin";

export interface ToolDef {
  name: string;
  description: string;
  kind: ToolKind;
  /** Extra tags besides the kind and the server's domain. */
  tags?: string[];
  /** Core input properties, in order. */
  params: Record<string, JsonSchema>;
  required?: string[];
  /** Tool-specific optional properties, added first (in order) when the tool grows to its token target. */
  extras?: Record<string, JsonSchema>;
  preconditions?: DeclarativePreconditions;
  /**
   * How users ask for this tool: lower-case imperative phrases with `{slot}` placeholders (see entities.ts),
   * deliberately worded differently from the description.
   */
  asks: string[];
}

/** An optional parameter shared by the tools of one server, offered to tools of the listed kinds. */
export interface PoolParam {
  key: string;
  schema: JsonSchema;
  kinds: ToolKind[];
}

export interface ServerDef {
  name: string;
  description: string;
  /** Domain tag put on every tool (code, files, database, chat, web, tracker). */
  domain: string;
  /** Table 2 budget: mean cl100k tokens per tool. */
  tokensPerTool: number;
  tools: ToolDef[];
  pool: PoolParam[];
  /** How users name this system in a request ("on GitHub", "in the database"); added to some phrasings. */
  mentions: string[];
}

// Small constructors keep the server files readable; each returns a plain JSON Schema.
export const str = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: "string", description, ...extra });
export const int = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: "integer", description, ...extra });
export const num = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: "number", description, ...extra });
export const bool = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: "boolean", description, ...extra });
export const enm = (description: string, values: string[], extra: JsonSchema = {}): JsonSchema => ({
  type: "string",
  description,
  enum: values,
  ...extra,
});
export const arr = (description: string, items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({
  type: "array",
  description,
  items,
  ...extra,
});
export const obj = (description: string, properties: Record<string, JsonSchema>, required?: string[], extra: JsonSchema = {}): JsonSchema => ({
  type: "object",
  description,
  properties,
  ...(required?.length ? { required } : {}),
  ...extra,
});
