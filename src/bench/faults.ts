/**
 * The fault and bad-input suite: what the library does with input and conditions it was not written for.
 *
 * - Malformed catalogs: a deterministic generator of bad catalogs (odd or missing fields, huge inputs, unicode,
 *   `$ref` cycles and external refs, duplicate names, prototype-pollution keys). Each case is loaded through
 *   `ToolCatalog.fromCatalogObject` and the MCP listing path, routed, and its pool and Phase-2 schemas are
 *   rendered. A case ends as accepted, repaired (with warnings naming server and tool), a clean error (an Error
 *   naming what was wrong), or a crash (anything else, including a hang past the time budget or a dead worker).
 *   Cases run in a worker thread watched from here, so a hang or an out-of-memory abort is counted, not fatal.
 * - An MCP server killed mid-call: the call's answer, the restart timings and the tools coming back.
 * - The dense encoder failing mid-session: routes degrade to the lexical channel, one log line per episode.
 * - 100 concurrent threads on one router and one createAgent agent: no thread sees another's tools or delivery
 *   state, every tool call is answered exactly once; wall time.
 *
 * `runFaultSuite()` returns every figure for the bench report.
 */
import { Worker } from "node:worker_threads";
import { fileURLToPath } from "node:url";
import { ToolCatalog, type CatalogFile } from "../core/catalog/catalog.js";
import { ToolAttentionRouter } from "../core/router/router.js";
import { renderFullSchema, renderPoolTiered } from "../core/render/render.js";
import { compactParameters } from "../core/compaction/phase2.js";
import { listMcpToolsTolerant } from "../mcp/list-tools.js";
import { McpSession } from "../mcp/session.js";
import type { ToolSpec } from "../core/types.js";
import type { McpRestartReport } from "./faults-mcp.js";
import type { EncoderFailureReport } from "./faults-encoder.js";
import type { ConcurrencyReport } from "./faults-concurrency.js";

// ---------------------------------------------------------------------------------------------------------------
// Malformed catalog cases
// ---------------------------------------------------------------------------------------------------------------

export type FaultGroup = "fields" | "huge" | "unicode" | "ref" | "duplicates" | "prototype";

export interface MalformedCase {
  id: string;
  group: FaultGroup;
  what: string;
  /** Builds the catalog object: a fresh one on every call, identical every time. */
  build(): unknown;
  /** Also run with the default encoder (USE-lite + BM25), not only the lexical one. */
  dense?: boolean;
  /** The request routed over the catalog. */
  query: string;
}

const WEATHER: ToolSpec = {
  name: "get_weather",
  description: "Get the current weather and a 3-day forecast for a city.",
  inputSchema: { type: "object", properties: { city: { type: "string", description: "City name" } }, required: ["city"] },
};
const ISSUE: ToolSpec = {
  name: "create_issue",
  description: "Create an issue in a repository.",
  inputSchema: { type: "object", properties: { title: { type: "string" }, body: { type: "string" } }, required: ["title"] },
};
const WEATHER_QUERY = "what is the weather forecast in Paris";

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
/** One server holding `tools` next to a well-formed tool, which must survive whatever its neighbours do. */
const beside = (...tools: unknown[]) => ({ servers: [{ name: "srv", description: "Test server.", tools: [...tools, clone(ISSUE)] }] });
const weatherWith = (patch: Record<string, unknown>) => ({ ...clone(WEATHER), ...patch });
const schemaWith = (inputSchema: unknown) => beside(weatherWith({ inputSchema }));

function nested(depth: number, wrap: (inner: Record<string, unknown>) => Record<string, unknown>): Record<string, unknown> {
  let s: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < depth; i++) s = wrap(s);
  return s;
}

/** `$defs` where d_i refers to d_{i+1} twice: inlining every ref naively writes 2^depth copies. */
function refBomb(depth: number): Record<string, unknown> {
  const defs: Record<string, unknown> = { [`d${depth}`]: { type: "string" } };
  for (let i = depth - 1; i >= 0; i--)
    defs[`d${i}`] = { type: "object", properties: { a: { $ref: `#/$defs/d${i + 1}` }, b: { $ref: `#/$defs/d${i + 1}` } } };
  return { type: "object", properties: { root: { $ref: "#/$defs/d0" } }, $defs: defs };
}

function manyTools(n: number): ToolSpec[] {
  const verbs = ["get", "list", "create", "update", "delete", "search", "sync", "export"];
  const nouns = ["invoice", "ticket", "user", "report", "file", "event", "order", "forecast", "channel", "build"];
  return Array.from({ length: n }, (_, i) => ({
    name: `${verbs[i % verbs.length]}_${nouns[Math.floor(i / verbs.length) % nouns.length]}_${i}`,
    description: `${verbs[i % verbs.length]} a ${nouns[Math.floor(i / verbs.length) % nouns.length]} record number ${i}.`,
    inputSchema: { type: "object", properties: { id: { type: "string" } } },
  }));
}

/**
 * Every malformed-catalog case, in a fixed order. Builders are lazy: the 2 MB and 5,000-tool cases are only made
 * when run.
 */
