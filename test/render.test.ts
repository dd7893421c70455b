import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readFileSync } from "node:fs";
import { getEncoding } from "js-tiktoken";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import {
  DEFAULT_POOL_MAX_TOKENS,
  NAMES_POOL_HEADER,
  NAMES_POOL_HEADER_NO_PROMOTE,
  POOL_HEADER,
  renderFullSchema,
  renderPool,
  renderPoolTiered,
  SchemaTokenCounter,
  SERVERS_POOL_HEADER,
  SERVERS_POOL_HEADER_NO_PROMOTE,
  TERSE_POOL_HEADER,
} from "../src/core/render/render.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { countTokens, DEFAULT_ENCODING, encodeTokens, getEncoder, isTokenEncoding, truncateToTokens } from "../src/core/tokens/count.js";
import type { FullToolSchema } from "../src/core/loader/schema-loader.js";

const DEMO_PATH = new URL("../data/demo-catalog.json", import.meta.url).pathname;
const demo = () => ToolCatalog.fromFile(DEMO_PATH);

describe("renderPool", () => {
  it("lists every tool id exactly once, under the header", () => {
    const c = demo();
    const pool = renderPool(c);
    const lines = pool.split("\n");
    assert.equal(lines[0], POOL_HEADER);
    const toolLines = lines.filter((l) => l.startsWith("- "));
    assert.equal(toolLines.length, c.size);
    for (const t of c.tools) {
      const mine = toolLines.filter((l) => l.startsWith(`- ${t.id}: `));
      assert.equal(mine.length, 1, t.id);
      assert.equal(mine[0], `- ${t.id}: ${t.summary}`);
    }
  });

  it("is byte-identical across calls and across catalogs built from the same file", () => {
    const a = demo();
    const first = renderPool(a);
    assert.equal(renderPool(a), first);
    const b = ToolCatalog.fromCatalogObject(JSON.parse(readFileSync(DEMO_PATH, "utf8")));
    assert.notEqual(a, b);
    assert.equal(renderPool(b), first);
    assert.equal(Buffer.compare(Buffer.from(renderPool(b)), Buffer.from(first)), 0);
  });

  it("groups by server when there are several servers, each tool under its own server", () => {
    const c = demo();
    const lines = renderPool(c).split("\n").slice(1);
    const headings = lines.filter((l) => /^\[.*\]$/.test(l));
    assert.deepEqual(headings, ["[github]", "[filesystem]", "[database]", "[slack]", "[web]", "[calendar]"]);
    let current = "";
    for (const l of lines) {
      if (l.startsWith("[")) current = l.slice(1, -1);
      else assert.equal(c.getById(l.slice(2, l.indexOf(":")))!.server, current, l);
    }
  });

  it("groups tools of one server together even when interleaved in the catalog", () => {
    const c = new ToolCatalog([
      { server: "a", spec: { name: "a1" } },
      { server: "b", spec: { name: "b1" } },
      { server: "a", spec: { name: "a2" } },
      { server: "", spec: { name: "loose" } },
    ]);
    assert.deepEqual(renderPool(c).split("\n").slice(1), ["[a]", "- a1: A 1.", "- a2: A 2.", "[b]", "- b1: B 1.", "[tools]", "- loose: Loose."]);
  });

  it("does not group a single-server catalog, and honours groupByServer and header options", () => {
    const one = ToolCatalog.fromCatalogObject({ servers: [{ name: "s", tools: [{ name: "x", description: "Do x." }, { name: "y" }] }] });
    assert.equal(renderPool(one), `${POOL_HEADER}\n- x: Do x.\n- y: Y.`);
    assert.equal(renderPool(one, { groupByServer: true, header: "Tools:" }), "Tools:\n[s]\n- x: Do x.\n- y: Y.");
    const c = demo();
    const flat = renderPool(c, { groupByServer: false });
    assert.ok(!flat.split("\n").some((l) => l.startsWith("[")));
    assert.equal(flat.split("\n").length, c.size + 1);
    // Options do not leak into the memoized default.
    assert.ok(renderPool(c).includes("[github]"));
  });

  it("renders an empty catalog as the header alone", () => {
    assert.equal(renderPool(ToolCatalog.fromCatalogObject({ servers: [] })), POOL_HEADER);
  });
});

describe("renderFullSchema", () => {
  it("is compact JSON of exactly {name, description, inputSchema}", () => {
    const schema = {
      name: "get_weather",
      description: "Get the weather.",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      extra: "dropped",
    } as FullToolSchema;
    const text = renderFullSchema(schema);
    assert.ok(!text.includes("\n"));
    const parsed = JSON.parse(text);
    assert.deepEqual(Object.keys(parsed), ["name", "description", "inputSchema"]);
    assert.deepEqual(parsed, { name: schema.name, description: schema.description, inputSchema: schema.inputSchema });
  });
});

