/**
 * A tool's call signature as the summary pool shows it under `runValidCalls`: `id(a, b: string[], c: "x"|"y", …)`.
 *
 * The pool line is all the model sees of a tool that was not delivered, and a call to such a tool runs when its
 * arguments fit the schema. A required parameter that is a plain string, number or boolean is written right from its
 * name alone; one that must match an enum, a format, a pattern or an array shape is not, unless the line says so.
 * So each required parameter gets the shortest hint that makes it writable (`string[]`, `"a"|"b"`, `uri`,
 * `/^[A-Z]+-\d+$/`, `{path, content}[]` for a small object, `object` for a free-form one), and one no short hint
 * can describe (a union of shapes, a long enum, a deep or wide object) keeps its bare name: the model calls it
 * anyway, the gate answers with the schema, and delivery prices that tool as a round trip.
 * Rendering and pricing read the same function, so what the pool promises is what the cost model assumes.
 */
import type { JsonSchema } from "../types.js";

/** Formats a model writes from their name alone (JSON Schema's format vocabulary). */
const NAMED_FORMATS = new Set(["uri", "url", "uri-reference", "iri", "email", "date-time", "date", "time", "uuid", "hostname", "ipv4", "ipv6"]);
/** Longest pattern shown inline; longer ones are left to the schema. */
const MAX_PATTERN_CHARS = 40;
/** Most enum values shown inline, and the longest one (as JSON). */
const MAX_ENUM_VALUES = 8;
const MAX_ENUM_VALUE_CHARS = 32;
/** Longest hint of one parameter: past it the schema says it better than the pool line. */
const MAX_HINT_CHARS = 96;

const PRIMITIVES = new Set(["string", "number", "integer", "boolean"]);
/** Deepest nesting a hint describes (an array of objects holding an array is 3 levels below the parameter). */
const MAX_DEPTH = 4;
/** Most required fields an object hint lists (`{a, b, c}`); wider objects need their schema. */
const MAX_OBJECT_FIELDS = 5;

/**
 * How one value is written from the pool line: `""` when its name suffices (a plain primitive), a hint such as
 * `string[]` or `"a"|"b"`, or `undefined` when no short hint describes it.
 */
export function valueHint(schema: unknown, depth = 0): string | undefined {
  if (!schema || typeof schema !== "object" || depth > MAX_DEPTH) return undefined;
  const p = schema as Record<string, unknown>;
  if (p.const !== undefined) return literalList([p.const]);
  if (Array.isArray(p.enum)) return literalList(p.enum);
  // A union of plain primitives (often `string | null`) is written like the primitive.
  for (const key of ["anyOf", "oneOf"] as const)
    if (Array.isArray(p[key])) return (p[key] as unknown[]).every((b) => isNullSchema(b) || valueHint(b, depth + 1) === "") ? "" : undefined;
  if (p.allOf !== undefined || p.$ref !== undefined || p.not !== undefined) return undefined;
  const type = typeOf(p.type);
  if (type === "array") {
    if (p.items === undefined || (typeof p.items === "object" && p.items !== null && Object.keys(p.items).length === 0)) return "array";
    const item = valueHint(p.items, depth + 1);
    if (item === undefined) return undefined;
    if (item === "") return `${typeOf((p.items as Record<string, unknown>).type) ?? "string"}[]`;
    return /^[\w-]+$/.test(item) || (item.startsWith("{") && item.endsWith("}")) ? `${item}[]` : `(${item})[]`;
  }
  if (type === "object") return objectHint(p, depth);
  // A list of primitive types (`["boolean", "string"]`): any of them is written from the name.
  if (type === undefined && Array.isArray(p.type) && p.type.length > 0 && p.type.every((t) => t === "null" || PRIMITIVES.has(t as string))) return "";
  if (type === undefined || !PRIMITIVES.has(type)) return undefined;
  if (type === "string" && typeof p.pattern === "string")
    return p.pattern.length <= MAX_PATTERN_CHARS && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(p.pattern) ? `/${p.pattern}/` : undefined;
  if (type === "string" && typeof p.format === "string") return NAMED_FORMATS.has(p.format) ? p.format : undefined;
  return "";
}