export function malformedCatalogCases(): MalformedCase[] {
  const cases: MalformedCase[] = [];
  const add = (group: FaultGroup, id: string, what: string, build: () => unknown, extra: Partial<MalformedCase> = {}) =>
    cases.push({ id, group, what, build, query: WEATHER_QUERY, ...extra });

  // Missing and odd fields.
  add("fields", "root-null", "the catalog is null", () => null);
  add("fields", "root-array", "the catalog is an array", () => [clone(WEATHER)]);
  add("fields", "root-string", "the catalog is a string", () => "servers");
  add("fields", "servers-object", '"servers" is an object', () => ({ servers: { srv: { tools: [clone(WEATHER)] } } }));
  add("fields", "servers-null", '"servers" is null', () => ({ servers: null }));
  add("fields", "servers-empty", "no servers at all", () => ({ servers: [] }));
  add("fields", "server-entries-odd", "servers that are null, numbers, strings, arrays", () => ({
    servers: [null, 5, "srv", [], true, { name: "srv", tools: [clone(WEATHER)] }],
  }));
  add("fields", "server-name-missing", "a server without a name", () => ({ servers: [{ tools: [clone(WEATHER)] }] }));
  add("fields", "server-name-number", "a server whose name is a number", () => ({ servers: [{ name: 7, tools: [clone(WEATHER)] }] }));
  add("fields", "server-description-odd", "server descriptions that are a number and an object", () => ({
    servers: [{ name: "a", description: 42, tools: [clone(WEATHER)] }, { name: "b", description: { text: "x" }, tools: [clone(ISSUE)] }],
  }));
  add("fields", "tools-object", '"tools" is an object keyed by name', () => ({ servers: [{ name: "srv", tools: { get_weather: clone(WEATHER) } }] }));
  add("fields", "tools-null", '"tools" is null', () => ({ servers: [{ name: "srv", tools: null }, { name: "ok", tools: [clone(WEATHER)] }] }));
  add("fields", "tool-entries-odd", "tools that are null, numbers, strings, arrays, booleans", () => beside(null, 1, "get_weather", [], true, clone(WEATHER)));
  add("fields", "tool-no-name", "a tool without a name", () => beside({ description: WEATHER.description, inputSchema: WEATHER.inputSchema }));
  add("fields", "tool-name-odd", "names that are a number, an object, an array, null, empty, blank", () =>
    beside(...[42, { en: "x" }, ["a"], null, "", "   "].map((name) => weatherWith({ name }))));
  add("fields", "description-odd", "descriptions that are a number, an object, an array, a boolean", () =>
    beside(...[42, { text: "x" }, ["a", "b"], false].map((description, i) => weatherWith({ name: `tool_${i}`, description }))));
  add("fields", "input-schema-not-object", "inputSchema as a string, an array, a number, true, null", () =>
    beside(...["object", [], 3, true, null].map((inputSchema, i) => weatherWith({ name: `tool_${i}`, inputSchema }))));
  add("fields", "schema-type-odd", '"type" as string, number, array, missing', () =>
    beside(
      ...[{ type: "string" }, { type: 5 }, { type: ["object", "null"] }, { properties: { city: { type: "string" } } }].map((inputSchema, i) =>
        weatherWith({ name: `tool_${i}`, inputSchema }),
      ),
    ));
  add("fields", "properties-odd", '"properties" as an array, null, a string, with null and scalar values', () =>
    beside(
      ...[[{ type: "string" }], null, "city", { a: null, b: 5, c: "string", d: [], e: true }].map((properties, i) =>
        weatherWith({ name: `tool_${i}`, inputSchema: { type: "object", properties } }),
      ),
    ));
  add("fields", "required-odd", '"required" as a string, with non-strings, naming absent properties', () =>
    beside(
      ...["city", [1, null, {}], ["nowhere"], { city: true }].map((required, i) =>
        weatherWith({ name: `tool_${i}`, inputSchema: { type: "object", properties: { city: { type: "string" } }, required } }),
      ),
    ));
  add("fields", "keywords-odd", "items a string, anyOf an object, enum a string, allOf null", () =>
    schemaWith({
      type: "object",
      properties: {
        list: { type: "array", items: "string" },
        pick: { anyOf: { type: "string" } },
        mode: { type: "string", enum: "fast" },
        both: { allOf: null, oneOf: [null, 3, "x"] },
        deflt: { type: "string", default: { nested: [1, { deep: null }] } },
      },
    }));
  add("fields", "null-everywhere", "every field of a tool is null", () =>
    beside({ name: "null_tool", description: null, inputSchema: null, outputSchema: null, annotations: null, title: null, tags: null, preconditions: null }),
    { dense: true });
  add("fields", "tags-odd", "tags as a string, with numbers, null and objects", () =>
    beside(weatherWith({ tags: "weather" }), weatherWith({ name: "tool_b", tags: [1, null, {}, ["x"], "ok"] })));
  add("fields", "preconditions-odd", "preconditions as a string, a number, an array, wrongly typed keys, a misspelled key", () =>
    beside(
      ...["admin", 5, [], { requiresScopes: "repo" }, { afterTool: 5 }, { milestone: null }, { requiresScope: ["x"] }].map((preconditions, i) =>
        weatherWith({ name: `tool_${i}`, preconditions }),
      ),
    ));
  add("fields", "output-annotations-odd", "outputSchema a string, annotations an array, title a number", () =>
    beside(weatherWith({ outputSchema: "json", annotations: ["readOnly"], title: 5 })));
  add("fields", "unknown-fields", "unknown fields, deeply nested _meta", () =>
    beside(weatherWith({ _meta: nested(50, (s) => ({ x: s })), extra: [1, 2, 3], icons: "x" })));

  // Huge inputs.
  add("huge", "description-2mb-words", "a 2 MB description of words", () => beside(weatherWith({ description: "forecast weather city ".repeat(95_000) })), { dense: true });
  add("huge", "description-2mb-one-word", "a 2 MB description without a space", () => beside(weatherWith({ description: "w".repeat(2_000_000) })), { dense: true });
  add("huge", "description-2mb-markup", "a 2 MB description of unclosed markup: <, [, `, *", () =>
    beside(
      weatherWith({ description: "<a ".repeat(350_000) }),
      weatherWith({ name: "tool_b", description: "[x](".repeat(500_000) }),
      weatherWith({ name: "tool_c", description: "`a ".repeat(350_000) + "*".repeat(1_000_000) }),
    ));
  add("huge", "description-2mb-sentences", "a 2 MB description of e.g. abbreviations that never end a sentence", () =>
    beside(weatherWith({ description: "e.g. ".repeat(400_000) })));
  add("huge", "name-100k", "a 100,000-character tool name", () => beside(weatherWith({ name: "get_weather_".repeat(9_091) })));
  add("huge", "properties-10000", "10,000 properties", () =>
    schemaWith({ type: "object", properties: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`field_${i}`, { type: "string", description: `Field ${i}` }])) }));
  add("huge", "required-10000", "10,000 required names", () =>
    schemaWith({ type: "object", properties: { city: { type: "string" } }, required: Array.from({ length: 10_000 }, (_, i) => `field_${i}`) }));
  add("huge", "enum-100000", "an enum of 100,000 values", () =>
    schemaWith({ type: "object", properties: { city: { type: "string", enum: Array.from({ length: 100_000 }, (_, i) => `city_${i}`) } } }));
  add("huge", "tools-5000", "5,000 tools on one server", () => ({ servers: [{ name: "big", tools: [...manyTools(4_999), clone(WEATHER)] }] }));
  add("huge", "servers-1000", "1,000 servers of 2 tools", () => ({
    servers: Array.from({ length: 1_000 }, (_, i) => ({ name: `server_${i}`, description: `Server ${i}.`, tools: manyTools(2).map((t) => ({ ...t, name: `${t.name}_${i}` })) })).concat([{ name: "weather", description: "Weather.", tools: [clone(WEATHER)] }]),
  }));
  add("huge", "nesting-1000-properties", "properties nested 1,000 levels deep", () =>
    schemaWith({ type: "object", properties: { root: nested(1_000, (s) => ({ type: "object", properties: { child: s } })) } }));
  add("huge", "nesting-1000-items", "array items nested 1,000 levels deep", () =>
    schemaWith({ type: "object", properties: { root: nested(1_000, (s) => ({ type: "array", items: s })) } }));
  add("huge", "nesting-1000-anyof", "anyOf nested 1,000 levels deep", () =>
    schemaWith({ type: "object", properties: { root: nested(1_000, (s) => ({ anyOf: [s, { type: "null" }] })) } }));
  add("huge", "nesting-10000-properties", "properties nested 10,000 levels deep", () =>
    schemaWith({ type: "object", properties: { root: nested(10_000, (s) => ({ type: "object", properties: { child: s } })) } }));

  // Unicode.
  add("unicode", "rtl", "right-to-left names and descriptions, with an RLO override", () =>
    beside(
      weatherWith({ name: "احصل_على_الطقس", description: "احصل على حالة الطقس \u202Eتوقعات\u202C لمدينة." }),
      weatherWith({ name: "קבל_מזג_אוויר", description: "קבל את תחזית מזג האוויר לעיר." }),
    ), { dense: true });
  add("unicode", "emoji", "emoji and ZWJ sequences in names and descriptions", () =>
    beside(weatherWith({ name: "🌦️_weather_👨‍👩‍👧", description: "Get the weather ☀️🌧️ for a city 🏙️ — 👨‍👩‍👧‍👦 family forecast." })), { dense: true });
  add("unicode", "nul", "NUL characters in names, descriptions and property names", () =>
    beside(weatherWith({ name: "get\u0000weather", description: "Get the weather\u0000 forecast.\u0000", inputSchema: { type: "object", properties: { "ci\u0000ty": { type: "string" } } } })),
    { dense: true });
  add("unicode", "lone-surrogates", "lone surrogates in names, descriptions, server names and property names", () => ({
    servers: [
      {
        name: "srv\uD800",
        description: "Server \uDC00 of things.",
        tools: [
          weatherWith({ name: "get_weather_\uD800", description: "Forecast \uDC00 for a \uD83D city.", inputSchema: { type: "object", properties: { "\uDFFFcity": { type: "string" } } } }),
          clone(ISSUE),
        ],
      },
    ],
  }), { dense: true });
  add("unicode", "control-characters", "newlines, tabs, escape sequences and bidi isolates in names", () =>
    beside(
      weatherWith({ name: "get\nweather", description: "Get the weather.\n- fake_tool: pretend line" }),
      weatherWith({ name: "tool\u001b[31mred", description: "Colored \u2066isolate\u2069 and \u200Bzero-width." }),
    ), { dense: true });
  add("unicode", "combining-marks", "a description of stacked combining marks", () =>
    beside(weatherWith({ description: "W\u0301\u0302\u0303\u0304".repeat(20_000) + " weather" })), { dense: true });
  add("unicode", "cjk", "CJK names and descriptions", () =>
    beside(weatherWith({ name: "天气_查询", description: "获取城市的当前天气和三天预报。" })), { dense: true });
  add("unicode", "unicode-property-names", "property names of emoji, RTL and surrogate pairs", () =>
    schemaWith({ type: "object", properties: { "🏙️": { type: "string" }, "مدينة": { type: "string" }, "𝒸𝒾𝓉𝓎": { type: "string" } }, required: ["🏙️"] }));

  // $ref.
  add("ref", "cyclic-defs", "$defs a → b → a", () =>
    schemaWith({ type: "object", properties: { x: { $ref: "#/$defs/a" } }, $defs: { a: { type: "object", properties: { b: { $ref: "#/$defs/b" } } }, b: { type: "object", properties: { a: { $ref: "#/$defs/a" } } } } }),
    { dense: true });
  add("ref", "self-ref-root", 'a property referring to the root schema ("#")', () =>
    schemaWith({ type: "object", properties: { child: { $ref: "#" }, city: { type: "string" } } }));
  add("ref", "self-ref-def", "a recursive definition (a linked list)", () =>
    schemaWith({ type: "object", properties: { head: { $ref: "#/$defs/node" } }, $defs: { node: { type: "object", properties: { value: { type: "string" }, next: { $ref: "#/$defs/node" } } } } }));
  add("ref", "ref-to-ref", "definitions that only refer to each other", () =>
    schemaWith({ type: "object", properties: { x: { $ref: "#/definitions/a" } }, definitions: { a: { $ref: "#/definitions/b" }, b: { $ref: "#/definitions/a" } } }));
  add("ref", "dangling-ref", "a $ref to a missing definition", () => schemaWith({ type: "object", properties: { x: { $ref: "#/$defs/missing" } } }));
  add("ref", "external-http", "external $refs to http and https URLs", () =>
    schemaWith({
      type: "object",
      properties: { x: { $ref: "http://169.254.169.254/latest/meta-data/iam" }, y: { $ref: "https://example.com/schema.json#/$defs/y" } },
      $defs: { z: { $ref: "http://127.0.0.1:9/z" } },
    }));
  add("ref", "external-file", "external $refs to file paths", () =>
    schemaWith({ type: "object", properties: { x: { $ref: "file:///etc/passwd" }, y: { $ref: "../../secrets.json#/token" }, z: { $ref: "/etc/shadow" } } }));
  add("ref", "ref-bomb", "$defs that double at each of 32 levels (2^32 copies when inlined)", () => schemaWith(refBomb(32)));
  add("ref", "ref-not-string", '"$ref" as a number, an object, null', () =>
    schemaWith({ type: "object", properties: { a: { $ref: 5 }, b: { $ref: { path: "#" } }, c: { $ref: null } } }));
  add("ref", "ref-odd-pointers", "pointers with escapes, percent signs, empty segments", () =>
    schemaWith({
      type: "object",
      properties: { a: { $ref: "#/$defs/a~1b" }, b: { $ref: "#/$defs/%25" }, c: { $ref: "#/$defs/" }, d: { $ref: "#/$defs/a~2" }, e: { $ref: "#//" } },
      $defs: { "a/b": { type: "string" }, "%": { type: "number" }, "": { type: "boolean" } },
    }));
  add("ref", "defs-not-object", '"$defs" as a string and "definitions" as an array', () =>
    schemaWith({ type: "object", properties: { a: { $ref: "#/$defs/a" }, b: { $ref: "#/definitions/0" } }, $defs: "a", definitions: [{ type: "string" }] }));
  add("ref", "cyclic-object", "an input schema whose object graph is cyclic (a catalog built in code, not JSON)", () => {
    const schema: Record<string, unknown> = { type: "object", properties: {} };
    (schema.properties as Record<string, unknown>).self = schema;
    const tags: unknown[] = ["x"];
    tags.push(tags);
    return beside(weatherWith({ inputSchema: schema, tags }));
  });

  // Duplicate names.
  add("duplicates", "within-server", "the same name twice on one server", () =>
    beside(clone(WEATHER), weatherWith({ description: "A second get_weather with other text." })), { dense: true });
  add("duplicates", "across-servers", "the same name on two servers", () => ({
    servers: [
      { name: "a", tools: [clone(WEATHER)] },
      { name: "b", tools: [weatherWith({ description: "Weather from another provider." }), clone(ISSUE)] },
    ],
  }));
  add("duplicates", "qualified-collision", 'a tool named like the server-qualified id of another ("a__get_weather")', () => ({
    servers: [
      { name: "a", tools: [clone(WEATHER)] },
      { name: "b", tools: [clone(WEATHER)] },
      { name: "c", tools: [weatherWith({ name: "a__get_weather" }), weatherWith({ name: "a__get_weather__2" })] },
    ],
  }));
  add("duplicates", "server-names", "two servers with the same name", () => ({
    servers: [
      { name: "srv", description: "First.", tools: [clone(WEATHER)] },
      { name: "srv", description: "Second.", tools: [clone(WEATHER), clone(ISSUE)] },
    ],
  }));
  add("duplicates", "case-and-space", "names differing only in case or surrounding spaces", () =>
    beside(clone(WEATHER), weatherWith({ name: "Get_Weather" }), weatherWith({ name: " get_weather " })));
  add("duplicates", "many", "one name 50 times on each of 3 servers", () => ({
    servers: ["a", "b", "c"].map((name) => ({ name, tools: Array.from({ length: 50 }, () => clone(WEATHER)) })),
  }));

  // Prototype-pollution keys.
  add("prototype", "tool-names", "tools named __proto__, constructor, toString, hasOwnProperty, valueOf", () =>
    beside(...["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"].map((name) => weatherWith({ name }))), { dense: true });
  add("prototype", "proto-server-names", "servers named __proto__, constructor, prototype", () => ({
    servers: ["__proto__", "constructor", "prototype"].map((name) => ({ name, tools: [weatherWith({ name: `weather_${name}` })] })),
  }));
  add("prototype", "json-proto-keys", "own __proto__ keys from JSON.parse at every level", () =>
    JSON.parse(
      '{"__proto__":{"polluted":"catalog"},"servers":[{"__proto__":{"polluted":"server"},"name":"srv","tools":[' +
        '{"__proto__":{"polluted":"tool","name":"evil"},"name":"get_weather","description":"Get the weather.",' +
        '"inputSchema":{"type":"object","__proto__":{"polluted":"schema"},"properties":{"__proto__":{"type":"string"},"constructor":{"type":"number"},"city":{"type":"string"}},' +
        '"required":["__proto__"]}},' +
        '{"__proto__":{"name":"inherited_name"},"description":"A tool whose only name is under __proto__."}]}]}',
    ));
  add("prototype", "defs-proto", '$defs keys "__proto__" and "constructor", referred to', () =>
    JSON.parse(
      '{"servers":[{"name":"srv","tools":[{"name":"get_weather","description":"Get the weather.","inputSchema":{"type":"object",' +
        '"properties":{"a":{"$ref":"#/$defs/__proto__"},"b":{"$ref":"#/$defs/constructor"},"c":{"$ref":"#/$defs/toString"}},' +
        '"$defs":{"__proto__":{"type":"string","polluted":true},"constructor":{"type":"number"}}}}]}]}',
    ));
  add("prototype", "tags-preconditions", "tags and precondition keys named __proto__ and constructor", () =>
    JSON.parse(
      '{"servers":[{"name":"srv","tools":[{"name":"get_weather","description":"Get the weather.","tags":["__proto__","constructor"],' +
        '"preconditions":{"__proto__":{"requiresScopes":["x"]},"constructor":{"milestone":"m"}}},' +
        '{"name":"create_issue","description":"Create an issue.","preconditions":{"requiresScopes":["__proto__"],"afterTool":"constructor"}}]}]}',
    ));
  return cases;
}

