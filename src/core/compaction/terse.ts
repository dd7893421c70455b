/**
 * TERSE rendering: a tool as labelled lines instead of JSON.
 *
 *   TOOL create_issue
 *   PURPOSE Create an issue in a repository.
 *   IN owner:str — Repository owner
 *     labels?:[str]
 *     state?:open|closed=open
 *   OUT id:int, url:str
 *   ERR Fails with 404 when the repository does not exist.
 *   WHEN Use after search_repositories.
 *   TAGS github
 *
 * `?` marks an optional parameter; `=x` its default; `[T]` an array of T; `a|b` an enum or a union; `$Name`
 * a shared definition written once on a `DEF $Name=…` line; nested object properties are indented under
 * their parent (also the one object branch of an object-or-null union). Constraints are written after the type
 * (`1..100`, `len≤50`, `/regex/`, `(date-time)`); keywords with no short form are kept as compact JSON, so
 * the rendering drops only what the short list drops (titles, examples, `$schema`, obvious defaults).
 *
 * Two levels:
 * - `"pool"`: one line per tool for the Phase-1 summary pool (`TOOL name: summary | IN a, b? | OUT x | WHEN … | TAGS …`),
 *   parameter names only.
 * - `"full"`: the whole description and every parameter with its type, constraints and description.
 */
import type { JsonSchema, Precondition, ToolRecord, ToolSpec } from "../types.js";
import { firstSentence } from "../catalog/text.js";
import { isPlainObject, setOwn, unescapePointer } from "./schema-walk.js";
import { shortenSchema } from "./short-list.js";
import { dedupAcrossTools, type RefDedupOptions } from "./ref-dedup.js";
import { countTokens } from "../tokens/count.js";

export type TerseLevel = "pool" | "full";

export interface TerseOptions {
  /** Default "full". */
  level?: TerseLevel;
  /** Pool level: the summary to show (default: first sentence of the description). */
  summary?: string;
  /** Pool level: show the parameter list (default true). */
  params?: boolean;
}

const TYPE_ABBREV: Record<string, string> = {
  string: "str",
  integer: "int",
  number: "num",
  boolean: "bool",
  object: "obj",
  array: "arr",
  null: "null",
};

// Keywords rendered by the type text or the constraint text; anything else is kept as compact JSON.
const HANDLED = new Set([
  "type", "enum", "const", "items", "properties", "required", "anyOf", "oneOf", "allOf", "$ref", "description",
  "default", "format", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength",
  "maxLength", "minItems", "maxItems", "uniqueItems", "multipleOf", "additionalProperties", "$defs", "definitions",
  "nullable", "deprecated",
]);

