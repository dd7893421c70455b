/**
 * Compaction techniques on hand-made schemas: what the short list drops and keeps, $ref dedup correctness
 * (the deduped schema resolves back to the original) and its token guard, shared definitions across tools,
 * TERSE completeness, the provider guard and Phase-2 options.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { shortenSchema, shortenTool } from "../src/core/compaction/short-list.js";
import { dedupAcrossTools, dedupSchema, inlineRefs, renderSharedDefsCatalog } from "../src/core/compaction/ref-dedup.js";
import { renderTerse, splitDescription } from "../src/core/compaction/terse.js";
import { PROVIDER_SCHEMA_SUPPORT, providerOfModel, refDedupAllowed } from "../src/core/compaction/providers.js";
import { compactParameters, compactionEnabled } from "../src/core/compaction/phase2.js";
import { walkSchema } from "../src/core/compaction/schema-walk.js";
import { countTokens } from "../src/core/tokens/count.js";
import type { JsonSchema, ToolSpec } from "../src/core/types.js";
import { githubLike, linearLike, notionLike } from "./helpers/compaction-fixtures.js";

test("short list drops documentation and obvious defaults, keeps everything that decides a valid call", () => {
  const schema: JsonSchema = {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    title: "Args",
    properties: {
      // A property *named* title/default/examples is a parameter, not a keyword: it must stay.
      title: { type: "string", title: "Title", examples: ["x"], minLength: 1, maxLength: 80 },
      default: { type: "boolean", default: false },
      examples: { type: "array", items: { type: "string" }, default: [], minItems: 0, uniqueItems: false },
      limit: { type: "integer", minimum: 1, maximum: 100, default: 10, description: "" },
      mode: { type: "string", enum: ["a", "b"], default: "" },
      tags: { type: "object", additionalProperties: { type: "string" } },
      filter: { type: "object", properties: { q: { type: "string", pattern: "^[a-z]+$", format: "hostname" } }, required: [], additionalProperties: true },
      nothing: { type: ["string", "null"], default: null },
    },
    required: ["title"],
    additionalProperties: false,
  };
  const out = shortenSchema(schema);
  const props = out.properties as Record<string, JsonSchema>;
  assert.deepEqual(Object.keys(props), Object.keys(schema.properties as object));
  assert.equal(out.$schema, undefined);
  assert.equal(out.title, undefined);
  assert.equal(out.additionalProperties, undefined);
  assert.deepEqual(out.required, ["title"]);
  assert.deepEqual(props.title, { type: "string", minLength: 1, maxLength: 80 });
  assert.deepEqual(props.default, { type: "boolean" });
  assert.deepEqual(props.examples, { type: "array", items: { type: "string" } });
  assert.deepEqual(props.limit, { type: "integer", minimum: 1, maximum: 100, default: 10 }, "a meaningful default stays");
  assert.deepEqual(props.mode, { type: "string", enum: ["a", "b"] });
  assert.deepEqual(props.tags, schema.properties && (schema.properties as Record<string, unknown>).tags, "a map schema stays");
  assert.deepEqual(props.filter, { type: "object", properties: { q: { type: "string", pattern: "^[a-z]+$", format: "hostname" } } });
  assert.deepEqual(props.nothing, { type: ["string", "null"] });
  // The input is not modified.
  assert.equal(schema.$schema, "http://json-schema.org/draft-07/schema#");
  // OpenAI strict mode needs closed objects: an option keeps them.
  assert.equal(shortenSchema(schema, { keepClosedObjects: true }).additionalProperties, false);
});

test("short list on tools drops outputSchema, annotations and title, keeps $defs and $refs", () => {
  const [linear] = linearLike(1);
  const short = shortenTool(linear);
  assert.deepEqual(Object.keys(short).sort(), ["description", "inputSchema", "name"]);
  assert.ok(shortenTool(linear, { keepOutputSchema: true }).outputSchema);
  const [notion] = notionLike(1);
  const s = shortenTool(notion).inputSchema as JsonSchema;
  assert.ok(s.$defs, "definitions stay");
  assert.deepEqual((s.properties as Record<string, unknown>).parent, { $ref: "#/$defs/parentRequest" });
  assert.ok(countTokens(JSON.stringify(short)) < countTokens(JSON.stringify(linear)) / 2);
});

const address: JsonSchema = {
  type: "object",
  description: "A postal address.",
  properties: {
    street: { type: "string", description: "Street and number" },
    city: { type: "string", description: "City name" },
    postcode: { type: "string", pattern: "^[0-9A-Z -]{3,10}$" },
    country: { type: "string", enum: ["FR", "DE", "IT", "ES", "NL", "BE", "PT", "AT"] },
  },
  required: ["street", "city", "country"],
};

test("$ref dedup hoists a repeated subschema and the result resolves back to the original", () => {
  const schema: JsonSchema = {
    type: "object",
    properties: { billing: address, shipping: address, stops: { type: "array", items: address }, note: { type: "string" } },
    required: ["billing"],
  };
  const { schema: out, hoisted } = dedupSchema(schema);
  assert.deepEqual(hoisted, ["billing"]);
  const props = out.properties as Record<string, JsonSchema>;
  assert.deepEqual(props.billing, { $ref: "#/$defs/billing" });
  assert.deepEqual(props.stops, { type: "array", items: { $ref: "#/$defs/billing" } });
  assert.deepEqual(inlineRefs(out), schema);
  assert.ok(countTokens(JSON.stringify(out)) < countTokens(JSON.stringify(schema)));
});

test("$ref dedup does not hoist when a $ref would cost more than the copies", () => {
  const small: JsonSchema = { type: "object", properties: { a: { type: "string" }, b: { type: "string" }, c: { type: "string" } } };
  const { schema, hoisted } = dedupSchema(small);
  assert.equal(schema, small);
  assert.deepEqual(hoisted, []);
  // Two copies of a mid-sized object: the definition + 2 refs would cost more than it saves.
  const mid = { type: "object", properties: { x: { type: "integer", minimum: 0 } } };
  const twice: JsonSchema = { type: "object", properties: { from: mid, to: mid } };
  assert.equal(dedupSchema(twice).schema, twice);
});

test("$ref dedup reuses existing $defs, keeps refs into them working and leaves foreign refs alone", () => {
  const withDefs: JsonSchema = {
    type: "object",
    $defs: { Address: address },
    properties: { home: { $ref: "#/$defs/Address" }, work: address, other: address },
  };
  const { schema: out, hoisted } = dedupSchema(withDefs);
  assert.deepEqual(hoisted, ["Address"], "inline copies point to the existing definition");
  assert.deepEqual(Object.keys(out.$defs as object), ["Address"]);
  assert.deepEqual((out.properties as Record<string, unknown>).work, { $ref: "#/$defs/Address" });
  assert.deepEqual(inlineRefs(out), inlineRefs(withDefs));

  const definitions: JsonSchema = { type: "object", definitions: {}, properties: { a: address, b: address, c: address } };
  const d = dedupSchema(definitions).schema;
  assert.ok(JSON.stringify(d).includes('"#/definitions/'), "a schema using `definitions` keeps using it");
  assert.deepEqual(inlineRefs(d), { type: "object", properties: { a: address, b: address, c: address } });

  const foreign: JsonSchema = { type: "object", properties: { a: address, b: address, c: { $ref: "#/properties/a" } } };
  assert.equal(dedupSchema(foreign).schema, foreign);
});

test("inlineRefs keeps a recursive ref at the point of recursion", () => {
  const tree: JsonSchema = {
    type: "object",
    $defs: { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } } },
    properties: { root: { $ref: "#/$defs/node" } },
  };
  const out = inlineRefs(tree);
  const root = (out.properties as Record<string, JsonSchema>).root;
  assert.deepEqual(((root.properties as Record<string, JsonSchema>).children.items as JsonSchema), { $ref: "#/$defs/node" });
  assert.ok(out.$defs, "the definitions stay while a ref still points into them");
});

test("shared definitions across tools: a $defs block repeated in every tool is written once", () => {
  const tools = notionLike(8);
  const shared = dedupAcrossTools(tools);
  assert.deepEqual(Object.keys(shared.defs).sort(), ["parentRequest", "richText"]);
  for (const t of shared.tools) assert.equal((t.inputSchema as JsonSchema).$defs, undefined);
  // Each tool resolved against the shared block equals the original tool resolved against its own $defs.
  shared.tools.forEach((t, i) => assert.deepEqual(inlineRefs(t.inputSchema as JsonSchema, shared.defs), inlineRefs(tools[i].inputSchema as JsonSchema)));
  const text = renderSharedDefsCatalog(shared);
  const raw = tools.reduce((n, t) => n + countTokens(JSON.stringify(t)), 0);
  assert.ok(countTokens(text) < raw * 0.5, `shared ${countTokens(text)} vs raw ${raw}`);
});

test("shared definitions: same name, different content stays apart; different names, same content merge", () => {
  const product: JsonSchema = { type: "object", properties: { sku: { type: "string", description: "Stock keeping unit" }, price: { type: "number", minimum: 0, description: "Unit price in cents" }, vat: { type: "string", enum: ["standard", "reduced", "zero"] } } };
  const a: ToolSpec = { name: "a", inputSchema: { type: "object", $defs: { Item: address }, properties: { x: { $ref: "#/$defs/Item" } } } };
  const b: ToolSpec = { name: "b", inputSchema: { type: "object", $defs: { Item: product }, properties: { y: { $ref: "#/$defs/Item" } } } };
  const c: ToolSpec = { name: "c", inputSchema: { type: "object", $defs: { Line: address }, properties: { z: { $ref: "#/$defs/Line" } } } };
  const tools = [a, b, c, a, b, c];
  const shared = dedupAcrossTools(tools);
  assert.deepEqual(Object.keys(shared.defs).sort(), ["Item", "Item2"]);
  assert.deepEqual(shared.defs.Item, address);
  assert.deepEqual(shared.defs.Item2, product);
  assert.deepEqual((shared.tools[2].inputSchema as JsonSchema).properties, { z: { $ref: "#/$defs/Item" } });
  tools.forEach((t, i) =>
    assert.deepEqual(inlineRefs(shared.tools[i].inputSchema as JsonSchema, shared.defs), inlineRefs(t.inputSchema as JsonSchema)),
  );
});

test("shared definitions never cost more than the tools as they came", () => {
  const tools = githubLike(10);
  const shared = dedupAcrossTools(tools);
  assert.deepEqual(shared.defs, {});
  assert.deepEqual(shared.tools, tools);
});

test("TERSE full rendering keeps every parameter, requiredness, enum, constraint and description", () => {
  const tool: ToolSpec = {
    name: "create_invoice",
    description: "Create an invoice for a customer. Use after find_customer. Fails with 404 when the customer does not exist.",
    inputSchema: {
      type: "object",
      properties: {
        customer: { type: "string", description: "Customer id" },
        address,
        lines: { type: "array", minItems: 1, items: { type: "object", properties: { sku: { type: "string" }, qty: { type: "integer", minimum: 1 } }, required: ["sku"] } },
        currency: { type: "string", enum: ["EUR", "USD"], default: "EUR" },
        due: { type: "string", format: "date" },
      },
      required: ["customer", "lines"],
    },
    outputSchema: { type: "object", properties: { id: { type: "string" }, total: { type: "number" } } },
    tags: ["billing"],
  };
  const text = renderTerse(tool);
  const schemaText = JSON.stringify(tool.inputSchema);
  walkSchema(tool.inputSchema as JsonSchema, (node, path) => {
    const name = path[path.length - 1];
    if (path[path.length - 2] === "properties") assert.ok(text.includes(name), `parameter ${name} missing`);
    if (typeof node.description === "string") assert.ok(text.includes(node.description), `description "${node.description}" missing`);
    for (const v of (node.enum as string[] | undefined) ?? []) assert.ok(text.includes(v), `enum value ${v} missing`);
  });
  assert.match(text, /^TOOL create_invoice$/m);
  assert.match(text, /^PURPOSE Create an invoice for a customer\.$/m);
  assert.match(text, /^IN customer:str — Customer id$/m);
  assert.match(text, /^ {2}address\?:obj — A postal address\.$/m);
  assert.match(text, /^ {4}street:str — Street and number$/m, "nested required property has no ?");
  assert.match(text, /^ {4}postcode\?:str \/\^\[0-9A-Z -\]\{3,10\}\$\/$/m);
  assert.match(text, /^ {2}lines:\[obj\] items 1\.\.$/m);
  assert.match(text, /^ {4}qty\?:int 1\.\.$/m);
  assert.match(text, /^ {2}currency\?:EUR\|USD=EUR$/m);
  assert.match(text, /^ {2}due\?:str \(date\)$/m);
  assert.match(text, /^OUT id:str, total:num$/m);
  assert.match(text, /^ERR Fails with 404 when the customer does not exist\.$/m);
  assert.match(text, /^WHEN Use after find_customer\.$/m);
  assert.match(text, /^TAGS billing$/m);
  assert.ok(countTokens(text) < countTokens(JSON.stringify(tool)) * 0.7, `terse ${countTokens(text)} vs JSON ${countTokens(JSON.stringify(tool))} (${schemaText.length} chars)`);
});

test("TERSE: unions, refs to definitions, unknown keywords kept as JSON, pool line", () => {
  const [notion] = notionLike(1);
  const text = renderTerse(notion);
  assert.match(text, /^IN parent:\$parentRequest$/m);
  assert.match(text, /^DEF \$parentRequest=\{page_id:str \(uuid\)\}\|\{database_id:str \(uuid\)\}$/m);
  assert.match(text, /^DEF \$richText=\[obj\] items \.\.100 — Rich text segments\.$/m);
  // The object branch of an object-or-null union is listed under the parameter.
  assert.match(text, /^ {4}link\?:obj\|null\n {6}url:str \(uri\)$/m);
  assert.match(text, /^WHEN Use after searching for the page\.$/m);
  const odd = renderTerse({ name: "t", inputSchema: { type: "object", properties: { n: { type: "number", "x-unit": "kg", exclusiveMinimum: 0 } } } });
  assert.match(odd, /n\?:num >0 \{"x-unit":"kg"\}/);
  const pool = renderTerse(linearLike(1)[0], { level: "pool" });
  assert.equal(pool, "TOOL linear_op_0: Linear operation 0 on issues. | IN issueId, limit?, includeArchived?, query? | OUT issue, related");
  const gated = renderTerse({ name: "merge", description: "Merge a PR.", preconditions: { requiresScopes: ["repo:write"], afterTool: "get_pr" } }, { level: "pool" });
  assert.equal(gated, "TOOL merge: Merge a PR. | WHEN needs scope repo:write; after get_pr");
});

test("splitDescription puts every sentence in exactly one of PURPOSE, WHEN, ERR", () => {
  const d = "Search issues. Supports paging. Use this when the id is unknown. Returns an error if the query is invalid.";
  const { purpose, when, err } = splitDescription(d);
  assert.equal(purpose, "Search issues. Supports paging.");
  assert.equal(when, "Use this when the id is unknown.");
  assert.equal(err, "Returns an error if the query is invalid.");
  assert.equal([purpose, when, err].join(" "), d);
});

test("provider guard: $ref dedup only where the provider resolves refs, unless overridden", () => {
  assert.equal(refDedupAllowed("openai"), true);
  assert.equal(refDedupAllowed("anthropic"), true);
  assert.equal(refDedupAllowed("google"), false);
  assert.equal(refDedupAllowed("ollama"), false);
  assert.equal(refDedupAllowed(undefined), false);
  assert.equal(refDedupAllowed("ollama", true), true);
  assert.equal(refDedupAllowed("openai", false), false);
  for (const p of Object.values(PROVIDER_SCHEMA_SUPPORT)) assert.ok(p.note.length > 10);
  assert.equal(providerOfModel({ _llmType: () => "openai" }), "openai");
  assert.equal(providerOfModel({ _llmType: () => "anthropic" }), "anthropic");
  assert.equal(providerOfModel({ _llmType: () => "chat-google-generative-ai" }), "google");
  assert.equal(providerOfModel({ _llmType: () => "ollama" }), "ollama");
  assert.equal(providerOfModel({ _llmType: () => "scripted" }), "unknown");
  assert.equal(providerOfModel(undefined), "unknown");
});

test("Phase-2 options: dedup follows the provider, existing refs are inlined for providers without $ref", () => {
  const schema: JsonSchema = { type: "object", properties: { a: address, b: address, c: address }, additionalProperties: false };
  assert.equal(compactionEnabled(undefined), false);
  assert.equal(compactionEnabled({ provider: "google" }), true, "refs get inlined for google by default");
  assert.equal(compactionEnabled({}), false);
  assert.ok(JSON.stringify(compactParameters(schema, { provider: "openai" })).includes("$ref"));
  assert.ok(!JSON.stringify(compactParameters(schema, { provider: "google" })).includes("$ref"));
  const [notion] = notionLike(1);
  const forGemini = compactParameters(notion.inputSchema as JsonSchema, { provider: "google", shortList: true });
  assert.ok(!JSON.stringify(forGemini).includes("$ref"), "Notion-style refs are resolved for a provider that cannot");
  assert.deepEqual(forGemini, shortenSchema(inlineRefs(notion.inputSchema as JsonSchema)));
  const short = compactParameters(schema, { shortList: true });
  assert.equal(short.additionalProperties, undefined);
  assert.equal(compactParameters(schema, { shortList: { keepClosedObjects: true } }).additionalProperties, false);
});

test("renderTerseCatalog writes shared definitions once for all tools", async () => {
  const { renderTerseCatalog } = await import("../src/core/compaction/terse.js");
  const tools = notionLike(6);
  const text = renderTerseCatalog(tools);
  assert.equal(text.match(/^DEF \$richText=/gm)?.length, 1);
  assert.equal(text.match(/^DEF \$parentRequest=/gm)?.length, 1);
  assert.equal(text.match(/^TOOL notion_op_\d$/gm)?.length, 6);
  assert.equal(text.match(/^IN parent:\$parentRequest$/gm)?.length, 6);
  const separate = tools.reduce((n, t) => n + countTokens(renderTerse(t)), 0);
  assert.ok(countTokens(text) < separate / 2, `${countTokens(text)} vs ${separate}`);
  // Without anything to share it is the tools' TERSE texts, one after the other.
  const plain = githubLike(3);
  assert.equal(renderTerseCatalog(plain), plain.map((t) => renderTerse(t)).join("\n"));
});