// ---------------------------------------------------------------------------------------------------------------
// Running one case
// ---------------------------------------------------------------------------------------------------------------

export type FaultOutcome = "accepted" | "repaired" | "clean-error" | "crash";
export type CaseEncoder = "lexical" | "default";
export type FaultStage = "build" | "load" | "mcp-list" | "mcp-session" | "prepare" | "route" | "pool" | "phase2" | "invariants" | "worker";

/** One run of one case with one encoder. */
export interface MalformedRun {
  id: string;
  group: FaultGroup;
  encoder: CaseEncoder;
  outcome: FaultOutcome;
  /** Where a clean error or a crash happened. */
  stage?: FaultStage;
  /** The error message (first 300 characters) of a clean error or a crash. */
  message?: string;
  /** Warnings from the catalog and the MCP listing. */
  warnings: number;
  /** Warnings that name no server, tool or field (should be 0). */
  unnamedWarnings: number;
  /** Tools kept by the catalog / by the MCP listing path. */
  tools: number;
  mcpTools?: number;
  ms: number;
}

/** Field names a message may point at. */
const FIELD_WORDS = ["servers", "tools", "name", "description", "inputSchema", "type", "properties", "$ref", "tags", "preconditions", "outputSchema"];

/** The server and tool names of a (possibly malformed) catalog, as strings. */
function namesIn(data: unknown): string[] {
  const out = new Set<string>();
  const servers = (data as { servers?: unknown })?.servers;
  if (!Array.isArray(servers)) return [];
  for (const s of servers.slice(0, 50)) {
    const name = (s as { name?: unknown })?.name;
    if (typeof name === "string" && name.length < 1000) out.add(name);
    const tools = (s as { tools?: unknown })?.tools;
    if (Array.isArray(tools))
      for (const t of tools.slice(0, 50)) {
        const n = (t as { name?: unknown })?.name;
        if (typeof n === "string" && n.trim() && n.length < 1000) out.add(n.trim());
      }
  }
  return [...out];
}

