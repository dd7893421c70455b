/**
 * Checks on what a catalog takes from third parties (catalog files, MCP servers, code), for input that is valid
 * JavaScript but breaks something downstream: a schema object that contains itself (JSON.stringify throws),
 * nesting deep enough to overflow the stack of every recursive walk, a structure with more values than any tool
 * needs, a schema whose arguments are not an object, descriptions too long for any context window, lone
 * surrogates. Each check returns the value unchanged when there is nothing to repair (no copy), else a repaired
 * copy and what was wrong, which the catalog turns into a warning naming the server and the tool.
 */
import type { JsonSchema } from "../types.js";

/** Deepest JSON nesting kept in a schema (objects and arrays); deeper values are replaced by `{}` (any value). */
export const MAX_SCHEMA_DEPTH = 100;
/** Most values (objects, arrays, scalars) one schema may hold. */
export const MAX_SCHEMA_VALUES = 1_000_000;
/** Longest description kept; a longer one is cut (a 2 MB description fits no model's context). */
export const MAX_DESCRIPTION_CHARS = 32_768;
// Tool names are judged in one place (tool-name.ts); these stay importable from here.
export { MAX_TOOL_NAME_CHARS, toolNameProblem as nameProblem } from "./tool-name.js";

/**
 * Control characters other than tab, line feed and carriage return (C0, DEL, C1). They carry no meaning in a tool's
 * text, hide things from a human reading it, and one NUL fails a whole batch on PostgreSQL ("invalid byte sequence
 * for encoding UTF8: 0x00"), so they are removed before anything is stored or embedded.
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** The text without control characters other than tab, line feed and carriage return (the same string when it has none). */
export function stripControl(text: string): string {
  CONTROL.lastIndex = 0;
  return CONTROL.test(text) ? text.replace(CONTROL, "") : text;
}

/** `{"type": "object", "properties": {}}`: what a tool whose schema cannot be used is given instead. */
export function emptyObjectSchema(): JsonSchema {
  return { type: "object", properties: {} };
}

/** Defines an own property (an own `__proto__` key stays a key instead of replacing the prototype). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Returned once the value budget is spent: the walk stops and the caller reports the value as too large. */
const DROP = Symbol("too large");

interface WalkState {
  problems: Set<string>;
  values: number;
  /** `$ref`s that point outside the document (URLs, file paths). */
  externalRefs: string[];
}

function walk(value: unknown, depth: number, ancestors: Set<object>, state: WalkState): unknown {
  if (typeof value === "string") {
    state.values++;
    const clean = stripControl(value);
    if (clean !== value) state.problems.add("holds control characters (NUL and the like) in its text; removed");
    return clean;
  }
  if (value === null || typeof value === "boolean") {
    state.values++;
    return value;
  }
  if (typeof value === "number") {
    state.values++;
    if (Number.isFinite(value)) return value;
    state.problems.add(`holds ${value}, which JSON cannot express; replaced by null`);
    return null;
  }
  if (typeof value === "bigint") {
    // JSON.stringify throws on a BigInt.
    state.problems.add("holds a BigInt, which JSON cannot express; written as a number");
    return Number(value);
  }
  // undefined, functions and symbols: JSON leaves them out (null in an array) without complaint.
  if (typeof value !== "object") return value;
  if (ancestors.has(value)) {
    state.problems.add("contains itself (a cyclic object); the cycle was cut");
    return {};
  }
  if (depth >= MAX_SCHEMA_DEPTH) {
    state.problems.add(`is nested deeper than ${MAX_SCHEMA_DEPTH} levels; deeper parts accept any value`);
    return {};
  }
  if (++state.values > MAX_SCHEMA_VALUES) return DROP;
  ancestors.add(value);
  let copy: unknown[] | Record<string, unknown> | undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const next = walk(value[i], depth + 1, ancestors, state);
      if (state.values > MAX_SCHEMA_VALUES) break;
      if (next !== value[i] && !copy) copy = value.slice(0, i);
      if (copy) (copy as unknown[]).push(next);
    }
  } else {
    const keys = Object.keys(value);
    const source = value as Record<string, unknown>;
    for (let i = 0; i < keys.length; i++) {
      const child = source[keys[i]];
      if (keys[i] === "$ref" && typeof child === "string" && !child.startsWith("#")) state.externalRefs.push(child);
      const next = walk(child, depth + 1, ancestors, state);
      if (state.values > MAX_SCHEMA_VALUES) break;
      if (next !== child && !copy) {
        copy = {};
        for (let j = 0; j < i; j++) setOwn(copy as Record<string, unknown>, keys[j], source[keys[j]]);
      }
      if (copy) setOwn(copy as Record<string, unknown>, keys[i], next);
    }
  }
  ancestors.delete(value);
  return copy ?? value;
}

