/**
 * JSON Schema traversal shared by the compaction passes. Only keyword positions that hold subschemas are
 * visited, so a property *named* `title` or `default` is never mistaken for the keyword of the same name.
 */
import type { JsonSchema } from "../types.js";

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Keywords whose value is one subschema. */
export const SINGLE_SUBSCHEMA = [
  "items",
  "additionalProperties",
  "unevaluatedProperties",
  "additionalItems",
  "unevaluatedItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "contentSchema",
] as const;
/** Keywords whose value is an array of subschemas. */
export const ARRAY_SUBSCHEMA = ["anyOf", "oneOf", "allOf", "prefixItems", "items"] as const;
/** Keywords whose value maps names to subschemas. */
export const MAP_SUBSCHEMA = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"] as const;

/**
 * Rebuilds a schema bottom-up: `fn` receives each schema object after its subschemas were rebuilt, plus the
 * path of keywords that led to it, and returns its replacement. Non-schema values are copied as they are.
 */
export function mapSchema(
  schema: JsonSchema,
  fn: (node: JsonSchema, path: readonly string[]) => JsonSchema,
  path: string[] = [],
): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((MAP_SUBSCHEMA as readonly string[]).includes(key) && isPlainObject(value)) {
      const mapped: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(value))
        mapped[name] = isPlainObject(sub) ? mapSchema(sub, fn, [...path, key, name]) : sub;
      out[key] = mapped;
    } else if ((ARRAY_SUBSCHEMA as readonly string[]).includes(key) && Array.isArray(value)) {
      out[key] = value.map((sub, i) => (isPlainObject(sub) ? mapSchema(sub, fn, [...path, key, String(i)]) : sub));
    } else if ((SINGLE_SUBSCHEMA as readonly string[]).includes(key) && isPlainObject(value)) {
      out[key] = mapSchema(value, fn, [...path, key]);
    } else {
      out[key] = value;
    }
  }
  return fn(out, path);
}

/** Calls `fn` on every schema object (pre-order) with its path. */
export function walkSchema(schema: JsonSchema, fn: (node: JsonSchema, path: readonly string[]) => void, path: string[] = []): void {
  fn(schema, path);
  for (const [key, value] of Object.entries(schema)) {
    if ((MAP_SUBSCHEMA as readonly string[]).includes(key) && isPlainObject(value)) {
      for (const [name, sub] of Object.entries(value)) if (isPlainObject(sub)) walkSchema(sub, fn, [...path, key, name]);
    } else if ((ARRAY_SUBSCHEMA as readonly string[]).includes(key) && Array.isArray(value)) {
      value.forEach((sub, i) => isPlainObject(sub) && walkSchema(sub, fn, [...path, key, String(i)]));
    } else if ((SINGLE_SUBSCHEMA as readonly string[]).includes(key) && isPlainObject(value)) {
      walkSchema(value, fn, [...path, key]);
    }
  }
}

/** JSON with object keys sorted: equal schemas written in a different key order get the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Escapes one JSON Pointer segment (RFC 6901). */
export function pointerSegment(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Decodes one JSON Pointer segment. */
export function unescapePointer(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~");
}