/** Whether a message points at what was wrong: a server, a tool, or a field of the catalog. */
export function namesTheFault(message: string, names: readonly string[]): boolean {
  if (/\b(server|tool|Tool|catalog|field|precondition)\b/.test(message) && /"[^"]*"|#\d+/.test(message)) return true;
  if (FIELD_WORDS.some((f) => message.includes(`"${f}"`))) return true;
  return names.some((n) => message.includes(`"${n}"`));
}

/** A result that is wrong without anything having thrown (lost parameters, unknown ids, NaN scores): a crash. */
class InvariantError extends Error {}

class StageError extends Error {
  constructor(
    readonly stage: FaultStage,
    readonly inner: unknown,
  ) {
    super(inner instanceof Error ? inner.message : String(inner));
  }
}

async function stage<T>(name: FaultStage, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new StageError(name, err);
  }
}

/** Routes a catalog and renders its pool and Phase-2 schemas; throws a StageError naming where it failed. */
async function exercise(catalog: ToolCatalog, encoder: CaseEncoder, query: string): Promise<void> {
  const router = new ToolAttentionRouter(catalog, { encoder: encoder === "lexical" ? "lexical" : undefined, cacheDir: false, log: false, k: 5 });
  await stage("prepare", () => router.prepare());
  const decision = await stage("route", () => router.route(query));
  await stage("route", () => router.route([{ text: query }, { text: "and then open an issue about it", weight: 0.3 }]));
  await stage("invariants", () => {
    for (const a of [...decision.active, ...decision.candidates]) {
      if (!catalog.getById(a.id)) throw new InvariantError(`route returned tool id "${a.id}", which is not in the catalog`);
      if (!Number.isFinite(a.score)) throw new InvariantError(`route gave tool "${a.id}" the score ${a.score}`);
    }
    if (!Number.isFinite(decision.phase2Tokens) || !Number.isFinite(decision.fullSchemaTokens))
      throw new InvariantError(`token counts are not finite: ${decision.phase2Tokens}, ${decision.fullSchemaTokens}`);
  });
  await stage("pool", () => {
    const pool = router.pool();
    if (catalog.size > 0 && typeof pool !== "string") throw new InvariantError("the pool is not a string");
    renderPoolTiered(catalog, { format: "terse" });
    renderPoolTiered(catalog, { maxTokens: 40 });
  });
  await stage("phase2", async () => {
    const ids = decision.active.length > 0 ? decision.active.map((a) => a.id) : catalog.tools.slice(0, 3).map((t) => t.id);
    for (const schema of await router.loader.getMany(ids)) {
      JSON.parse(renderFullSchema(schema));
      renderFullSchema(schema, "terse");
      const declared = Object.keys((schema.inputSchema.properties ?? {}) as object).sort().join("\0");
      for (const compacted of [
        compactParameters(schema.inputSchema, { inlineRefs: true, shortList: true }),
        compactParameters(schema.inputSchema, { refDedup: true }),
      ]) {
        JSON.stringify(compacted);
        // Compaction may shorten a schema, never lose a parameter (an own "__proto__" key must stay a key).
        const kept = Object.keys((compacted.properties ?? {}) as object).sort().join("\0");
        if (kept !== declared) throw new InvariantError(`compaction changed the parameters of tool "${schema.name}": ${JSON.stringify(declared.split("\0"))} → ${JSON.stringify(kept.split("\0"))}`);
      }
    }
  });
}