/**
 * A JSON-safe version of a value the catalog keeps (a schema, annotations): the same object when it already is,
 * else a repaired copy with cycles cut, over-deep parts replaced by `{}`, BigInts written as numbers and
 * non-finite numbers as null. `tooLarge` when it holds more than MAX_SCHEMA_VALUES values (the caller replaces it).
 */
export function jsonSafe<T>(value: T): { value: T; problems: string[]; tooLarge: boolean } {
  const state: WalkState = { problems: new Set(), values: 0, externalRefs: [] };
  const out = walk(value, 0, new Set(), state);
  if (state.values > MAX_SCHEMA_VALUES)
    return { value, problems: [`holds more than ${MAX_SCHEMA_VALUES.toLocaleString("en-US")} values`], tooLarge: true };
  // Kept as declared (nothing here ever fetches them), but no model provider resolves them either.
  const refs = [...new Set(state.externalRefs)];
  if (refs.length > 0)
    state.problems.add(
      `refers outside itself (${refs.slice(0, 3).map((r) => JSON.stringify(r.slice(0, 100))).join(", ")}${refs.length > 3 ? ` and ${refs.length - 3} more` : ""}); ` +
        "such refs are never fetched and model providers do not resolve them; kept as declared",
    );
  return { value: (out === DROP ? undefined : out) as T, problems: [...state.problems], tooLarge: false };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The input schema a catalog keeps, and what was wrong with it. Beyond JSON safety, the top level must describe an
 * object (every provider passes tool arguments as one): a `type` other than object leaves the tool without
 * arguments, `properties` that are not an object are dropped, and `required` keeps its strings only.
 */
export function checkInputSchema(schema: JsonSchema): { schema: JsonSchema; problems: string[] } {
  const safe = jsonSafe(schema);
  if (safe.tooLarge) return { schema: emptyObjectSchema(), problems: [`"inputSchema" ${safe.problems[0]}; replaced by an empty object schema`] };
  const problems = safe.problems.map((p) => `"inputSchema" ${p}`);
  let out = safe.value;
  const type = out.type;
  if (type !== undefined && type !== "object" && !(Array.isArray(type) && type.includes("object"))) {
    problems.push(`"inputSchema.type" is ${JSON.stringify(type)}, but tool arguments are an object; replaced by an empty object schema`);
    return { schema: emptyObjectSchema(), problems };
  }
  const patch = (key: string, value: unknown) => {
    const copy: Record<string, unknown> = {};
    for (const k of Object.keys(out)) if (k !== key) setOwn(copy, k, out[k]);
    if (value !== undefined) setOwn(copy, key, value);
    out = copy;
  };
  if (out.properties !== undefined && !isPlainObject(out.properties)) {
    problems.push(`"inputSchema.properties" is ${Array.isArray(out.properties) ? "an array" : JSON.stringify(out.properties)?.slice(0, 40)}, not an object; dropped`);
    patch("properties", undefined);
  }
  const required = out.required;
  if (required !== undefined && (!Array.isArray(required) || required.some((r) => typeof r !== "string"))) {
    const kept = Array.isArray(required) ? required.filter((r): r is string => typeof r === "string") : [];
    problems.push(`"inputSchema.required" is not a list of names; ${kept.length > 0 ? "kept its strings" : "dropped"}`);
    patch("required", kept.length > 0 ? kept : undefined);
  }
  return { schema: out, problems };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A description with control characters removed (see `stripControl`), lone surrogates replaced by U+FFFD and cut at
 * MAX_DESCRIPTION_CHARS, and what was changed.
 */
export function checkDescription(description: string): { description: string; problems: string[] } {
  const problems: string[] = [];
  let out = stripControl(description);
  if (out !== description) problems.push(`"description" holds control characters (NUL and the like); removed`);
  if (out.length > MAX_DESCRIPTION_CHARS) {
    problems.push(`"description" has ${out.length.toLocaleString("en-US")} characters; cut to ${MAX_DESCRIPTION_CHARS.toLocaleString("en-US")}`);
    out = out.slice(0, MAX_DESCRIPTION_CHARS);
    // Do not leave half a surrogate pair at the cut.
    if (/[\uD800-\uDBFF]$/.test(out)) out = out.slice(0, -1);
  }
  LONE_SURROGATE.lastIndex = 0;
  if (LONE_SURROGATE.test(out)) {
    problems.push(`"description" holds lone surrogates (not valid Unicode); replaced by U+FFFD`);
    out = out.replace(LONE_SURROGATE, "\uFFFD");
  }
  return { description: out, problems };
}