function scalar(value: unknown): string {
  if (typeof value === "string") return /^[\w.\-/:@ ]+$/.test(value) && value.trim() === value && value !== "" ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

function refName(ref: string): string {
  const i = ref.lastIndexOf("/");
  return i >= 0 ? unescapePointer(ref.slice(i + 1)) : ref;
}

/**
 * The object schema whose properties are listed on lines of their own under a parameter (full level): the
 * parameter itself, its array items, or the only object branch of an `anyOf`/`oneOf` (e.g. object-or-null).
 */
function nestedProps(schema: JsonSchema): JsonSchema | undefined {
  if (isPlainObject(schema.properties) && Object.keys(schema.properties).length > 0) return schema;
  if (isPlainObject(schema.items)) return nestedProps(schema.items as JsonSchema);
  for (const key of ["anyOf", "oneOf"] as const) {
    if (!Array.isArray(schema[key])) continue;
    const objects = (schema[key] as unknown[]).filter((b) => isPlainObject(b) && nestedProps(b));
    if (objects.length === 1) return nestedProps(objects[0] as JsonSchema);
  }
  return undefined;
}

/** The compact type of a schema: `str`, `[int]`, `open|closed`, `{a,b?}`, a definition name… */
export function typeText(schema: unknown, inline = true): string {
  if (schema === true || schema === undefined) return "any";
  if (schema === false) return "never";
  if (!isPlainObject(schema)) return "any";
  if (typeof schema.$ref === "string") return `$${refName(schema.$ref)}`;
  if (Array.isArray(schema.enum)) return schema.enum.map(scalar).join("|");
  if ("const" in schema) return scalar(schema.const);
  for (const key of ["anyOf", "oneOf"] as const)
    if (Array.isArray(schema[key])) {
      const branches = schema[key] as unknown[];
      // Not inline: the one object branch is listed below the parameter, so only its type and description show here.
      if (!inline) return branches.map((b) => (isPlainObject(b) && nestedProps(b) ? branchText(b) : inlineText(b))).join("|");
      return branches.map(inlineText).join("|");
    }
  if (Array.isArray(schema.allOf)) return (schema.allOf as unknown[]).map(inlineText).join("&");
  const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : [];
  if (schema.nullable === true && !types.includes("null")) types.push("null");
  const parts = types.map((t) => {
    if (t === "array") return `[${schema.items === undefined ? "any" : inline ? inlineText(schema.items) : typeText(schema.items, false)}]`;
    if (t === "object") return objectText(schema, inline);
    return TYPE_ABBREV[t] ?? t;
  });
  if (parts.length === 0) {
    if (isPlainObject(schema.properties)) return objectText(schema, inline);
    if (schema.items !== undefined) return `[${typeText(schema.items, inline)}]`;
    return "any";
  }
  return parts.join("|");
}

/** The listed object branch of a union: its type and constraints, and its description in quotes. */
function branchText(schema: JsonSchema): string {
  const desc = typeof schema.description === "string" && schema.description ? ` ${JSON.stringify(oneLine(schema.description))}` : "";
  return `${typeText(schema, false)}${constraintText(schema)}${desc}`;
}

/** A schema written inside another one's type: type, constraints and a quoted description. */
function inlineText(schema: unknown): string {
  if (!isPlainObject(schema)) return typeText(schema, true);
  const desc = typeof schema.description === "string" && schema.description ? ` ${JSON.stringify(oneLine(schema.description))}` : "";
  return `${typeText(schema, true)}${constraintText(schema)}${desc}`;
}

function objectText(schema: JsonSchema, inline: boolean): string {
  const props = isPlainObject(schema.properties) ? Object.keys(schema.properties) : [];
  if (props.length === 0) {
    if (isPlainObject(schema.additionalProperties)) return `{str:${inlineText(schema.additionalProperties)}}`;
    return "obj";
  }
  if (!inline) return "obj";
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const properties = schema.properties as Record<string, unknown>;
  return `{${props.map((p) => `${p}${required.has(p) ? "" : "?"}:${inlineText(properties[p])}`).join(", ")}}`;
}

function range(min: unknown, max: unknown, exclMin?: unknown, exclMax?: unknown): string {
  const lo = typeof exclMin === "number" ? `>${exclMin}` : min !== undefined ? String(min) : "";
  const hi = typeof exclMax === "number" ? `<${exclMax}` : max !== undefined ? String(max) : "";
  if (!lo && !hi) return "";
  if (lo.startsWith(">") || hi.startsWith("<")) return [lo, hi].filter(Boolean).join(" ");
  return `${lo}..${hi}`;
}

/** Constraints and the default: ` 1..100 len≤50 (date-time) /re/ =10`, and any unknown keyword as JSON. */
export function constraintText(schema: JsonSchema): string {
  const out: string[] = [];
  const r = range(schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum);
  if (r) out.push(r);
  const len = range(schema.minLength, schema.maxLength);
  if (len) out.push(`len ${len}`);
  const items = range(schema.minItems, schema.maxItems);
  if (items) out.push(`items ${items}`);
  if (schema.uniqueItems === true) out.push("unique");
  if (schema.multipleOf !== undefined) out.push(`×${schema.multipleOf}`);
  if (typeof schema.format === "string") out.push(`(${schema.format})`);
  if (typeof schema.pattern === "string") out.push(`/${schema.pattern}/`);
  if (schema.deprecated === true) out.push("deprecated");
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) if (!HANDLED.has(k)) setOwn(extra, k, v);
  if (schema.additionalProperties === false) extra.additionalProperties = false;
  if (Object.keys(extra).length > 0) out.push(JSON.stringify(extra));
  const text = out.length ? ` ${out.join(" ")}` : "";
  return "default" in schema ? `${text}=${scalar(schema.default)}` : text;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Parameter lines of an object schema: `name?:type constraints — description`, nested ones indented. */
function paramLines(schema: JsonSchema, indent: string, out: string[]): void {
  const props = isPlainObject(schema.properties) ? (schema.properties as Record<string, unknown>) : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const [name, raw] of Object.entries(props)) {
    const sub = isPlainObject(raw) ? raw : {};
    const nested = nestedProps(sub);
    const desc = typeof sub.description === "string" && sub.description ? ` — ${oneLine(sub.description)}` : "";
    out.push(`${indent}${name}${required.has(name) ? "" : "?"}:${typeText(sub, !nested)}${constraintText(sub)}${desc}`);
    if (nested) {
      if (nested !== sub && isPlainObject(sub.items)) {
        const itemDesc = typeof nested.description === "string" && nested.description ? ` — ${oneLine(nested.description)}` : "";
        const itemExtra = constraintText({ ...nested, properties: undefined, required: undefined, type: undefined });
        if (itemDesc || itemExtra.trim()) out.push(`${indent}  item:${itemExtra}${itemDesc}`);
      }
      paramLines(nested, `${indent}  `, out);
    }
  }
  // Object-level keywords other than the property list (e.g. anyOf of required sets) are kept as JSON.
  const rest = constraintText({ ...schema, properties: undefined, required: undefined, type: undefined, description: undefined });
  if (rest.trim()) out.push(`${indent}(object${rest})`);
}

