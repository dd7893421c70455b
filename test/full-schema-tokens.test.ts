/**
 * The whole catalog's full-schema tokens (every routing decision's `fullSchemaTokens`): counted once per catalog in
 * slices, and on large catalogs kept beside the index snapshots, so the next process reads one count per tool
 * instead of tokenizing every schema (more than a minute at 100,000 tools).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { expandCatalog } from "../src/bench/synthetic/expand.js";
import { FULL_TOKENS_KEEP_MIN_TOOLS } from "../src/core/render/full-schema-tokens.js";
import { SchemaTokenCounter } from "../src/core/render/render.js";
import { catalogSnapshotOf } from "../src/core/store/snapshot.js";

const big = ToolCatalog.fromCatalogObject(expandCatalog(FULL_TOKENS_KEEP_MIN_TOOLS + 100, 42));

/** The count by definition: each tool's full schema rendered and tokenized. */
function expected(catalog: ToolCatalog): number {
  const counter = new SchemaTokenCounter();
  return catalog.tools.reduce((n, t) => n + counter.count({ name: t.name, description: t.description, inputSchema: t.inputSchema }), 0);
}

const countsFile = (dir: string) => readdirSync(path.join(dir, "blobs")).filter((f) => f.startsWith("schema-tokens-"));

test("a large catalog's full-schema tokens are counted once and read back by the next router", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ta-fst-"));
  try {
    const truth = expected(big);
    const lines: string[] = [];
    const make = (catalog = big) => new ToolAttentionRouter(catalog, { encoder: "lexical", cacheDir: dir, log: (l) => lines.push(l) });
    const first = make();
    await first.prepare();
    assert.equal(await first.fullSchemaTokens(), truth);
    const decision = await first.route("list open issues in the repository");
    assert.equal(decision.fullSchemaTokens, truth);
    const files = countsFile(dir);
    assert.equal(files.length, 1, "one count per tool kept");
    const file = path.join(dir, "blobs", files[0]!);
    assert.equal(readFileSync(file).byteLength, big.size * 4);

    // The next router reads the counts, shown by counts planted in their place.
    writeFileSync(file, Buffer.from(new Int32Array(big.size).fill(1).buffer));
    const second = make(ToolCatalog.fromCatalogObject(expandCatalog(FULL_TOKENS_KEEP_MIN_TOOLS + 100, 42)));
    await second.prepare();
    assert.equal(await second.fullSchemaTokens(), big.size);

    // Counts that do not fit the catalog are reported and counted again.
    writeFileSync(file, Buffer.from(new Int32Array(7).buffer));
    const third = make(ToolCatalog.fromCatalogObject(expandCatalog(FULL_TOKENS_KEEP_MIN_TOOLS + 100, 42)));
    assert.equal(await third.fullSchemaTokens(), truth);
    assert.ok(lines.some((l) => /schema token counts schema-tokens-[0-9a-f]+ in the disk cache .* not used \(it holds 28 bytes, \d+ expected/.test(l)), lines.join("\n"));

    // Another schema is another catalog: its own counts.
    const snapshot = catalogSnapshotOf(big);
    const tool = snapshot.servers[0]!.tools[0]!;
    tool.inputSchema = { type: "object", properties: { extra: { type: "string", description: "A parameter the first catalog does not have." } } };
    const changed = ToolCatalog.fromCatalogObject(snapshot);
    const fourth = make(changed);
    assert.equal(await fourth.fullSchemaTokens(), expected(changed));
    assert.notEqual(expected(changed), truth);
    assert.equal(countsFile(dir).length, 2);
    await Promise.all([first, second, third, fourth].map((r) => r.close()));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("small catalogs and schemas from elsewhere (a registry, a fetcher) are counted, not kept", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ta-fst-"));
  try {
    const small = ToolCatalog.fromCatalogObject(expandCatalog(300, 42));
    const a = new ToolAttentionRouter(small, { encoder: "lexical", cacheDir: dir, log: false });
    assert.equal(await a.fullSchemaTokens(), expected(small));
    // With a schema source of its own (a registry directory, a fetcher), a router's schemas need not be the
    // catalog's: their counts are never kept under the catalog's key.
    const fetched = new ToolAttentionRouter(big, {
      encoder: "lexical",
      cacheDir: dir,
      log: false,
      schemas: { fetcher: async (ids) => Object.fromEntries(ids.map((id) => [id, { type: "object", properties: {} }])) },
    });
    assert.equal(await fetched.fullSchemaTokens(), expected(big));
    assert.deepEqual(readdirSync(dir).includes("blobs") ? countsFile(dir) : [], []);
    await Promise.all([a.close(), fetched.close()]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("closing a router stops its full-schema count at the next slice, and nothing is kept", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ta-fst-"));
  try {
    const r = new ToolAttentionRouter(ToolCatalog.fromCatalogObject(expandCatalog(FULL_TOKENS_KEEP_MIN_TOOLS + 100, 42)), { encoder: "lexical", cacheDir: dir, log: false });
    const counting = r.fullSchemaTokens();
    await r.close();
    await assert.rejects(counting, /closed while counting the catalog's full-schema tokens/);
    assert.deepEqual(readdirSync(dir).includes("blobs") ? countsFile(dir) : [], []);
    // The router still answers afterwards: the next call counts again.
    assert.equal(await r.fullSchemaTokens(), expected(big));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