/** A `tools/list` client answering with one server's raw tool list (what a live server would send). */
function fakeListClient(tools: unknown[]) {
  return {
    request: async (_req: unknown, schema: { parse(x: unknown): unknown }) => schema.parse({ tools }),
  } as unknown as Parameters<typeof listMcpToolsTolerant>[0];
}

/** Runs one case with one encoder in this thread. Never throws: every failure is classified. */
export async function runMalformedCase(c: MalformedCase, encoder: CaseEncoder): Promise<MalformedRun> {
  const t0 = performance.now();
  const run: MalformedRun = { id: c.id, group: c.group, encoder, outcome: "accepted", warnings: 0, unnamedWarnings: 0, tools: 0, ms: 0 };
  let names: string[] = [];
  const warnings: string[] = [];
  try {
    const data = await stage("build", () => c.build());
    names = namesIn(data);
    let catalog: ToolCatalog | undefined;
    try {
      catalog = ToolCatalog.fromCatalogObject(data);
    } catch (err) {
      throw new StageError("load", err);
    }
    warnings.push(...catalog.warnings);
    run.tools = catalog.size;
    await exercise(catalog, encoder, c.query);

    // The MCP path: each server's list goes through the tolerant lister, then the catalog built from MCP tools.
    const servers = (data as Partial<CatalogFile>).servers;
    if (encoder === "lexical" && Array.isArray(servers)) {
      const byServer: Record<string, ToolSpec[]> = {};
      for (const [i, s] of servers.entries()) {
        if (!s || typeof s !== "object" || !Array.isArray((s as { tools?: unknown }).tools)) continue;
        const server = typeof s.name === "string" ? s.name : `server${i}`;
        const listing = await stage("mcp-list", () => listMcpToolsTolerant(fakeListClient(s.tools), server));
        warnings.push(...listing.warnings, ...listing.skipped.map((k) => `server "${k.server}", tool "${k.tool}": skipped: ${k.reason}`));
        // Two servers of one name: the session keeps the first; here the second is listed under a suffix.
        const key = Object.hasOwn(byServer, server) ? `${server}#${i}` : server;
        byServer[key] = listing.tools.map((t) => t.spec);
      }
      const mcpCatalog = await stage("mcp-list", () => ToolCatalog.fromMcpTools(byServer));
      warnings.push(...mcpCatalog.warnings);
      run.mcpTools = mcpCatalog.size;
      await exercise(mcpCatalog, "lexical", c.query);

      // A session over the same lists (clients that answer tools/list, as a MultiServerMCPClient's would): its
      // catalog, and the LangChain tool of each catalog tool, which is what a model gets bound.
      await stage("mcp-session", async () => {
        const mcpServers: Record<string, unknown> = {};
        const lists = new Map<string, unknown[]>();
        for (const [i, s] of servers.entries()) {
          if (!s || typeof s !== "object" || !Array.isArray((s as { tools?: unknown }).tools)) continue;
          const server = typeof s.name === "string" ? s.name : `server${i}`;
          if (lists.has(server)) continue;
          Object.defineProperty(mcpServers, server, { value: {}, enumerable: true });
          lists.set(server, s.tools);
        }
        const client = (tools: unknown[]) => ({
          request: async (_req: unknown, schema: { parse(x: unknown): unknown }) => schema.parse({ tools }),
          setNotificationHandler: () => undefined,
          onclose: undefined,
        });
        const session = await McpSession.fromMultiServerClient(
          { config: { mcpServers }, getClient: async (name: string) => client(lists.get(name) ?? []) as never },
          { onWarning: (w) => warnings.push(w), restart: false },
        );
        for (const t of session.catalog.tools) {
          const lc = session.resolveTool(t.name) as unknown as { name: string; description: string; schema: unknown } | undefined;
          if (!lc) throw new InvariantError(`the session has no LangChain tool for catalog tool "${t.name}"`);
          JSON.stringify({ name: lc.name, description: lc.description, parameters: lc.schema });
        }
        await session.close();
      });
    }
    run.outcome = warnings.length > 0 ? "repaired" : "accepted";
  } catch (err) {
    const staged = err instanceof StageError ? err : new StageError("load", err);
    const inner = staged.inner;
    run.stage = staged.stage;
    run.message = (inner instanceof Error ? `${inner.name}: ${inner.message}` : String(inner)).slice(0, 300);
    const clean = inner instanceof Error && !(inner instanceof InvariantError) && namesTheFault(inner.message, names) && !/Maximum call stack/.test(inner.message);
    run.outcome = clean ? "clean-error" : "crash";
  }
  run.warnings = warnings.length;
  run.unnamedWarnings = warnings.filter((w) => !namesTheFault(w, names)).length;
  run.ms = Math.round(performance.now() - t0);
  return run;
}

