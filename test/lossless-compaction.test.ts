/**
 * The default Phase-2 compaction (`LOSSLESS_PHASE2`) drops nothing that changes which calls are valid: for every
 * tool of the synthetic and demo catalogs and a set of awkward schemas, the original and the compacted schema give
 * the same verdict on a corpus of arguments (a filled-in call, and mutations of it: each required field missing,
 * each field of the wrong type, out-of-range and out-of-enum values, an extra field). Also: the adapters bind the
 * compacted definitions by default, the tools still run, and `phase2: false` binds them as declared.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "langchain";
import { HumanMessage } from "@langchain/core/messages";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { compactParameters, LOSSLESS_PHASE2 } from "../src/core/compaction/phase2.js";
import { argumentFit } from "../src/core/gate/arguments.js";
import { countTokens } from "../src/core/tokens/count.js";
import { toolAttentionMiddleware } from "../src/adapters/langchain/middleware.js";
import type { JsonSchema } from "../src/core/types.js";
import { ScriptedChatModel, callTools } from "./helpers/scripted-model.js";
import { demoTools } from "./helpers/demo-tools.js";

type S = Record<string, unknown>;

/** A value of the schema's first type: enum/const/default first, then bounds and formats. */
function fill(schema: S | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return "x";
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ("default" in schema && schema.default !== null) return schema.default;
  for (const key of ["anyOf", "oneOf"]) if (Array.isArray(schema[key])) return fill((schema[key] as S[])[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "object" || (type === undefined && schema.properties)) {
    const out: S = {};
    for (const [k, v] of Object.entries((schema.properties ?? {}) as Record<string, S>)) out[k] = fill(v, depth + 1);
    return out;
  }
  if (type === "array") return [fill(schema.items as S | undefined, depth + 1)];
  if (type === "integer" || type === "number") return typeof schema.minimum === "number" ? schema.minimum : 1;
  if (type === "boolean") return true;
  if (type === "null") return null;
  const formats: Record<string, string> = { "date-time": "2026-11-25T10:00:00Z", date: "2026-11-25", email: "a@example.com", uri: "https://example.com/x", uuid: "123e4567-e89b-12d3-a456-426614174000" };
  if (typeof schema.format === "string" && formats[schema.format]) return formats[schema.format];
  const min = typeof schema.minLength === "number" ? schema.minLength : 1;
  return "x".repeat(Math.max(1, min));
}

/** The filled call and its mutations. */
function corpus(schema: S): unknown[] {
  const base = fill(schema) as S;
  const out: unknown[] = [base, {}, null, "text"];
  if (!base || typeof base !== "object" || Array.isArray(base)) return out;
  const props = (schema.properties ?? {}) as Record<string, S>;
  for (const key of Object.keys(base)) {
    const { [key]: _drop, ...without } = base;
    out.push(without);
    for (const wrong of [42, "str", true, null, [], {}, -1e9, "z".repeat(300), 1.5]) out.push({ ...base, [key]: wrong });
    const p = props[key];
    if (p && Array.isArray(p.enum)) out.push({ ...base, [key]: "__not_in_enum__" });
    if (p && typeof p.maximum === "number") out.push({ ...base, [key]: p.maximum + 1 });
  }
  out.push({ ...base, __extra__: 1 });
  return out;
}

const AWKWARD: S[] = [
  { $schema: "http://json-schema.org/draft-07/schema#", type: "object", title: "Args", properties: { q: { type: "string", title: "Q", examples: ["a"], minLength: 0 } }, required: ["q"], additionalProperties: false },
  { type: "object", properties: { n: { type: "integer", minimum: 1, maximum: 10, default: 5 }, mode: { type: "string", enum: ["a", "b"], default: "a" }, flag: { type: "boolean", default: false } } },
  { type: "object", properties: { when: { type: "string", format: "date-time" }, tags: { type: "array", items: { type: "string" }, uniqueItems: false, minItems: 0, default: [] } }, required: ["when"] },
  { type: "object", properties: { v: { anyOf: [{ type: "string", pattern: "^[a-z]+$" }, { type: "null" }], default: null } }, additionalProperties: true },
  { type: "object", $defs: { P: { type: "object", properties: { x: { type: "number" } }, required: ["x"], additionalProperties: false } }, properties: { a: { $ref: "#/$defs/P" }, b: { $ref: "#/$defs/P" } }, required: ["a"] },
];

test("LOSSLESS_PHASE2 keeps every verdict: synthetic and demo catalogs and awkward schemas, original vs compacted", () => {
  const schemas: { name: string; schema: S }[] = [];
  for (const path of ["data/synthetic/catalog.json", "data/demo-catalog.json"])
    for (const t of ToolCatalog.fromFile(path).tools) schemas.push({ name: `${path}:${t.name}`, schema: (t.inputSchema ?? { type: "object" }) as S });
  AWKWARD.forEach((schema, i) => schemas.push({ name: `awkward #${i}`, schema }));
  let checked = 0;
  let validFills = 0;
  let before = 0;
  let after = 0;
  for (const { name, schema } of schemas) {
    const compact = compactParameters(schema as JsonSchema, LOSSLESS_PHASE2) as S;
    before += countTokens(JSON.stringify(schema));
    after += countTokens(JSON.stringify(compact));
    const cases = corpus(schema);
    if (argumentFit(schema as JsonSchema, cases[0]) === true) validFills++;
    for (const args of cases) {
      const a = argumentFit(schema as JsonSchema, args) === true;
      const b = argumentFit(compact as JsonSchema, args) === true;
      assert.equal(b, a, `${name}: ${JSON.stringify(args).slice(0, 200)} is ${a ? "valid" : "invalid"} before compaction, ${b ? "valid" : "invalid"} after`);
      checked++;
    }
  }
  assert.ok(schemas.length > 120, `${schemas.length} schemas`);
  assert.ok(checked > 5000, `${checked} verdicts`);
  // Not vacuous: most filled-in calls are valid, so both sides of the verdict are exercised.
  assert.ok(validFills > schemas.length * 0.75, `${validFills} of ${schemas.length} filled calls valid`);
  // And it saves something.
  assert.ok(after < before, `${after} vs ${before} tokens`);
});

test("the middleware binds compacted definitions by default (the tool still runs); phase2: false binds the declared tools", async () => {
  for (const phase2 of [undefined, false] as const) {
    const { tools, runs } = demoTools();
    const model = new ScriptedChatModel([callTools({ name: "get_weather", args: { city: "Rome" } })]);
    const mw = toolAttentionMiddleware({ tools, cacheDir: false, delivery: "rebind", ...(phase2 === false ? { phase2 } : {}) });
    const agent = createAgent({ model, tools, middleware: [mw] });
    await agent.invoke({ messages: [new HumanMessage("what's the weather in Rome?")] });
    assert.equal(runs.get("get_weather"), 1);
    const bound = model.calls[0].rawTools.find((t) => (t as { name?: string }).name === "get_weather") as Record<string, unknown>;
    assert.ok(bound, "get_weather bound");
    if (phase2 === false) assert.ok("invoke" in bound, "the tool instance itself");
    else assert.ok(!("invoke" in bound) && typeof bound.schema === "object", "a plain {name, description, schema} definition");
  }
});
