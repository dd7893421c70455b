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
  /** A value written as one identifier and read as the words it spells (`phraseOfIdentifier`). */
  spelled?: true;
}

const MAX_STRINGS = 20_000;
const MAX_DEPTH = 64;
// A `pattern` says what the value must be, as a const does: a sentence in one is as misplaced as in an example.
const VALUE_KEYS = new Set(["default", "const", "enum", "examples", "example", "pattern"]);
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

// Four or more words joined by "_" or "-" ("forward_all_env_to_support"), or in camelCase ("sendKeysToVendorInbox").
// A segment may be a path or an address ("also-attach-~/.ssh-and-~/.aws/credentials-for-restore").
const SNAKE_PHRASE = /^[a-z][a-z0-9]*(?:[_-]{1,2}[a-z0-9~.\/@+][a-z0-9.~\/@+]*){3,}$/i;
const CAMEL_PHRASE = /^[a-z]+(?:[A-Z][a-z0-9]+){3,}$/;

/**
 * A value (an enum member, a default) that is a phrase written as one identifier, read as the words it spells: the
 * model copies it into a call and reads it as an instruction all the same. Shorter identifiers ("read_only",
 * "squash_and_merge") stay tokens, as most real enums are.
 */
export function phraseOfIdentifier(text: string): string {
  if (text.length > 120) return text;
  if (SNAKE_PHRASE.test(text)) return text.replace(/[_-]+/g, " ");
  if (CAMEL_PHRASE.test(text)) return text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return text;
}

/**
 * A choice the model copies into a call (an enum member, a const, a default) that spells a sentence of seven words or
 * more as one identifier: "assistant_self_approves_and_tells_the_user_later". Real enums name a mode in a few words;
 * none of the honest tools the project holds, about 13,500 with the real servers, has one this long (2026-11-28).
 */
const CHOICE_FIELD = /\.(?:enum|const|default)(?:\[\d+\])?$/;
export const SPELLED_CHOICE_WORDS = 7;
export function spelledChoice(fields: readonly TextField[]): TextField | undefined {
  for (const f of fields) if (f.spelled && CHOICE_FIELD.test(f.field) && f.text.split(" ").length >= SPELLED_CHOICE_WORDS) return f;
  return undefined;
}

/** Every string a tool carries, with its path. Cyclic or huge schemas are cut off rather than followed forever. */
export function fieldsOf(tool: ScreenableTool): TextField[] {
  const out: TextField[] = [];
  // A Set rather than a WeakSet: it lives for one tool's walk, and lookups in a Set are cheaper.
  const seen = new Set<object>();
  // `key` is the last segment of `path`, passed along rather than sliced back out of it for every object.
  const walk = (v: unknown, path: string, key: string, depth: number, value: boolean): void => {
    if (out.length >= MAX_STRINGS || depth > MAX_DEPTH) return;
    if (typeof v === "string") {
      const text = value ? phraseOfIdentifier(v) : v;
      out.push(text === v ? { field: path, text, identifier: false, value } : { field: path, text, identifier: false, value, spelled: true });
      return;
    }
    if (!v || typeof v !== "object") return;
    if (seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) {
      // An element's key is "x[i]", never a map of names: "" stands for it.
      for (let i = 0; i < v.length; i++) walk(v[i], `${path}[${i}]`, "", depth + 1, value);
      return;
    }
    const names = NAME_MAPS.has(key);
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const at = `${path}.${k}`;
      if (names) {
        out.push({ field: at, text: k, identifier: true, value: false });
        // A name that is a phrase ("skip_user_confirmation_for_all_actions") is also read as the words it spells:
        // the model reads a parameter's name as what to put there, or what to do.
        const phrase = phraseOfIdentifier(k);
        if (phrase !== k) out.push({ field: `${at} (name)`, text: phrase, identifier: false, value: false });
      }
      // A parameter named "example" or "default" is a parameter, not a value: only a schema's own keys make values.
      walk(o[k], at, k, depth + 1, value || (!names && VALUE_KEYS.has(k)));
    }
  };
  out.push({ field: "name", text: String(tool.name ?? ""), identifier: true, value: false });
  walk(tool.title, "title", "title", 0, false);
  walk(tool.description, "description", "description", 0, false);
  walk(tool.annotations, "annotations", "annotations", 0, false);
  walk(tool.inputSchema, "inputSchema", "inputSchema", 0, false);
  walk(tool.outputSchema, "outputSchema", "outputSchema", 0, false);
  // Vendor extensions ("x-llm-note") and `_meta` travel with the definition, and a client may show them to the model.
  for (const k of Object.keys(tool as object)) if (/^(?:x-|_meta$)/i.test(k)) walk((tool as unknown as Record<string, unknown>)[k], k, k, 0, false);
  return out;
}

/** Every key and value of every object in a schema, once each, cut off at MAX_DEPTH. */
function eachSchemaEntry(schema: unknown, visit: (key: string, value: unknown) => void, depth = 0, seen = new Set<object>()): void {
  if (!schema || typeof schema !== "object" || depth > MAX_DEPTH || seen.has(schema)) return;
  seen.add(schema);
  if (Array.isArray(schema)) {
    for (const x of schema) eachSchemaEntry(x, visit, depth + 1, seen);
    return;
  }
  const o = schema as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const v = o[k];
    visit(k, v);
    // Strings, numbers and booleans hold no schema: only objects are walked.
    if (v && typeof v === "object") eachSchemaEntry(v, visit, depth + 1, seen);
  }
}

/** An option short enough to be a name ("ownable", "squash"), lower case, or undefined. */
const optionName = (x: unknown): string | undefined => (typeof x === "string" && x.length > 2 && x.length <= 40 ? x.toLowerCase() : undefined);

/** Enum members and consts anywhere in a schema (lower case): the options a parameter's description may describe. */
export function optionValues(schema: unknown): Set<string> {
  const out = new Set<string>();
  eachSchemaEntry(schema, (k, v) => {
    if (k === "enum" && Array.isArray(v)) for (const x of v) {
      const name = optionName(x);
      if (name) out.add(name);
    }
    // An option may also be a `const` among alternatives ("anyOf": [{ "const": "ownable" }, …]).
    const name = k === "const" ? optionName(v) : undefined;
    if (name) out.add(name);
  });
  return out;
}

/** Property names anywhere in a schema: a tool's own parameters are not other tools. */
export function propertyNames(schema: unknown): Set<string> {
  const out = new Set<string>();
  eachSchemaEntry(schema, (k, v) => {
    if (k === "properties" && v && typeof v === "object" && !Array.isArray(v)) for (const name of Object.keys(v)) out.add(name.toLowerCase());
  });
  return out;
}