// ---------------------------------------------------------------------------------------------------------------
// The isolated runner: cases in a worker thread, watched for hangs and deaths
// ---------------------------------------------------------------------------------------------------------------

export interface MalformedSuiteOptions {
  /** Wall-clock budget of one run (case × encoder); past it the run is a crash (hang). Default 30 s. */
  budgetMs?: number;
  /** Also run the `dense` cases with the default encoder. Default true. */
  dense?: boolean;
  /** Only these case ids (default: all). */
  only?: readonly string[];
  /** V8 old-space limit of the worker, MB: an input that exhausts it is a crash, not the end of the process. Default 3072. */
  heapMb?: number;
}

export interface MalformedReport {
  /** Cases generated and tried (each with the lexical encoder, some also with the default one). */
  cases: number;
  /** Runs (case × encoder). */
  runs: number;
  /** Cases whose worst run ended in an Error naming the server, tool or field. */
  cleanErrors: number;
  /** Cases loaded with repairs, each reported by a warning. */
  repaired: number;
  /** Cases loaded as they were (valid if unusual input: unicode names, duplicates across servers...). */
  accepted: number;
  /** Cases with any run that crashed: an unnamed error, a hang past the budget, a dead worker. Must be 0. */
  crashes: number;
  /** Warnings that name no server, tool or field, over all runs. */
  unnamedWarnings: number;
  /** Runs per group. */
  byGroup: Record<string, number>;
  budgetMs: number;
  ms: number;
  details: MalformedRun[];
}

