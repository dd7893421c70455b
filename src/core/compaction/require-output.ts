/**
 * requireOutput: the model names the output fields it needs, and the tool's result is cut down to them before
 * the model reads it. Large results (a Linear issue with its team, cycle, labels and history) shrink to the
 * two fields the next step uses.
 *
 * Fields are top-level output properties or dotted paths into nested objects (`state.name`); arrays are
 * filtered element by element. Pure functions: adapters strip the argument before the tool runs and filter
 * the result after it.
 */
import type { JsonSchema } from "../types.js";
import { isPlainObject } from "./schema-walk.js";

/** The argument name the model uses. */
export const REQUIRE_OUTPUT_ARG = "requireOutput";

/** The error result a call with unknown output fields receives (the tool is not run). */
export interface InvalidOutputFields {
  error: "invalid_output_fields";
  tool: string;
  invalid: string[];
  valid: string[];
  message: string;
}

/** Resolves `$ref: "#/$defs/x"` (and `definitions`) against the root, one level at a time. */
function deref(node: unknown, root: JsonSchema): JsonSchema | undefined {
  let current = node;
  for (let i = 0; i < 8 && isPlainObject(current) && typeof current.$ref === "string"; i++) {
    const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(current.$ref);
    const block = m ? root[m[1]] : undefined;
    current = m && isPlainObject(block) ? block[m[2]] : undefined;
  }
  return isPlainObject(current) ? current : undefined;
}

/** The object schemas a value of `schema` may be (through anyOf/oneOf/allOf and array items). */
function objectShapes(schema: JsonSchema | undefined, root: JsonSchema, depth = 0): JsonSchema[] {
  const s = schema && deref(schema, root);
  if (!s || depth > 8) return [];
  const out: JsonSchema[] = [];
  if (isPlainObject(s.properties)) out.push(s);
  if (isPlainObject(s.items)) out.push(...objectShapes(s.items as JsonSchema, root, depth + 1));
  for (const key of ["anyOf", "oneOf", "allOf"])
    if (Array.isArray(s[key])) for (const b of s[key] as unknown[]) if (isPlainObject(b)) out.push(...objectShapes(b, root, depth + 1));
  return out;
}

function propertyOf(shapes: JsonSchema[], name: string): JsonSchema[] | undefined {
  const found = shapes.filter((s) => Object.hasOwn(s.properties as object, name));
  return found.length ? found.map((s) => (s.properties as Record<string, JsonSchema>)[name]) : undefined;
}

/** Top-level output fields a tool declares (its output schema's properties), in declaration order. */
export function outputFields(outputSchema: JsonSchema | undefined): string[] {
  if (!outputSchema) return [];
  const names = new Set<string>();
  for (const s of objectShapes(outputSchema, outputSchema)) for (const n of Object.keys(s.properties as object)) names.add(n);
  return [...names];
}

/** Whether a dotted field path exists in the output schema. */
function pathExists(outputSchema: JsonSchema, path: string): boolean {
  let shapes = objectShapes(outputSchema, outputSchema);
  const parts = path.split(".");
  for (let i = 0; i < parts.length; i++) {
    const props = propertyOf(shapes, parts[i]);
    if (!props) return false;
    if (i === parts.length - 1) return true;
    shapes = props.flatMap((p) => objectShapes(p, outputSchema));
    if (shapes.length === 0) return false;
  }
  return false;
}

/**
 * Checks the requested fields against the output schema. Returns the error result to give the model, or
 * undefined when every field exists. A non-array or non-string value is an error too.
 */
export function checkRequiredOutput(tool: string, outputSchema: JsonSchema | undefined, fields: unknown): InvalidOutputFields | undefined {
  const valid = outputFields(outputSchema);
  const fail = (invalid: string[], why: string): InvalidOutputFields => ({
    error: "invalid_output_fields",
    tool,
    invalid,
    valid,
    message: `${why} Call ${tool} again with ${REQUIRE_OUTPUT_ARG} set to some of: ${valid.join(", ")} (or without ${REQUIRE_OUTPUT_ARG} for the whole result).`,
  });
  if (!Array.isArray(fields) || fields.some((f) => typeof f !== "string" || f === ""))
    return fail([String(JSON.stringify(fields))], `${REQUIRE_OUTPUT_ARG} must be a list of output field names.`);
  if (!outputSchema) return undefined;
  const invalid = (fields as string[]).filter((f) => !pathExists(outputSchema, f));
  if (invalid.length === 0) return undefined;
  return fail(invalid, `Tool ${tool} has no output field${invalid.length > 1 ? "s" : ""} ${invalid.map((f) => `"${f}"`).join(", ")}.`);
}

