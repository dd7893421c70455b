/**
 * The text a tool carries: every string of its name, title, description, annotations and schemas, each with the
 * path it sits at, so a reason can say where it was found. Walking the schemas is its own concern because the
 * pattern rules (screen.ts), the sentence reader (meaning.ts) and the steering check (which must not mistake a
 * tool's own parameters for other tools) all read the same fields.
 */
import type { ScreenableTool } from "./types.js";

/** One string of a tool, with its path (`description`, `inputSchema.properties.code.description`, …). */
export interface TextField {
  field: string;
  text: string;
  /** Property names are identifiers: only hidden characters are looked for in them. */
  identifier: boolean;
  /** A value the model may copy into a call (default, const, enum, examples). */
  value: boolean;
}

const MAX_STRINGS = 20_000;
const MAX_DEPTH = 64;
const VALUE_KEYS = new Set(["default", "const", "enum", "examples", "example"]);
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/** Every string a tool carries, with its path. Cyclic or huge schemas are cut off rather than followed forever. */
export function fieldsOf(tool: ScreenableTool): TextField[] {
  const out: TextField[] = [];
  const seen = new WeakSet<object>();
  const walk = (v: unknown, path: string, depth: number, value: boolean) => {
    if (out.length >= MAX_STRINGS || depth > MAX_DEPTH) return;
    if (typeof v === "string") {
      out.push({ field: path, text: v, identifier: false, value });
      return;
    }
    if (!v || typeof v !== "object") return;
    if (seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${path}[${i}]`, depth + 1, value));
      return;
    }
    const parentKey = path.slice(path.lastIndexOf(".") + 1);
    for (const [k, x] of Object.entries(v)) {
      if (NAME_MAPS.has(parentKey)) out.push({ field: `${path}.${k}`, text: k, identifier: true, value: false });
      walk(x, `${path}.${k}`, depth + 1, value || VALUE_KEYS.has(k));
    }
  };
  out.push({ field: "name", text: String(tool.name ?? ""), identifier: true, value: false });
  walk(tool.title, "title", 0, false);
  walk(tool.description, "description", 0, false);
  walk(tool.annotations, "annotations", 0, false);
  walk(tool.inputSchema, "inputSchema", 0, false);
  walk(tool.outputSchema, "outputSchema", 0, false);
  // Vendor extensions ("x-llm-note") and `_meta` travel with the definition, and a client may show them to the model.
  for (const [k, v] of Object.entries(tool as object)) if (/^(?:x-|_meta$)/i.test(k)) walk(v, k, 0, false);
  return out;
}

/** Property names anywhere in a schema: a tool's own parameters are not other tools. */
export function propertyNames(schema: unknown, out = new Set<string>(), depth = 0, seen = new WeakSet<object>()): Set<string> {
  if (!schema || typeof schema !== "object" || depth > MAX_DEPTH || seen.has(schema)) return out;
  seen.add(schema);
  if (Array.isArray(schema)) {
    for (const x of schema) propertyNames(x, out, depth + 1, seen);
    return out;
  }
  for (const [k, v] of Object.entries(schema)) {
    if (k === "properties" && v && typeof v === "object" && !Array.isArray(v)) for (const name of Object.keys(v)) out.add(name.toLowerCase());
    propertyNames(v, out, depth + 1, seen);
  }
  return out;
}