describe("SchemaTokenCounter", () => {
  const schemas: FullToolSchema[] = demo().tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema! }));

  it("equals countTokens(renderFullSchema(x)) in both encodings", () => {
    for (const enc of ["cl100k_base", "o200k_base"] as const) {
      const counter = new SchemaTokenCounter(enc);
      assert.equal(counter.encoding, enc);
      for (const s of schemas) assert.equal(counter.count(s), countTokens(renderFullSchema(s), enc), s.name);
    }
    assert.equal(new SchemaTokenCounter().encoding, DEFAULT_ENCODING);
  });

  it("grows with the schema", () => {
    const counter = new SchemaTokenCounter();
    const small: FullToolSchema = { name: "t", description: "d", inputSchema: { type: "object", properties: {} } };
    const big: FullToolSchema = { ...small, inputSchema: { type: "object", properties: { a: { type: "string", description: "a long description of a" } } } };
    assert.ok(counter.count(big) > counter.count(small));
  });
});

describe("countTokens", () => {
  const texts = [
    "Hello, world!",
    "Get the current weather and a 3-day forecast for a city.",
    "日本語のテキストです。🎉 emoji and ünïcödé",
    "<|endoftext|> is plain text here",
    JSON.stringify({ name: "x", inputSchema: { type: "object", properties: { q: { type: "string" } } } }),
    "word ".repeat(300), // > 256 chars: the memoized path
  ];

  it("matches js-tiktoken directly, for cl100k and o200k, also on repeat (memoized) calls", () => {
    for (const enc of ["cl100k_base", "o200k_base"] as const) {
      const ref = getEncoding(enc);
      for (const t of texts) {
        const want = ref.encode(t, [], []).length;
        assert.equal(countTokens(t, enc), want, `${enc}: ${t.slice(0, 30)}`);
        assert.equal(countTokens(t, enc), want);
      }
    }
  });

  it("differs between cl100k and o200k on some text", () => {
    const t = "日本語のテキストです。これは長い文章です。";
    assert.notEqual(countTokens(t, "cl100k_base"), countTokens(t, "o200k_base"));
    // And the memo does not mix encodings for a long text.
    const long = t.repeat(20);
    assert.equal(countTokens(long, "cl100k_base"), getEncoding("cl100k_base").encode(long, [], []).length);
    assert.equal(countTokens(long, "o200k_base"), getEncoding("o200k_base").encode(long, [], []).length);
  });

  it("defaults to cl100k and counts empty text as 0", () => {
    assert.equal(DEFAULT_ENCODING, "cl100k_base");
    assert.equal(countTokens("Hello there, general"), countTokens("Hello there, general", "cl100k_base"));
    assert.equal(countTokens(""), 0);
    assert.equal(countTokens("", "o200k_base"), 0);
  });

  it("encodes piece by piece through its cache, and whole, exactly as js-tiktoken encodes the whole text", () => {
    const catalog = JSON.parse(readFileSync(new URL("../data/synthetic/catalog.json", import.meta.url), "utf8")) as {
      servers: { tools: { description?: string }[] }[];
    };
    const texts = [
      ...catalog.servers.flatMap((s) => s.tools.flatMap((t) => [JSON.stringify(t), t.description ?? ""])),
      "<|endoftext|> plain <|fim_prefix|>",
      "  \n\n  x\t\t y   \r\n\r\nz    ",
      "don't I'LL we've 12345678 ３４ 1.5e-3",
      "日本語のテキスト 😀👍🏽 café naïve 𝔘𝔫𝔦\u200bzero",
      "Hello, World!!! ... --flag=value https://example.com/a?b=c",
    ];
    for (const encoding of ["cl100k_base", "o200k_base"] as const) {
      const reference = getEncoding(encoding);
      // Twice: the second pass reads every piece from the cache.
      for (let pass = 0; pass < 2; pass++)
        for (const text of texts) {
          const want = reference.encode(text, [], []);
          assert.deepEqual(encodeTokens(text, encoding), want, `${encoding}: ${text.slice(0, 60)}`);
          // The encoder itself, without the piece cache, on the whole text.
          assert.deepEqual(getEncoder(encoding).encode(text), want, `${encoding}: ${text.slice(0, 60)}`);
        }
    }
  });

  it("validates encoding names", () => {
    assert.equal(isTokenEncoding("o200k_base"), true);
    assert.equal(isTokenEncoding("p50k_base"), false);
    assert.throws(() => getEncoder("p50k_base" as never), /p50k_base/);
  });
});

