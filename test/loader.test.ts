import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { LazySchemaLoader, type SchemaFetcher } from "../src/core/loader/schema-loader.js";
import type { JsonSchema, ToolRecord } from "../src/core/types.js";

let tmpRoot: string;
before(async () => {
  tmpRoot = await mkdtemp(path.join(tmpdir(), "tool-attention-loader-"));
});
after(async () => {
  await rm(tmpRoot, { recursive: true, force: true });
});

const schemaFor = (id: string): JsonSchema => ({ type: "object", properties: { [`${id}_arg`]: { type: "string" } }, required: [`${id}_arg`] });

/** A catalog of tools without inline schemas (plus one with), on two servers. */
function lazyCatalog(names = ["a", "b", "c", "d"]) {
  return ToolCatalog.fromCatalogObject({
    servers: [
      { name: "srv", tools: names.map((n) => ({ name: n, description: `Tool ${n}.` })) },
      { name: "inline", tools: [{ name: "with_schema", description: "Has one.", inputSchema: schemaFor("inline") }] },
    ],
  });
}

/** A fetcher that knows the given ids and records every call. */
function countingFetcher(known: Iterable<string>) {
  const knownSet = new Set(known);
  const calls: string[][] = [];
  const fetcher: SchemaFetcher = async (tools: readonly ToolRecord[]) => {
    calls.push(tools.map((t) => t.id));
    const out: Record<string, JsonSchema | undefined> = {};
    for (const t of tools) if (knownSet.has(t.id)) out[t.id] = schemaFor(t.id);
    return out;
  };
  return { fetcher, calls };
}

