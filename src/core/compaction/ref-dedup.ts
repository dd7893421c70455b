/**
 * $ref dedup: repeated subschemas are hoisted into a definitions block and replaced by `{"$ref": ...}`, only
 * when that saves tokens. A `$ref` costs about 10 tokens, so small repeats (`{"type":"string"}`) stay inline;
 * large ones (a shared `parent` object, a filter DSL) are written once.
 *
 * - `dedupSchema`: within one schema (definitions go to its own `$defs`, or `definitions` when it uses those).
 *   The result is a self-contained JSON Schema, valid wherever the provider resolves local `$ref`s.
 * - `dedupAcrossTools`: across the tools of a text catalog, with one shared definitions block the tools refer
 *   to. Only for renderings the model reads as text (the pool, a Phase-2 text block): function-calling APIs
 *   need each tool's schema self-contained.
 * - `inlineRefs`: the inverse (resolves local refs), for providers that do not resolve `$ref` and for checks.
 *
 * Existing `$defs` keep working: their entries are reused when an inline copy matches them, and refs into them
 * are rewritten when definitions move to a shared block. A schema whose refs point anywhere but a definitions
 * entry (`#/properties/...`), or that sets `$id`/`$anchor`, is left as it is.
 */
import type { JsonSchema, ToolSpec } from "../types.js";
import { countTokens, DEFAULT_ENCODING, type TokenEncoding } from "../tokens/count.js";
import { canonicalJson, isPlainObject, mapSchema, pointerSegment, replaceSubschemas, setOwn, unescapePointer, walkSchema } from "./schema-walk.js";

export interface RefDedupOptions {
  /** Encoding used to decide whether a hoist pays off. Default cl100k_base. */
  encoding?: TokenEncoding;
  /** Smallest estimated saving (tokens) for one hoist. Default 1. */
  minSaving?: number;
  /** Upper bound of hoists per document (each one re-scans the document). Default 64. */
  maxHoists?: number;
}

type DefsKeyword = "$defs" | "definitions";

/** Schemas sharing one definitions block, plus where each came from. */
interface DefsDocument {
  roots: JsonSchema[];
  defs: Record<string, JsonSchema>;
  keyword: DefsKeyword;
}

const DEF_REF = /^#\/(\$defs|definitions)\/([^/]+)$/;
const SCOPE_KEYWORDS = ["$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveRef", "$recursiveAnchor"];

/** Why a schema cannot take part in dedup (refs that are not definitions entries, scope keywords), or undefined. */
export function dedupBlocker(schema: JsonSchema): string | undefined {
  let reason: string | undefined;
  walkSchema(schema, (node, path) => {
    if (reason) return;
    for (const k of SCOPE_KEYWORDS) if (k in node && !(k === "$id" && path.length === 0)) reason = `uses ${k}`;
    const ref = node.$ref;
    if (typeof ref === "string" && !DEF_REF.test(ref)) reason = `has $ref "${ref}" outside a definitions block`;
  });
  return reason;
}

function defsKeywordOf(schema: JsonSchema): DefsKeyword {
  return isPlainObject(schema.definitions) && !isPlainObject(schema.$defs) ? "definitions" : "$defs";
}

function withoutDefs(schema: JsonSchema): JsonSchema {
  const { $defs: _a, definitions: _b, ...rest } = schema;
  return rest;
}

function refTo(keyword: DefsKeyword, name: string): JsonSchema {
  return { $ref: `#/${keyword}/${pointerSegment(name)}` };
}

/** A readable definition name from where a subschema sat: the property it described, else "def". */
function nameFromPath(path: readonly string[]): string {
  for (let i = path.length - 1; i > 0; i--) {
    if (path[i - 1] === "properties" || path[i - 1] === "$defs" || path[i - 1] === "definitions") {
      const suffix = path.slice(i + 1).includes("items") ? "Item" : "";
      return (path[i].replace(/[^A-Za-z0-9_]/g, "_") || "def") + suffix;
    }
  }
  return "def";
}

function uniqueName(base: string, taken: Record<string, unknown>): string {
  if (!Object.hasOwn(taken, base)) return base;
  let n = 2;
  while (Object.hasOwn(taken, `${base}${n}`)) n++;
  return `${base}${n}`;
}