describe("truncateToTokens", () => {
  const text = "The quick brown fox jumps over the lazy dog while the five boxing wizards jump quickly across the wide river bank.";

  it("returns the text unchanged when it fits", () => {
    assert.equal(truncateToTokens(text, 1000), text);
    assert.equal(truncateToTokens(text, countTokens(text)), text);
  });

  it("respects the limit for every limit, ending with an ellipsis after a prefix of the text", () => {
    const n = countTokens(text);
    for (let max = 1; max < n; max++) {
      for (const enc of ["cl100k_base", "o200k_base"] as const) {
        const out = truncateToTokens(text, max, enc);
        assert.ok(countTokens(out, enc) <= max, `${enc} max=${max}: ${countTokens(out, enc)} ${JSON.stringify(out)}`);
        assert.ok(out.endsWith("…"), out);
        assert.ok(text.startsWith(out.slice(0, -1)), out);
      }
    }
  });

  it("cuts on a word boundary when one is near", () => {
    const out = truncateToTokens(text, 12);
    const body = out.slice(0, -1);
    assert.ok(text.startsWith(body + " "), JSON.stringify(out));
  });

  it("respects the limit for CJK text", () => {
    const cjk = "日本語のテキストです。これは長い文章です。".repeat(5);
    for (const max of [3, 5, 10, 20]) assert.ok(countTokens(truncateToTokens(cjk, max)) <= max, `${max}`);
  });

  it(
    "respects a limit of 0",
    () => {
      assert.ok(countTokens(truncateToTokens(text, 0)) <= 0);
    },
  );

  it(
    "never emits a broken character when cutting inside a multi-token character",
    () => {
      const out = truncateToTokens("🎉🎉🎉🎉🎉🎉", 3);
      assert.ok(!out.includes("\uFFFD"), JSON.stringify(out));
    },
  );
});