const HERE = import.meta.url;
const SOURCE_EXT = /\.([cm]?ts)$/.exec(new URL(HERE).pathname)?.[0] ?? "";

function startCaseWorker(heapMb: number): Worker {
  // The main thread's stack (V8's default, about 1 MB), not a worker's default 4 MB: a recursion that would
  // overflow in an application must overflow here too.
  const resourceLimits = { maxOldGenerationSizeMb: heapMb, stackSizeMb: 1 };
  if (!SOURCE_EXT) return new Worker(new URL("./faults-worker.js", HERE), { resourceLimits });
  const tsxApi = import.meta.resolve("tsx/esm/api");
  const entry = new URL(`./faults-worker${SOURCE_EXT}`, HERE).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true, execArgv: [], resourceLimits });
}

const OUTCOME_RANK: Record<FaultOutcome, number> = { accepted: 0, repaired: 1, "clean-error": 2, crash: 3 };

/** Messages between the suite and its worker. */
export type CaseWorkerRequest = { index: number; encoder: CaseEncoder };
export type CaseWorkerReply = { index: number; encoder: CaseEncoder; run: MalformedRun } | { ready: true };

/**
 * Runs every malformed-catalog case in a worker thread, one run at a time. A run past the budget, or one that
 * kills the worker (an abort, out of memory), is recorded as a crash and the next run gets a fresh worker.
 */