interface Occurrence {
  json: string;
  count: number;
  defName?: string;
  firstPath: readonly string[];
  node: JsonSchema;
}

/** One greedy hoist: the repeat with the largest estimated saving, or undefined when none pays. */
function bestHoist(doc: DefsDocument, options: Required<RefDedupOptions>, sizes: Map<string, number>): Occurrence | undefined {
  const tokenize = (text: string, encoding: TokenEncoding) => {
    let n = sizes.get(text);
    if (n === undefined) sizes.set(text, (n = countTokens(text, encoding)));
    return n;
  };
  const seen = new Map<string, Occurrence>();
  const visit = (root: JsonSchema, defName?: string) =>
    walkSchema(root, (node, path) => {
      const isDefRoot = defName !== undefined && path.length === 0;
      if (path.length === 0 && !isDefRoot) return; // a tool's root schema stays in place
      const key = canonicalJson(node);
      let occ = seen.get(key);
      if (!occ) seen.set(key, (occ = { json: key, count: 0, firstPath: defName ? [doc.keyword, defName, ...path] : path, node }));
      if (isDefRoot) occ.defName ??= defName;
      else occ.count++;
    });
  for (const root of doc.roots) visit(root);
  for (const [name, def] of Object.entries(doc.defs)) visit(def, name);

  const refTokens = tokenize(JSON.stringify(refTo(doc.keyword, "someName")), options.encoding);
  let best: Occurrence | undefined;
  let bestSaving = options.minSaving - 1;
  for (const occ of seen.values()) {
    if (occ.count === 0 || (occ.count < 2 && occ.defName === undefined)) continue;
    const size = tokenize(occ.json, options.encoding);
    if (size <= refTokens) continue;
    // Writing the definition once costs its body plus `"name":` (about 4 tokens).
    const definitionCost = occ.defName !== undefined ? 0 : size + 4;
    const saving = occ.count * (size - refTokens) - definitionCost;
    if (saving > bestSaving) {
      best = occ;
      bestSaving = saving;
    }
  }
  return best;
}

/** Replaces every inline copy of `target` in the document by a ref to definition `name`. */
function applyHoist(doc: DefsDocument, target: Occurrence, name: string): DefsDocument {
  const ref = refTo(doc.keyword, name);
  const replace = (schema: JsonSchema) =>
    replaceSubschemas(schema, (node, path) => (path.length > 0 && canonicalJson(node) === target.json ? ref : undefined));
  const defs: Record<string, JsonSchema> = {};
  for (const [n, def] of Object.entries(doc.defs)) setOwn(defs, n, replace(def));
  if (!Object.hasOwn(defs, name)) setOwn(defs, name, replace(target.node));
  return { roots: doc.roots.map((r) => replace(r)), defs, keyword: doc.keyword };
}

function dedupDocument(doc: DefsDocument, options: RefDedupOptions): { doc: DefsDocument; hoisted: string[] } {
  const opts: Required<RefDedupOptions> = {
    encoding: options.encoding ?? DEFAULT_ENCODING,
    minSaving: options.minSaving ?? 1,
    maxHoists: options.maxHoists ?? 64,
  };
  const hoisted: string[] = [];
  const sizes = new Map<string, number>();
  for (let i = 0; i < opts.maxHoists; i++) {
    const best = bestHoist(doc, opts, sizes);
    if (!best) break;
    const name = best.defName ?? uniqueName(nameFromPath(best.firstPath), doc.defs);
    doc = applyHoist(doc, best, name);
    hoisted.push(name);
  }
  return { doc, hoisted };
}

export interface DedupResult {
  schema: JsonSchema;
  /** Definition names that were created or reused, in hoisting order (empty when nothing paid off). */
  hoisted: string[];
}

/**
 * Hoists repeated subschemas of one schema into its definitions block. Returns the input unchanged (same
 * object) when no hoist pays off, when the result would not be smaller, or when `dedupBlocker` objects.
 */
