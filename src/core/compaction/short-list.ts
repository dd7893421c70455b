/**
 * Short list: removes what a model does not need to make a valid call, and nothing that changes which calls
 * are valid.
 *
 * Dropped from the tool: `outputSchema`, `annotations`, `title`, `_meta`, `icons` (the model calls a tool by its
 * name, description and input schema; the output shape is only needed when a caller filters it, see
 * requireOutput).
 *
 * Dropped from every schema object of the input schema:
 * - documentation-only keywords: `$schema`, `$comment`, `title`, `examples`, `example`;
 * - keywords that restate the JSON Schema default: `additionalProperties: true` or `{}`, `required: []`,
 *   `uniqueItems: false`, `deprecated/readOnly/writeOnly/nullable: false`, `minItems/minLength/minProperties: 0`,
 *   an empty `description`;
 * - defaults that restate the obvious: `default: null`, `false` on a boolean, `""` on a string, `[]` on an
 *   array, `{}` on an object (a model omits such a parameter anyway);
 * - `additionalProperties: false` (option `keepClosedObjects`): the model sees only the listed properties and the
 *   tool still validates its arguments; keep it for OpenAI strict mode, which requires it.
 *
 * Always kept: `type`, `properties`, a non-empty `required`, `enum`, `const`, `format`, `pattern`, numeric and
 * length bounds, `items`, `anyOf/oneOf/allOf/not`, `$ref` and `$defs`, non-obvious `default`s, descriptions.
 */
import type { JsonSchema, ToolSpec } from "../types.js";
import { isPlainObject, mapSchema, setOwn } from "./schema-walk.js";

export interface ShortListOptions {
  /** Keep `additionalProperties: false` (needed by OpenAI strict mode). Default false. */
  keepClosedObjects?: boolean;
  /** Keep `outputSchema` on the tool (e.g. when the model may ask for output fields). Default false. */
  keepOutputSchema?: boolean;
  /** Keep `title` keywords. Default false. */
  keepTitles?: boolean;
}

/** Tool-level fields the short list removes. */
export const SHORT_LIST_TOOL_FIELDS = ["outputSchema", "annotations", "title", "_meta", "icons"] as const;
const DOC_KEYWORDS = ["$schema", "$comment", "examples", "example"];
const FALSE_DEFAULTS = ["uniqueItems", "deprecated", "readOnly", "writeOnly", "nullable"];
const ZERO_DEFAULTS = ["minItems", "minLength", "minProperties"];

function typesOf(node: JsonSchema): string[] {
  const t = node.type;
  return typeof t === "string" ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === "string") : [];
}

/** A `default` a model would assume anyway (the empty value of the parameter's only type). */
function obviousDefault(node: JsonSchema): boolean {
  if (!("default" in node)) return false;
  const d = node.default;
  if (d === null) return true;
  const types = typesOf(node);
  if (types.length !== 1) return false;
  const [t] = types;
  if (t === "boolean") return d === false;
  if (t === "string") return d === "";
  if (t === "array") return Array.isArray(d) && d.length === 0;
  if (t === "object") return isPlainObject(d) && Object.keys(d).length === 0;
  return false;
}

/** The short-list form of one schema (a new object; the input is not modified). */
export function shortenSchema(schema: JsonSchema, options: ShortListOptions = {}): JsonSchema {
  return mapSchema(schema, (node) => {
    const out: JsonSchema = {};
    const dropDefault = obviousDefault(node);
    for (const [key, value] of Object.entries(node)) {
      if (DOC_KEYWORDS.includes(key)) continue;
      if (key === "title" && !options.keepTitles && typeof value === "string") continue;
      if (key === "description" && value === "") continue;
      if (key === "required" && Array.isArray(value) && value.length === 0) continue;
      if (FALSE_DEFAULTS.includes(key) && value === false) continue;
      if (ZERO_DEFAULTS.includes(key) && value === 0) continue;
      if (key === "default" && dropDefault) continue;
      if (key === "additionalProperties") {
        if (value === true || (isPlainObject(value) && Object.keys(value).length === 0)) continue;
        if (value === false && !options.keepClosedObjects) continue;
      }
      setOwn(out, key, value);
    }
    return out;
  });
}

/** The short-list form of a tool: name, description and the shortened input schema (plus kept extras). */
export function shortenTool<T extends ToolSpec>(tool: T, options: ShortListOptions = {}): ToolSpec {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tool)) {
    if ((SHORT_LIST_TOOL_FIELDS as readonly string[]).includes(key)) {
      if (key === "outputSchema" && options.keepOutputSchema && isPlainObject(value)) out[key] = shortenSchema(value, options);
      continue;
    }
    if (key === "inputSchema" && isPlainObject(value)) out[key] = shortenSchema(value, options);
    else if (key === "description" && value === "") continue;
    else setOwn(out, key, value);
  }
  return out as unknown as ToolSpec;
}