describe("LazySchemaLoader", () => {
  it("serves inline schemas with name and description", async () => {
    const loader = new LazySchemaLoader(lazyCatalog());
    const s = await loader.get("with_schema");
    assert.deepEqual(s, { name: "with_schema", description: "Has one.", inputSchema: schemaFor("inline") });
  });

  it("uses the tool name (not the server-qualified id) in the full schema", async () => {
    const c = ToolCatalog.fromCatalogObject({
      servers: [
        { name: "x", tools: [{ name: "search", inputSchema: schemaFor("x") }] },
        { name: "y", tools: [{ name: "search", inputSchema: schemaFor("y") }] },
      ],
    });
    const [x, y] = await new LazySchemaLoader(c).getMany(["x__search", "y__search"]);
    assert.equal(x.name, "search");
    assert.deepEqual(x.inputSchema, schemaFor("x"));
    assert.deepEqual(y.inputSchema, schemaFor("y"));
  });

  it("reads <id>.json from a registry dir, as a bare schema or as {inputSchema}", async () => {
    const dir = await mkdtemp(path.join(tmpRoot, "reg-"));
    await writeFile(path.join(dir, "a.json"), JSON.stringify(schemaFor("a")));
    await writeFile(path.join(dir, "b.json"), JSON.stringify({ name: "b", description: "ignored", inputSchema: schemaFor("b") }));
    const loader = new LazySchemaLoader(lazyCatalog(), { registryDir: dir });
    const [a, b, w] = await loader.getMany(["a", "b", "with_schema"]);
    assert.deepEqual(a, { name: "a", description: "Tool a.", inputSchema: schemaFor("a") });
    assert.deepEqual(b, { name: "b", description: "Tool b.", inputSchema: schemaFor("b") });
    // Inline schemas win; the registry is not needed for them.
    assert.deepEqual(w.inputSchema, schemaFor("inline"));
  });

  it("names the file and the tool when a registry file is not valid JSON", async () => {
    const dir = await mkdtemp(path.join(tmpRoot, "reg-"));
    const file = path.join(dir, "c.json");
    await writeFile(file, "{ not json");
    const loader = new LazySchemaLoader(lazyCatalog(), { registryDir: dir });
    await assert.rejects(loader.get("c"), (e: Error) => e.message.includes(file) && e.message.includes('"c"') && /JSON/.test(e.message));
  });

  it("rejects a registry file that holds no JSON object", async () => {
    const dir = await mkdtemp(path.join(tmpRoot, "reg-"));
    await writeFile(path.join(dir, "d.json"), "[1, 2]");
    const loader = new LazySchemaLoader(lazyCatalog(), { registryDir: dir });
    await assert.rejects(loader.get("d"), (e: Error) => e.message.includes("d.json") && /object/.test(e.message));
  });

  it("calls the fetcher once for a batch of misses, only with the misses, then serves from the LRU", async () => {
    const { fetcher, calls } = countingFetcher(["a", "b", "c", "d"]);
    const loader = new LazySchemaLoader(lazyCatalog(), { fetcher });
    const got = await loader.getMany(["c", "with_schema", "a", "b"]);
    assert.deepEqual(got.map((s) => s.name), ["c", "with_schema", "a", "b"]);
    assert.deepEqual(got[0].inputSchema, schemaFor("c"));
    assert.equal(calls.length, 1);
    assert.deepEqual([...calls[0]].sort(), ["a", "b", "c"]);

    const again = await loader.getMany(["a", "b", "c", "with_schema"]);
    assert.equal(calls.length, 1);
    assert.equal(loader.stats.hits, 4);
    assert.equal(loader.stats.loads, 4);
    // Same objects are handed out while cached.
    assert.equal(again[0], got[2]);

    await loader.getMany(["a", "d"]);
    assert.equal(calls.length, 2);
    assert.deepEqual(calls[1], ["d"]);
  });

  it("tries the registry before the fetcher and only fetches what the registry lacks", async () => {
    const dir = await mkdtemp(path.join(tmpRoot, "reg-"));
    await writeFile(path.join(dir, "a.json"), JSON.stringify(schemaFor("from-registry")));
    const { fetcher, calls } = countingFetcher(["a", "b"]);
    const loader = new LazySchemaLoader(lazyCatalog(), { registryDir: dir, fetcher });
    const [a, b] = await loader.getMany(["a", "b"]);
    assert.deepEqual(a.inputSchema, schemaFor("from-registry"));
    assert.deepEqual(b.inputSchema, schemaFor("b"));
    assert.deepEqual(calls, [["b"]]);
  });

  it("evicts the least recently used schema at capacity", async () => {
    const { fetcher, calls } = countingFetcher(["a", "b", "c", "d"]);
    const loader = new LazySchemaLoader(lazyCatalog(), { fetcher, capacity: 2 });
    await loader.get("a");
    await loader.get("b");
    await loader.get("a"); // refresh a: b is now the oldest
    assert.equal(calls.length, 2);
    await loader.get("c"); // evicts b
    assert.equal(calls.length, 3);
    await loader.get("a");
    await loader.get("c");
    assert.equal(calls.length, 3, "a and c stay cached");
    await loader.get("b");
    assert.equal(calls.length, 4, "b was evicted and is fetched again");
    assert.deepEqual(calls.at(-1), ["b"]);
  });

  it("returns a whole batch larger than the capacity", async () => {
    const { fetcher } = countingFetcher(["a", "b", "c", "d"]);
    const loader = new LazySchemaLoader(lazyCatalog(), { fetcher, capacity: 1 });
    const got = await loader.getMany(["a", "b", "c", "d"]);
    assert.deepEqual(got.map((s) => s.name), ["a", "b", "c", "d"]);
    for (const s of got) assert.deepEqual(s.inputSchema, schemaFor(s.name));
  });

  it("invalidate(ids) drops those ids, invalidate() drops all", async () => {
    const { fetcher, calls } = countingFetcher(["a", "b", "c"]);
    const loader = new LazySchemaLoader(lazyCatalog(), { fetcher });
    await loader.getMany(["a", "b", "c"]);
    loader.invalidate(["b"]);
    await loader.getMany(["a", "b", "c"]);
    assert.deepEqual(calls, [["a", "b", "c"], ["b"]]);
    loader.invalidate();
    await loader.getMany(["a", "c"]);
    assert.deepEqual(calls.at(-1), ["a", "c"]);
    assert.equal(calls.length, 3);
  });

  it("rejects an unknown id, naming it", async () => {
    const loader = new LazySchemaLoader(lazyCatalog());
    await assert.rejects(loader.get("nope"), /"nope"/);
    await assert.rejects(loader.getMany(["a", "nope"]), /"nope"/);
  });

  it("gives a tool without any schema an empty object schema when no source is configured", async () => {
    const loader = new LazySchemaLoader(lazyCatalog());
    const s = await loader.get("a");
    assert.deepEqual(s, { name: "a", description: "Tool a.", inputSchema: { type: "object", properties: {} } });
  });

  it("errors naming tool, server and sources tried when a configured source lacks the schema", async () => {
    const dir = await mkdtemp(path.join(tmpRoot, "reg-empty-"));
    const { fetcher } = countingFetcher(["a"]);
    const loader = new LazySchemaLoader(lazyCatalog(), { registryDir: dir, fetcher });
    await assert.rejects(loader.getMany(["a", "b"]), (e: Error) => {
      assert.match(e.message, /"b"/);
      assert.match(e.message, /server "srv"/);
      assert.ok(e.message.includes("catalog"), e.message);
      assert.ok(e.message.includes(`registry ${dir}`), e.message);
      assert.ok(e.message.includes("fetcher"), e.message);
      return true;
    });
    const onlyRegistry = new LazySchemaLoader(lazyCatalog(), { registryDir: dir });
    await assert.rejects(onlyRegistry.get("c"), (e: Error) => e.message.includes('"c"') && e.message.includes(dir) && !e.message.includes("fetcher"));
  });

  it("propagates a fetcher failure", async () => {
    const loader = new LazySchemaLoader(lazyCatalog(), {
      fetcher: async () => {
        throw new Error("server down");
      },
    });
    await assert.rejects(loader.get("a"), /server down/);
    // The inline tool never reaches the fetcher.
    assert.deepEqual((await loader.get("with_schema")).inputSchema, schemaFor("inline"));
  });
});
