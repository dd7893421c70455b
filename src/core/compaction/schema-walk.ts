/**
 * JSON Schema traversal shared by the compaction passes. Only keyword positions that hold subschemas are
 * visited, so a property *named* `title` or `default` is never mistaken for the keyword of the same name.
 */
import type { JsonSchema } from "../types.js";

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Sets an own enumerable property. Plain assignment with a key read from a schema would, for the key
 * `"__proto__"` (an ordinary key in JSON, e.g. a parameter of that name), replace the object's prototype
 * instead: the parameter would vanish and the object would inherit the parameter's fields.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
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
        setOwn(mapped, name, isPlainObject(sub) ? mapSchema(sub, fn, [...path, key, name]) : sub);
      out[key] = mapped;
    } else if ((ARRAY_SUBSCHEMA as readonly string[]).includes(key) && Array.isArray(value)) {
      out[key] = value.map((sub, i) => (isPlainObject(sub) ? mapSchema(sub, fn, [...path, key, String(i)]) : sub));
    } else if ((SINGLE_SUBSCHEMA as readonly string[]).includes(key) && isPlainObject(value)) {
      out[key] = mapSchema(value, fn, [...path, key]);
    } else {
      setOwn(out, key, value);
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

// Canonical texts per object: schemas are treated as immutable here, so a subtree's text never changes, and
// passes that share unchanged subtrees (see replaceSubschemas) do not recompute them.
const canonicalMemo = new WeakMap<object, string>();

/** JSON with object keys sorted: equal schemas written in a different key order get the same text. */
export function canonicalJson(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  const hit = canonicalMemo.get(value);
  if (hit !== undefined) return hit;
  let text: string;
  if (Array.isArray(value)) text = `[${value.map(canonicalJson).join(",")}]`;
  else {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
    text = `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(",")}}`;
  }
  canonicalMemo.set(value, text);
  return text;
}

/**
 * Like mapSchema, but a subtree that `fn` leaves alone keeps its identity (no copy), so memoized facts about
 * it stay valid. `fn` sees each node before its children and returns a replacement or undefined.
 */
export function replaceSubschemas(
  schema: JsonSchema,
  fn: (node: JsonSchema, path: readonly string[]) => JsonSchema | undefined,
  path: string[] = [],
): JsonSchema {
  const replaced = fn(schema, path);
  if (replaced !== undefined) return replaced;
  let out: JsonSchema | undefined;
  const set = (key: string, value: unknown) => {
    out ??= { ...schema };
    out[key] = value;
  };
  for (const [key, value] of Object.entries(schema)) {
    if ((MAP_SUBSCHEMA as readonly string[]).includes(key) && isPlainObject(value)) {
      let mapped: Record<string, unknown> | undefined;
      for (const [name, sub] of Object.entries(value)) {
        if (!isPlainObject(sub)) continue;
        const next = replaceSubschemas(sub, fn, [...path, key, name]);
        if (next !== sub) setOwn((mapped ??= { ...value }), name, next);
      }
      if (mapped) set(key, mapped);
    } else if ((ARRAY_SUBSCHEMA as readonly string[]).includes(key) && Array.isArray(value)) {
      let changed = false;
      const arr = value.map((sub, i) => {
        if (!isPlainObject(sub)) return sub;
        const next = replaceSubschemas(sub, fn, [...path, key, String(i)]);
        if (next !== sub) changed = true;
        return next;
      });
      if (changed) set(key, arr);
    } else if ((SINGLE_SUBSCHEMA as readonly string[]).includes(key) && isPlainObject(value)) {
      const next = replaceSubschemas(value, fn, [...path, key]);
      if (next !== value) set(key, next);
    }
  }
  return out ?? schema;
}

/** Escapes one JSON Pointer segment (RFC 6901). */
export function pointerSegment(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Decodes one JSON Pointer segment. */
export function unescapePointer(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~");
}