/**
 * An object's hint: `object` when it is free-form (no declared fields, any extra field allowed), so any object
 * fits; `{a, b: string[], …}` when it declares a few required fields that are each writable (`…`: optional ones
 * too); otherwise undefined. An object whose fields are all optional is left to its schema: the line could not say
 * which to fill.
 */
function objectHint(p: Record<string, unknown>, depth: number): string | undefined {
  const props = propertiesOf(p as JsonSchema);
  const names = Object.keys(props);
  const required = requiredParams(p as JsonSchema);
  // `propertyNames: {type: "string"}` says nothing (every key is a string); any other constraint on keys does.
  const keysFree = p.propertyNames === undefined || JSON.stringify(p.propertyNames) === '{"type":"string"}';
  if (names.length === 0) return required.length === 0 && p.additionalProperties !== false && p.patternProperties === undefined && keysFree ? "object" : undefined;
  if (required.length === 0 || required.length > MAX_OBJECT_FIELDS) return undefined;
  const parts: string[] = [];
  for (const name of required) {
    if (!Object.hasOwn(props, name)) return undefined;
    const hint = valueHint(props[name], depth + 1);
    if (hint === undefined) return undefined;
    parts.push(hint ? `${name}: ${hint}` : name);
  }
  if (names.some((n) => !required.includes(n))) parts.push("…");
  const text = `{${parts.join(", ")}}`;
  return text.length <= MAX_HINT_CHARS ? text : undefined;
}

/** The schema's type, with `null` dropped from a type list (`["string", "null"]` is written as a string). */
function typeOf(type: unknown): string | undefined {
  if (typeof type === "string") return type;
  if (Array.isArray(type)) {
    const rest = type.filter((t) => t !== "null");
    return rest.length === 1 && typeof rest[0] === "string" ? rest[0] : undefined;
  }
  return undefined;
}

function isNullSchema(s: unknown): boolean {
  return !!s && typeof s === "object" && (s as Record<string, unknown>).type === "null";
}

/** `"a"|"b"|3` for a short list of primitive values; undefined when a value is not primitive or the list is long. */
function literalList(values: readonly unknown[]): string | undefined {
  if (values.length === 0 || values.length > MAX_ENUM_VALUES) return undefined;
  const parts: string[] = [];
  for (const v of values) {
    if (v !== null && typeof v === "object") return undefined;
    const json = JSON.stringify(v);
    if (json === undefined || json.length > MAX_ENUM_VALUE_CHARS) return undefined;
    parts.push(json);
  }
  const text = parts.join("|");
  return text.length <= MAX_HINT_CHARS ? text : undefined;
}

/** The required parameter names of a schema that are strings (a malformed `required` entry is skipped). */
export function requiredParams(schema: JsonSchema | undefined): string[] {
  return Array.isArray(schema?.required) ? (schema.required as unknown[]).filter((r): r is string => typeof r === "string") : [];
}

function propertiesOf(schema: JsonSchema | undefined): Record<string, unknown> {
  const props = schema?.properties;
  return props && typeof props === "object" ? (props as Record<string, unknown>) : {};
}

/**
 * The parameter list of a pool line: each required parameter with its hint (`paths: string[]`), then `…` when
 * the tool also takes optional ones. Names and hints come from the server and are put on one line by the caller.
 */
export function signatureOf(schema: JsonSchema | undefined, line: (text: string) => string = (t) => t): string {
  const props = propertiesOf(schema);
  const required = requiredParams(schema);
  const parts = required.map((name) => {
    const hint = valueHint(props[name]);
    return hint ? `${line(name)}: ${line(hint)}` : line(name);
  });
  if (Object.keys(props).some((p) => !required.includes(p))) parts.push("…");
  return parts.join(", ");
}

/**
 * Whether a model that sees only the pool line can write a call that fits: every required parameter is declared and
 * either plain or described by its hint. A tool without required parameters always can. Delivery uses it to price
 * a miss (such a call usually runs at once), and the cost replay to model the model.
 */
export function callableFromSignature(schema: JsonSchema | undefined): boolean {
  const props = propertiesOf(schema);
  return requiredParams(schema).every((name) => Object.hasOwn(props, name) && valueHint(props[name]) !== undefined);
}