describe("renderPool token budget (maxTokens)", () => {
  // Three servers with long descriptions; "search" exists on two of them, so its ids are server-qualified.
  const spec = () => ({
    servers: ["alpha", "beta", "gamma"].map((server, s) => ({
      name: server,
      description: `The ${server} service: records, reports and exports of team ${s}.`,
      tools: [
        { name: "search", description: `Search ${server} records by keyword and return the matching records with their ids and owners.` },
        ...Array.from({ length: 14 }, (_, i) => ({
          name: `${server}_${["list", "get", "export"][i % 3]}_${["report", "record", "ledger", "invoice", "contract"][i % 5]}_${i}`,
          description: `Handles ${server} item ${i}: fetches, validates and formats it for the caller, including attachments and history.`,
        })),
      ],
    })),
  });
  const catalog = () => ToolCatalog.fromCatalogObject(spec());
  const tiers = (c: ToolCatalog, maxTokens: number | false, extra: Parameters<typeof renderPoolTiered>[1] = {}) =>
    renderPoolTiered(c, { ...extra, maxTokens });

  it("keeps the one-line-per-tool pool byte-for-byte when it fits (the demo catalog under the default budget)", () => {
    const c = demo();
    const unbounded = renderPool(c, { maxTokens: false });
    const r = renderPoolTiered(c);
    assert.equal(r.tier, 1);
    assert.ok(r.tokens < DEFAULT_POOL_MAX_TOKENS);
    assert.equal(Buffer.compare(Buffer.from(r.text), Buffer.from(unbounded)), 0);
    assert.equal(renderPool(c, { maxTokens: Infinity }), unbounded);
    assert.equal(r.text.split("\n")[0], POOL_HEADER);
    assert.equal(r.tokens, countTokens(r.text));
  });

  it("falls back to names per server, then to server lines, as the budget shrinks, never over budget", () => {
    const c = catalog();
    const full = tiers(c, false);
    assert.equal(tiers(c, full.tokens).tier, 1);
    const names = tiers(c, full.tokens - 1);
    assert.equal(names.tier, 2);
    assert.ok(names.tokens <= full.tokens - 1);
    assert.equal(names.text.split("\n")[0], NAMES_POOL_HEADER);
    // Every tool appears by id (server-qualified where names collide), under its server's heading.
    const lines = names.text.split("\n");
    for (const server of ["alpha", "beta", "gamma"]) {
      const at = lines.indexOf(`[${server}] The ${server} service: records, reports and exports of team ${["alpha", "beta", "gamma"].indexOf(server)}. (15 tools)`);
      assert.ok(at > 0, server);
      const ids = lines[at + 1].split(", ");
      assert.deepEqual(ids, c.tools.filter((t) => t.server === server).map((t) => t.id));
    }
    assert.ok(names.text.includes("alpha__search") && names.text.includes("beta__search"));

    const servers = tiers(c, names.tokens - 1);
    assert.equal(servers.tier, 3);
    assert.equal(servers.text.split("\n")[0], SERVERS_POOL_HEADER);
    for (const server of ["alpha", "beta", "gamma"]) assert.match(servers.text, new RegExp(`^\\[${server}\\] .*\\(15 tools; e\\.g\\. `, "m"));
    // Common name words, without the server's own name or CRUD verbs.
    assert.match(servers.text, /^\[alpha\] .*e\.g\. [a-z, ]*\breport\b/m);
    assert.doesNotMatch(servers.text, /e\.g\.[^)]*\b(alpha|list|get)\b/);

    for (let budget = names.tokens + 50; budget >= 80; budget -= 7) {
      const r = tiers(c, budget);
      assert.ok(r.tokens <= budget, `budget ${budget}: ${r.tokens} tokens (tier ${r.tier})`);
      assert.equal(r.tokens, countTokens(r.text), `budget ${budget}`);
    }
  });

  it("cuts a catalog with too many servers to the ones that fit and counts the rest", () => {
    const many = ToolCatalog.fromCatalogObject({
      servers: Array.from({ length: 120 }, (_, s) => ({
        name: `service_${s}`,
        tools: Array.from({ length: 4 }, (_, i) => ({ name: `service_${s}_sync_item_${i}`, description: "Sync an item." })),
      })),
    });
    const r = tiers(many, 400);
    assert.equal(r.tier, 3);
    assert.ok(r.tokens <= 400, String(r.tokens));
    const shown = r.text.split("\n").filter((l) => l.startsWith("[service_")).length;
    assert.ok(shown > 0 && shown < 120, String(shown));
    assert.ok(r.text.endsWith(`… and ${120 - shown} more servers with ${(120 - shown) * 4} tools.`), r.text.slice(-80));
    // The shown servers are the first ones, in catalog order.
    assert.deepEqual(r.text.split("\n").slice(1, 1 + shown).map((l) => l.slice(1, l.indexOf("]"))), Array.from({ length: shown }, (_, s) => `service_${s}`));
  });

  it("is deterministic: the same catalog content renders the same bytes in every tier", () => {
    const a = catalog();
    const b = catalog();
    const full = tiers(a, false).tokens;
    for (const budget of [full, full - 1, 200, 120]) {
      const ra = tiers(a, budget);
      assert.equal(tiers(b, budget).text, ra.text, `budget ${budget}`);
      assert.equal(tiers(a, budget), ra, "memoized: the same object on every call");
    }
  });

  it("applies the budget to the terse format too", () => {
    const c = catalog();
    const terse = tiers(c, false, { format: "terse" });
    assert.ok(terse.text.startsWith(TERSE_POOL_HEADER));
    assert.equal(tiers(c, terse.tokens, { format: "terse" }).text, terse.text);
    const smaller = tiers(c, terse.tokens - 1, { format: "terse" });
    assert.equal(smaller.tier, 2);
    assert.ok(smaller.tokens <= terse.tokens - 1);
  });

  it("does not invite calls by name when the gate does not promote them", () => {
    const c = catalog();
    const full = tiers(c, false).tokens;
    assert.equal(tiers(c, full - 1, { callByName: false }).text.split("\n")[0], NAMES_POOL_HEADER_NO_PROMOTE);
    assert.equal(tiers(c, 150, { callByName: false }).text.split("\n")[0], SERVERS_POOL_HEADER_NO_PROMOTE);
    assert.doesNotMatch(NAMES_POOL_HEADER_NO_PROMOTE + SERVERS_POOL_HEADER_NO_PROMOTE, /call it/);
  });

  it("counts the budget in the router's encoding and rejects an invalid budget", () => {
    const c = catalog();
    const full = tiers(c, false, { encoding: "o200k_base" });
    assert.equal(full.tokens, countTokens(full.text, "o200k_base"));
    const router = new ToolAttentionRouter(c, { encoding: "o200k_base", pool: { maxTokens: full.tokens - 1 }, cacheDir: false, log: false });
    assert.equal(router.poolTier(), 2);
    assert.equal(router.poolTokens(), countTokens(router.pool(), "o200k_base"));
    assert.ok(router.poolTokens() <= full.tokens - 1);
    assert.throws(() => renderPool(c, { maxTokens: 0 }), /pool\.maxTokens/);
    assert.throws(() => renderPool(c, { maxTokens: Number.NaN }), /pool\.maxTokens/);
  });
});