/** A field tree: `["id", "state.name"]` → `{id: true, state: {name: true}}`. */
type FieldTree = { [name: string]: true | FieldTree };

function fieldTree(fields: readonly string[]): FieldTree {
  const tree: FieldTree = {};
  for (const f of fields) {
    const parts = f.split(".");
    let node = tree;
    parts.forEach((p, i) => {
      if (i === parts.length - 1) node[p] = true;
      else {
        const next = node[p];
        if (next === true) return;
        node = node[p] = next ?? {};
      }
    });
  }
  return tree;
}

function pick(value: unknown, tree: FieldTree): unknown {
  if (Array.isArray(value)) return value.map((v) => pick(v, tree));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(tree)) {
    if (!Object.hasOwn(value, name)) continue;
    out[name] = sub === true ? value[name] : pick(value[name], sub);
  }
  return out;
}

/** Keeps only `fields` of a structured value (object, array of objects); other values are returned as they are. */
export function pickFields(value: unknown, fields: readonly string[]): unknown {
  return pick(value, fieldTree(fields));
}

/** JSON text that parses to an object or array is filtered and re-serialized; other text is kept. */
export function filterJsonText(text: string, fields: readonly string[]): string {
  const trimmed = text.trim();
  if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) return text;
  try {
    return JSON.stringify(pickFields(JSON.parse(trimmed), fields));
  } catch {
    return text;
  }
}

/**
 * Filters a tool result of any of the usual shapes: an MCP `CallToolResult` (`structuredContent` is filtered,
 * JSON text content blocks too; error results are kept whole), a JSON string, an array of content blocks, or
 * a plain object.
 */
export function filterToolResult(result: unknown, fields: readonly string[]): unknown {
  if (typeof result === "string") return filterJsonText(result, fields);
  if (Array.isArray(result)) {
    const isBlocks = result.every((b) => isPlainObject(b) && typeof b.type === "string");
    return isBlocks ? result.map((b) => filterBlock(b as Record<string, unknown>, fields)) : pickFields(result, fields);
  }
  if (!isPlainObject(result)) return result;
  const isMcp = Array.isArray(result.content) || isPlainObject(result.structuredContent);
  if (!isMcp) return pickFields(result, fields);
  if (result.isError === true) return result;
  const out: Record<string, unknown> = { ...result };
  if (isPlainObject(result.structuredContent)) out.structuredContent = pickFields(result.structuredContent, fields);
  if (Array.isArray(result.content)) {
    // With structured content present, a text block usually repeats it as JSON; both are filtered alike.
    out.content = result.content.map((b) => (isPlainObject(b) ? filterBlock(b, fields) : b));
  }
  return out;
}

function filterBlock(block: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  if (block.type === "text" && typeof block.text === "string") return { ...block, text: filterJsonText(block.text, fields) };
  return block;
}

/** The JSON Schema of the `requireOutput` argument for a tool with these output fields. */
export function requireOutputParameter(fields: readonly string[]): JsonSchema {
  return {
    type: "array",
    items: { type: "string" },
    description: `Optional. Return only these output fields (dotted paths reach nested fields): ${fields.join(", ")}.`,
  };
}

/** An input schema with the optional `requireOutput` argument added (the input is not modified). */
export function withRequireOutputParameter(inputSchema: JsonSchema | undefined, fields: readonly string[]): JsonSchema {
  const base = inputSchema ?? { type: "object", properties: {} };
  const properties = isPlainObject(base.properties) ? base.properties : {};
  return { ...base, type: base.type ?? "object", properties: { ...properties, [REQUIRE_OUTPUT_ARG]: requireOutputParameter(fields) } };
}