const ERR_SENTENCE = /\b(errors?|fails?|failure|throws?|invalid|not found|exceptions?|rate.?limit)/i;
const WHEN_SENTENCE = /\b(use (this|it|when|for|only|before|after|instead)|only (call|use|when)|when you|before (calling|using)|after (calling|using)|requires?|must (be|have|first))\b/i;

/** Splits a description into PURPOSE, WHEN and ERR sentences (every sentence lands in exactly one). */
export function splitDescription(description: string): { purpose: string; when: string; err: string } {
  const text = oneLine(description);
  const sentences = text.match(/[^.!?]+(?:[.!?](?=\s|$)|$)(?:\s+|$)|[^.!?]+[.!?]+\S*\s*/g) ?? (text ? [text] : []);
  const purpose: string[] = [];
  const when: string[] = [];
  const err: string[] = [];
  sentences.forEach((s, i) => {
    const t = s.trim();
    if (!t) return;
    if (i > 0 && ERR_SENTENCE.test(t)) err.push(t);
    else if (i > 0 && WHEN_SENTENCE.test(t)) when.push(t);
    else purpose.push(t);
  });
  return { purpose: purpose.join(" "), when: when.join(" "), err: err.join(" ") };
}

function preconditionText(preconditions: readonly Precondition[] | undefined): string {
  const parts: string[] = [];
  for (const p of preconditions ?? []) {
    if (typeof p === "function") continue;
    if (p.requiresScopes?.length) parts.push(`needs scope ${p.requiresScopes.join(", ")}`);
    if (p.afterTool) parts.push(`after ${[p.afterTool].flat().join(" or ")}`);
    if (p.milestone) parts.push(`at milestone ${[p.milestone].flat().join(", ")}`);
  }
  return parts.join("; ");
}

/** Top-level output fields: `id:int, url:str` (full) or `id, url` (pool). */
function outText(outputSchema: JsonSchema | undefined, withTypes: boolean): string {
  if (!outputSchema || !isPlainObject(outputSchema.properties)) return "";
  return Object.entries(outputSchema.properties as Record<string, unknown>)
    .map(([name, s]) => (withTypes ? `${name}:${typeText(s, false)}` : name))
    .join(", ");
}

type TerseTool = ToolSpec | (ToolRecord & { title?: string });