export function dedupSchema(schema: JsonSchema, options: RefDedupOptions = {}): DedupResult {
  if (dedupBlocker(schema)) return { schema, hoisted: [] };
  const keyword = defsKeywordOf(schema);
  const existing = isPlainObject(schema[keyword]) ? (schema[keyword] as Record<string, JsonSchema>) : {};
  const { doc, hoisted } = dedupDocument({ roots: [withoutDefs(schema)], defs: { ...existing }, keyword }, options);
  if (hoisted.length === 0) return { schema, hoisted };
  const root = doc.roots[0];
  const out: JsonSchema = { ...root, [keyword]: doc.defs };
  // The other definitions keyword, if the schema had both, is carried over untouched.
  const other = keyword === "$defs" ? "definitions" : "$defs";
  if (schema[other] !== undefined) out[other] = schema[other];
  const encoding = options.encoding ?? DEFAULT_ENCODING;
  if (countTokens(JSON.stringify(out), encoding) >= countTokens(JSON.stringify(schema), encoding)) return { schema, hoisted: [] };
  return { schema: out, hoisted };
}

/** A tool with its input (and output) schema deduped on its own. */
export function dedupTool(tool: ToolSpec, options: RefDedupOptions = {}): ToolSpec {
  const out: ToolSpec = { ...tool };
  if (isPlainObject(tool.inputSchema)) out.inputSchema = dedupSchema(tool.inputSchema, options).schema;
  if (isPlainObject(tool.outputSchema)) out.outputSchema = dedupSchema(tool.outputSchema, options).schema;
  return out;
}

/** Tools that refer to one shared definitions block (`#/$defs/NAME` means an entry of `defs`). */
export interface SharedDefsCatalog {
  defs: Record<string, JsonSchema>;
  tools: ToolSpec[];
  /** Tools left self-contained, with the reason (refs outside a definitions block, `$id`…). */
  skipped: { tool: string; reason: string }[];
  hoisted: string[];
}

/**
 * Identity of a definition including everything it refers to, so two tools' `Filter` definitions are merged
 * only when the definitions they reference are identical too.
 */
function closureKey(name: string, defs: Record<string, JsonSchema>, stack: string[] = []): string {
  if (stack.includes(name)) return `@cycle:${name}`;
  const def = defs[name];
  if (!def) return `@missing:${name}`;
  const refs: Record<string, string> = {};
  walkSchema(def, (node) => {
    const m = typeof node.$ref === "string" ? DEF_REF.exec(node.$ref) : null;
    if (m) refs[m[2]] = closureKey(unescapePointer(m[2]), defs, [...stack, name]);
  });
  return canonicalJson({ def, refs });
}

function renameRefs(schema: JsonSchema, names: Map<string, string>): JsonSchema {
  return mapSchema(schema, (node) => {
    const m = typeof node.$ref === "string" ? DEF_REF.exec(node.$ref) : null;
    if (!m) return node;
    const to = names.get(unescapePointer(m[2]));
    return to === undefined ? node : { ...node, $ref: `#/$defs/${pointerSegment(to)}` };
  });
}

/**
 * Moves definitions into one block shared by all tools (identical definitions are written once) and hoists
 * subschemas repeated across tools into it when that saves tokens. Input and output schemas both take part.
 */