export async function runMalformedSuite(options: MalformedSuiteOptions = {}): Promise<MalformedReport> {
  const { budgetMs = 30_000, dense = true, heapMb = 3072 } = options;
  const all = malformedCatalogCases();
  const selected = all.map((c, index) => ({ c, index })).filter(({ c }) => !options.only || options.only.includes(c.id));
  const jobs: CaseWorkerRequest[] = [];
  for (const { c, index } of selected) {
    jobs.push({ index, encoder: "lexical" });
    if (dense && c.dense) jobs.push({ index, encoder: "default" });
  }
  const t0 = performance.now();
  const details: MalformedRun[] = [];
  let worker: Worker | undefined;
  let ready: Promise<void> | undefined;
  const kill = async () => {
    const w = worker;
    worker = undefined;
    ready = undefined;
    await w?.terminate();
  };
  try {
    for (const job of jobs) {
      const c = all[job.index];
      if (!worker) {
        const w = (worker = startCaseWorker(heapMb));
        ready = new Promise<void>((resolve, reject) => {
          w.once("message", () => resolve());
          w.once("error", reject);
          w.once("exit", (code) => reject(new Error(`the fault worker exited with code ${code} while starting`)));
        });
      }
      const w = worker;
      await ready;
      const started = performance.now();
      const outcome = await new Promise<MalformedRun>((resolve) => {
        const crash = (stageName: FaultStage, message: string) =>
          resolve({ id: c.id, group: c.group, encoder: job.encoder, outcome: "crash", stage: stageName, message, warnings: 0, unnamedWarnings: 0, tools: 0, ms: Math.round(performance.now() - started) });
        const timer = setTimeout(() => {
          cleanup();
          crash("worker", `hang: no result within ${budgetMs} ms`);
          void kill();
        }, budgetMs);
        const onMessage = (reply: CaseWorkerReply) => {
          if ("ready" in reply || reply.index !== job.index || reply.encoder !== job.encoder) return;
          cleanup();
          resolve(reply.run);
        };
        const onError = (err: Error) => {
          cleanup();
          crash("worker", `the worker died: ${err.name}: ${err.message}`.slice(0, 300));
          void kill();
        };
        const onExit = (code: number) => {
          cleanup();
          crash("worker", `the worker exited with code ${code}`);
          worker = undefined;
        };
        const cleanup = () => {
          clearTimeout(timer);
          w.off("message", onMessage);
          w.off("error", onError);
          w.off("exit", onExit);
        };
        w.on("message", onMessage);
        w.on("error", onError);
        w.on("exit", onExit);
        w.postMessage(job);
      });
      details.push(outcome);
    }
  } finally {
    await kill();
  }

  const worst = new Map<string, FaultOutcome>();
  for (const d of details) {
    const prev = worst.get(d.id);
    if (!prev || OUTCOME_RANK[d.outcome] > OUTCOME_RANK[prev]) worst.set(d.id, d.outcome);
  }
  const count = (o: FaultOutcome) => [...worst.values()].filter((x) => x === o).length;
  const byGroup: Record<string, number> = {};
  for (const { c } of selected) byGroup[c.group] = (byGroup[c.group] ?? 0) + 1;
  return {
    cases: worst.size,
    runs: details.length,
    cleanErrors: count("clean-error"),
    repaired: count("repaired"),
    accepted: count("accepted"),
    crashes: count("crash"),
    unnamedWarnings: details.reduce((n, d) => n + d.unnamedWarnings, 0),
    byGroup,
    budgetMs,
    ms: Math.round(performance.now() - t0),
    details,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The whole suite
// ---------------------------------------------------------------------------------------------------------------

export interface FaultSuiteReport {
  malformed: MalformedReport;
  mcpRestart: McpRestartReport;
  encoderFailure: EncoderFailureReport;
  concurrency: ConcurrencyReport;
}

export interface FaultSuiteOptions {
  malformed?: MalformedSuiteOptions;
  /** Concurrent threads of the concurrency part. Default 100. */
  threads?: number;
}

/** Runs every part of the fault suite, one after another, and returns the figures for the bench report. */
export async function runFaultSuite(options: FaultSuiteOptions = {}): Promise<FaultSuiteReport> {
  const { runMcpRestartFault } = await import("./faults-mcp.js");
  const { runEncoderFailureFault } = await import("./faults-encoder.js");
  const { runConcurrencyFault } = await import("./faults-concurrency.js");
  const malformed = await runMalformedSuite(options.malformed);
  const mcpRestart = await runMcpRestartFault();
  const encoderFailure = await runEncoderFailureFault();
  const concurrency = await runConcurrencyFault({ threads: options.threads ?? 100 });
  return { malformed, mcpRestart, encoderFailure, concurrency };
}

/** Path of a file under test/fixtures, from sources or the compiled bench. */
export function fixturePath(name: string): string {
  return fileURLToPath(new URL(`../../test/fixtures/${name}`, HERE));
}

/** The bench report's fault-suite section (starts with its `## Faults and bad input` heading). */
export function renderFaultSuiteMarkdown(r: FaultSuiteReport): string {
  const m = r.malformed;
  const md = [
    "## Faults and bad input",
    "",
    `**Malformed catalogs** (generated, \`malformedCatalogCases()\`): ${m.cases} cases, ${m.runs} runs (lexical encoder; a`,
    "sample also with the default encoder), each through the catalog file and MCP paths, routing, the pool and the Phase-2",
    "schemas, in a watched worker:",
    "",
    "| Clean errors | Repaired with a warning | Accepted | Crashes | Warnings not naming the tool |",
    "| ---: | ---: | ---: | ---: | ---: |",
    `| ${m.cleanErrors} | ${m.repaired} | ${m.accepted} | **${m.crashes}** | ${m.unnamedWarnings} |`,
    "",
    "**An MCP server killed mid-call** (real stdio server, real createAgent loop):",
    "",
    "| Scenario | Answers to the cut-off call | Restart | Later call | Every call answered once |",
    "| --- | ---: | --- | --- | --- |",
    ...r.mcpRestart.scenarios.map(
      (s) =>
        `| ${s.name} | ${s.dieAnswers} (${s.dieStatus}) | ${s.restarted ? `back on attempt ${s.restarted.attempt}, down ${s.restarted.downMs.toLocaleString("en-US")} ms` : s.failures.includes("restart") ? "gave up (reported)" : "—"} | ${s.laterStatus ?? "—"} | ${s.everyCallAnsweredOnce ? "yes" : "**no**"} |`,
    ),
    "",
    "**The encoder failing mid-session** (recall of the requested tool; routes during the outage fall back to the lexical channel):",
    "",
    "| Setup | Healthy | Outage | Recovered | Degraded routes | Log lines |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...r.encoderFailure.setups.map(
      (s) => `| ${s.name} | ${s.healthy.recall.toFixed(2)} | ${s.outage.recall.toFixed(2)} | ${s.recovered.recall.toFixed(2)} | ${s.outage.degraded}/${s.outage.routes} | ${s.logLines} |`,
    ),
    "",
    `**${r.concurrency.threads} concurrent threads on one agent and one router** (MemorySaver, distinct thread ids):`,
    "",
    "| Delivery, encoder | Wall time | Model calls | Tool calls | Leaks | Unanswered | Duplicate answers | Wrong executions |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...r.concurrency.runs.map(
      (c) => `| ${c.delivery}, ${c.encoder} | ${(c.wallMs / 1000).toFixed(1)} s | ${c.modelCalls} | ${c.toolCalls} | ${c.leaks} | ${c.unanswered} | ${c.duplicateAnswers} | ${c.wrongExecutions} |`,
    ),
    "",
  ];
  return md.join("\n");
}