/** `DEF $name=type — description` lines (with nested properties indented) for a definitions block. */
export function terseDefLines(defs: Record<string, JsonSchema>): string[] {
  const lines: string[] = [];
  for (const [name, def] of Object.entries(defs)) {
    const sub = shortenSchema(def);
    const nested = nestedProps(sub);
    const desc = typeof sub.description === "string" && sub.description ? ` — ${oneLine(sub.description)}` : "";
    lines.push(`DEF $${name}=${typeText(sub, !nested)}${constraintText(sub)}${desc}`);
    if (nested) paramLines(nested, "  ", lines);
  }
  return lines;
}

/** The TERSE text of one tool. */
export function renderTerse(tool: TerseTool, options: TerseOptions = {}): string {
  const level = options.level ?? "full";
  const preconditions = (tool.preconditions === undefined
    ? []
    : Array.isArray(tool.preconditions) ? tool.preconditions : [tool.preconditions]) as Precondition[];
  const input = isPlainObject(tool.inputSchema) ? shortenSchema(tool.inputSchema) : undefined;
  const tags = (tool.tags ?? []).join(", ");
  const description = tool.description ?? "";

  if (level === "pool") {
    const summary = options.summary ?? firstSentence(description);
    const parts = [`TOOL ${"id" in tool ? tool.id : tool.name}${summary ? `: ${summary}` : ""}`];
    if (options.params !== false && input && isPlainObject(input.properties)) {
      const required = new Set(Array.isArray(input.required) ? (input.required as string[]) : []);
      const names = Object.keys(input.properties).map((n) => (required.has(n) ? n : `${n}?`));
      if (names.length) parts.push(`IN ${names.join(", ")}`);
    }
    const out = outText(tool.outputSchema, false);
    if (out) parts.push(`OUT ${out}`);
    const when = preconditionText(preconditions);
    if (when) parts.push(`WHEN ${when}`);
    if (tags) parts.push(`TAGS ${tags}`);
    return parts.join(" | ");
  }

  const { purpose, when, err } = splitDescription(description);
  const lines = [`TOOL ${tool.name}`];
  if (purpose) lines.push(`PURPOSE ${purpose}`);
  if (input) {
    const params: string[] = [];
    paramLines(input, "  ", params);
    if (params.length) lines.push(`IN ${params[0].trimStart()}`, ...params.slice(1));
    const defs = { ...(isPlainObject(input.definitions) ? input.definitions : {}), ...(isPlainObject(input.$defs) ? input.$defs : {}) };
    lines.push(...terseDefLines(defs as Record<string, JsonSchema>));
  }
  const out = outText(tool.outputSchema, true);
  if (out) lines.push(`OUT ${out}`);
  if (err) lines.push(`ERR ${err}`);
  const whenText = [when, preconditionText(preconditions)].filter(Boolean).join(" ");
  if (whenText) lines.push(`WHEN ${whenText}`);
  if (tags) lines.push(`TAGS ${tags}`);
  return lines.join("\n");
}

/**
 * TERSE text of several tools (e.g. one server) with definitions shared across them written once at the top:
 * `dedupAcrossTools` lifts identical `$defs` and large repeated subschemas, then each tool is rendered with
 * `$Name` references to those lines.
 */
export function renderTerseCatalog(tools: readonly ToolSpec[], options: RefDedupOptions = {}): string {
  // Only input schemas take part: OUT shows top-level output fields, so hoisting nested output shapes into
  // DEF lines would add text that the per-tool rendering leaves out.
  const inputs = tools.map((t) => ({ name: t.name, inputSchema: isPlainObject(t.inputSchema) ? shortenSchema(t.inputSchema) : undefined }));
  const shared = dedupAcrossTools(inputs, options);
  const separate = tools.map((t) => renderTerse(t)).join("\n");
  if (Object.keys(shared.defs).length === 0) return separate;
  const text = [
    ...terseDefLines(shared.defs),
    ...tools.map((t, i) => renderTerse({ ...t, inputSchema: shared.tools[i].inputSchema })),
  ].join("\n");
  // The definitions were chosen on JSON token costs; keep the shared form only when it is shorter as TERSE too.
  return countTokens(text, options.encoding) < countTokens(separate, options.encoding) ? text : separate;
}