export function dedupAcrossTools(tools: readonly ToolSpec[], options: RefDedupOptions = {}): SharedDefsCatalog {
  const shared: Record<string, JsonSchema> = {};
  const sharedByKey = new Map<string, string>();
  const skipped: SharedDefsCatalog["skipped"] = [];
  const roots: JsonSchema[] = [];
  const slots: { tool: number; field: "inputSchema" | "outputSchema"; root: number }[] = [];

  tools.forEach((tool, ti) => {
    for (const field of ["inputSchema", "outputSchema"] as const) {
      const schema = tool[field];
      if (!isPlainObject(schema)) continue;
      const blocker = dedupBlocker(schema);
      if (blocker) {
        skipped.push({ tool: tool.name, reason: `${field} ${blocker}` });
        continue;
      }
      const own: Record<string, JsonSchema> = {
        ...(isPlainObject(schema.definitions) ? (schema.definitions as Record<string, JsonSchema>) : {}),
        ...(isPlainObject(schema.$defs) ? (schema.$defs as Record<string, JsonSchema>) : {}),
      };
      const names = new Map<string, string>();
      for (const name of Object.keys(own)) {
        const key = closureKey(name, own);
        let to = sharedByKey.get(key);
        if (to === undefined) {
          to = uniqueName(name, shared);
          sharedByKey.set(key, to);
          shared[to] = {}; // reserve the name; filled after renaming below
        }
        names.set(name, to);
      }
      for (const [name, def] of Object.entries(own)) setOwn(shared, names.get(name) as string, renameRefs(def, names));
      slots.push({ tool: ti, field, root: roots.length });
      roots.push(renameRefs(withoutDefs(schema), names));
    }
  });

  const { doc, hoisted } = dedupDocument({ roots, defs: shared, keyword: "$defs" }, options);
  const out = tools.map((t) => ({ ...t }));
  for (const s of slots) out[s.tool][s.field] = doc.roots[s.root];
  // Never worse than the tools as they came: a shared block that does not pay for itself is dropped.
  const encoding = options.encoding ?? DEFAULT_ENCODING;
  const cost = (defs: Record<string, JsonSchema>, list: readonly ToolSpec[]) =>
    countTokens(sharedDefsLine(defs), encoding) + list.reduce((n, t) => n + countTokens(JSON.stringify(t), encoding), 0);
  if (cost(doc.defs, out) >= cost({}, tools)) return { defs: {}, tools: [...tools], skipped, hoisted: [] };
  return { defs: doc.defs, tools: out, skipped, hoisted };
}

/** The line that introduces the shared definitions block ("" when there are none). */
export function sharedDefsLine(defs: Record<string, JsonSchema>): string {
  if (Object.keys(defs).length === 0) return "";
  return `Shared definitions ("#/$defs/NAME" in any tool below refers to NAME here): ${JSON.stringify(defs)}`;
}

/** Text of a shared-definitions catalog: the definitions block, then one JSON object per tool. */
export function renderSharedDefsCatalog(catalog: SharedDefsCatalog): string {
  const head = sharedDefsLine(catalog.defs);
  return [...(head ? [head] : []), ...catalog.tools.map((t) => JSON.stringify(t))].join("\n");
}

/** Most refs `inlineRefs` writes out in one schema; real schemas inline a few dozen. */
export const MAX_INLINED_REFS = 2_000;

/**
 * Resolves local `#/$defs/…` and `#/definitions/…` refs by inlining their targets (refs are resolved against
 * `root`, default the schema itself, or against `defs` when given). A recursive definition keeps its `$ref`
 * at the point of recursion. Definitions blocks that are no longer referenced are removed.
 */
export function inlineRefs(schema: JsonSchema, defs?: Record<string, JsonSchema>): JsonSchema {
  const lookup = (keyword: string, name: string): JsonSchema | undefined => {
    if (defs) return Object.hasOwn(defs, name) ? defs[name] : undefined;
    const block = schema[keyword];
    // Own entries only: "#/$defs/__proto__" must not resolve to Object.prototype.
    return isPlainObject(block) && Object.hasOwn(block, name) && isPlainObject(block[name]) ? (block[name] as JsonSchema) : undefined;
  };
  let unresolved = false;
  let inlined = 0;
  const resolve = (node: JsonSchema, stack: string[]): JsonSchema =>
    mapSchema(node, (n) => {
      const m = typeof n.$ref === "string" ? DEF_REF.exec(n.$ref) : null;
      if (!m) return n;
      const ref = n.$ref as string;
      const target = lookup(m[1], unescapePointer(m[2]));
      // Past the budget the remaining refs stay refs: definitions that refer to the next one twice, 32 deep,
      // would otherwise be written out 2^32 times.
      if (!target || stack.includes(ref) || inlined >= MAX_INLINED_REFS) {
        unresolved = true;
        return n;
      }
      inlined++;
      const body = resolve(withoutDefs(target), [...stack, ref]);
      const { $ref: _r, ...siblings } = n;
      return Object.keys(siblings).length === 0 ? body : { ...siblings, allOf: [body] };
    });
  const out = resolve(withoutDefs(schema), []);
  if (unresolved && !defs) {
    if (schema.$defs !== undefined) out.$defs = schema.$defs;
    if (schema.definitions !== undefined) out.definitions = schema.definitions;
  }
  return out;
}
