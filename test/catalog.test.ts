import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import {
  firstSentence,
  ROUTING_TEXT_MAX_CHARS,
  routingTextOf,
  splitIdentifier,
  SUMMARY_MAX_TOKENS,
  summarizeTool,
} from "../src/core/catalog/text.js";
import { ToolCatalog, type CatalogFile } from "../src/core/catalog/catalog.js";
import { checkPreconditions, emptyStateView, stateViewFrom } from "../src/core/preconditions/preconditions.js";
import { countTokens } from "../src/core/tokens/count.js";
import { renderPool } from "../src/core/render/render.js";
import { catalogFromLangChainTools } from "../src/adapters/langchain/tools.js";

const DEMO_PATH = new URL("../data/demo-catalog.json", import.meta.url).pathname;

/** 5,000 distinct words, no sentence punctuation at all. */
const FIVE_THOUSAND_WORDS = Array.from({ length: 5000 }, (_, i) => `${["alpha", "beta", "gamma", "delta", "zeta"][i % 5]}${i}`).join(" ");

let tmpRoot: string;
before(async () => {
  tmpRoot = await mkdtemp(path.join(tmpdir(), "tool-attention-catalog-"));
});
after(async () => {
  await rm(tmpRoot, { recursive: true, force: true });
});

describe("splitIdentifier", () => {
  it("splits camelCase, keeping case", () => {
    assert.equal(splitIdentifier("getWeReadRank"), "get We Read Rank");
    assert.equal(splitIdentifier("sendEmail"), "send Email");
  });
  it("splits snake_case and kebab-case and other separators", () => {
    assert.equal(splitIdentifier("get_weread_rank"), "get weread rank");
    assert.equal(splitIdentifier("list-files"), "list files");
    assert.equal(splitIdentifier("fs.read_file"), "fs read file");
    assert.equal(splitIdentifier("mcp::tools/list"), "mcp tools list");
  });
  it("collapses repeated and surrounding separators", () => {
    assert.equal(splitIdentifier("__get__weather--"), "get weather");
    assert.equal(splitIdentifier(""), "");
    assert.equal(splitIdentifier("___"), "");
  });
  it("separates digits from letters", () => {
    assert.equal(splitIdentifier("utf8Decode"), "utf 8 Decode");
    assert.equal(splitIdentifier("base64"), "base 64");
    assert.equal(splitIdentifier("v2Api"), "v 2 Api");
  });
  it("keeps a leading acronym together before a capitalized word", () => {
    assert.equal(splitIdentifier("HTTPServer"), "HTTP Server");
    assert.equal(splitIdentifier("parseHTTPResponse"), "parse HTTP Response");
    assert.equal(splitIdentifier("getURL"), "get URL");
  });
  it(
    "keeps a pluralised acronym together (listPRs → list PRs)",
    () => {
      assert.equal(splitIdentifier("listPRs"), "list PRs");
      assert.equal(splitIdentifier("list-PRs2"), "list PRs 2");
      assert.equal(splitIdentifier("myURLs"), "my URLs");
    },
  );
});

describe("firstSentence", () => {
  it("returns only the first sentence, capitalized", () => {
    assert.equal(firstSentence("get the weather for a city. Also returns a forecast."), "Get the weather for a city.");
    assert.equal(firstSentence("Delete it now! Really."), "Delete it now!");
    assert.equal(firstSentence("Is it raining? Ask here."), "Is it raining?");
  });
  it("removes boilerplate openers", () => {
    assert.equal(firstSentence("This tool is used to fetch the weather. More."), "Fetch the weather.");
    assert.equal(firstSentence("The function allows you to list files."), "List files.");
    assert.equal(firstSentence("A tool to send emails."), "Send emails.");
    assert.equal(firstSentence("A function that compresses files."), "Compresses files.");
    assert.equal(firstSentence("Use this tool when you need to search code."), "Search code.");
    assert.equal(firstSentence("Allows the user to rename a file."), "Rename a file.");
    assert.equal(firstSentence("Call this tool to merge a pull request."), "Merge a pull request.");
    // Only openers are removed, not the same words later in the sentence.
    assert.equal(firstSentence("Fetch data. This tool is used to fetch."), "Fetch data.");
  });
  it("does not split on abbreviations, versions or dotted names", () => {
    assert.equal(firstSentence("Send a message, e.g. to a channel. Second."), "Send a message, e.g. to a channel.");
    assert.equal(firstSentence("Returns rows, i.e. a table. Second."), "Returns rows, i.e. a table.");
    assert.equal(firstSentence("Get v1.2 release notes. Then more."), "Get v1.2 release notes.");
    assert.equal(firstSentence("Query example.com for status. Next."), "Query example.com for status.");
  });
  it("strips markdown and HTML", () => {
    assert.equal(firstSentence("**Bold** `code` [link](http://x.y/z) text. Next"), "Bold code link text.");
    assert.equal(firstSentence("<b>hi</b> there. x"), "Hi there.");
    assert.equal(firstSentence("```js\nconst a = 1;\n``` Real text here. Next"), "Real text here.");
    assert.equal(firstSentence("![img](a.png) Shows a picture. More"), "Shows a picture.");
    const out = firstSentence("## Heading\n\n_Lists_ the *files* here.");
    assert.doesNotMatch(out, /[#*_`]/);
    assert.equal(out, "Heading Lists the files here.");
  });
  it(
    "does not leave a space before punctuation after emphasis",
    () => {
      assert.equal(firstSentence("Get the **weather**. More"), "Get the weather.");
      assert.equal(firstSentence("Call read_file first."), "Call read_file first.");
    },
  );
  it("returns the whole text when there is no sentence end", () => {
    assert.equal(firstSentence("list the channels in the workspace"), "List the channels in the workspace");
  });
  it("returns an empty string for empty, blank or markup-only input", () => {
    assert.equal(firstSentence(""), "");
    assert.equal(firstSentence("   \n\t "), "");
    assert.equal(firstSentence("```\ncode only\n```"), "");
    assert.equal(firstSentence("**  **"), "");
  });
});

describe("summarizeTool", () => {
  const poolLineTokens = (name: string, summary: string, enc: "cl100k_base" | "o200k_base" = "cl100k_base") =>
    countTokens(`- ${name}: ${summary}`, enc);

  it("keeps the pool line within 60 cl100k tokens for a 5,000-word description", () => {
    assert.equal(SUMMARY_MAX_TOKENS, 60);
    for (const name of ["get_weather", "x", "create_or_update_repository_file_contents"]) {
      const s = summarizeTool(name, FIVE_THOUSAND_WORDS);
      assert.ok(s.length > 0);
      const n = poolLineTokens(name, s);
      assert.ok(n <= 60, `${name}: ${n} tokens`);
      // It is a truncation of the description, not something else.
      assert.ok(s.endsWith("…"));
      assert.ok(FIVE_THOUSAND_WORDS.toLowerCase().startsWith(s.slice(0, -1).toLowerCase().trimEnd()));
      // And it uses most of the budget rather than being needlessly short.
      assert.ok(n >= 40, `${name}: only ${n} tokens`);
    }
  });

  it("keeps the pool line within 60 tokens for a long first sentence and for o200k", () => {
    const desc = `${FIVE_THOUSAND_WORDS}. Second sentence.`;
    assert.ok(poolLineTokens("search_code", summarizeTool("search_code", desc)) <= 60);
    const o = summarizeTool("search_code", desc, "o200k_base");
    assert.ok(poolLineTokens("search_code", o, "o200k_base") <= 60);
  });

  it("uses only the first sentence of a normal description, unchanged", () => {
    assert.equal(summarizeTool("get_weather", "Get the current weather for a city. Uses a paid API."), "Get the current weather for a city.");
  });

  it("falls back to the split name when the description is empty or missing", () => {
    assert.equal(summarizeTool("get_weather", ""), "Get weather.");
    assert.equal(summarizeTool("get_weather", undefined), "Get weather.");
    assert.equal(summarizeTool("listChannels", "   "), "List channels.");
    assert.equal(summarizeTool("", ""), "");
  });

  it("is deterministic", () => {
    const a = summarizeTool("get_weather", FIVE_THOUSAND_WORDS);
    const b = summarizeTool("get_weather", FIVE_THOUSAND_WORDS);
    assert.equal(a, b);
    assert.equal(summarizeTool("x", "**Do** a thing. Then"), summarizeTool("x", "**Do** a thing. Then"));
  });
});

describe("routingTextOf", () => {
  it("combines split name, server and markup-free description", () => {
    assert.equal(routingTextOf("get_weather", "web", "Get the **current weather** now."), "get weather (web): Get the current weather now.");
    assert.equal(routingTextOf("listPullRequests", "git_hub", undefined), "list Pull Requests (git hub)");
    assert.equal(routingTextOf("get_weather", "", ""), "get weather");
  });
  it("is truncated to ROUTING_TEXT_MAX_CHARS, on a word boundary when possible", () => {
    const t = routingTextOf("get_weather", "web", FIVE_THOUSAND_WORDS);
    assert.ok(t.length <= ROUTING_TEXT_MAX_CHARS, `${t.length}`);
    assert.ok(t.length > ROUTING_TEXT_MAX_CHARS * 0.7);
    assert.ok(t.startsWith("get weather (web): alpha0 beta1"));
    // Ends on a whole word of the description.
    const last = t.split(" ").at(-1)!;
    assert.ok(FIVE_THOUSAND_WORDS.split(" ").includes(last), last);
  });
  it("hard-cuts at the limit when there is no space to cut at", () => {
    const t = routingTextOf("x", "", "y".repeat(5000));
    assert.equal(t.length, ROUTING_TEXT_MAX_CHARS);
    assert.ok(t.startsWith("x: yyy"));
  });
  it("leaves short texts alone", () => {
    const desc = "a ".repeat(150).trim();
    const t = routingTextOf("t", "", desc);
    assert.equal(t, `t: ${desc}`);
  });
});

function catalogWith(data: unknown, options = {}) {
  return ToolCatalog.fromCatalogObject(data, options);
}

describe("ToolCatalog", () => {
  it("accepts an empty catalog", () => {
    const c = catalogWith({ servers: [] });
    assert.equal(c.size, 0);
    assert.deepEqual(c.tools, []);
    assert.deepEqual(c.warnings, []);
    assert.equal(c.resolve("anything"), undefined);
    assert.deepEqual(c.getByName("anything"), []);
    assert.equal(typeof c.fingerprint, "string");
    assert.equal(c.fingerprint.length, 16);
  });

  it("rejects a file that is not in the catalog format", () => {
    assert.throws(() => catalogWith({ tools: [] }), /Invalid catalog/);
    assert.throws(() => catalogWith([]), /Invalid catalog/);
    assert.throws(() => catalogWith(null), /Invalid catalog/);
  });

  it("loads the demo catalog: 27 tools, 6 servers, no warnings", () => {
    const c = ToolCatalog.fromFile(DEMO_PATH);
    assert.equal(c.size, 27);
    assert.equal(c.servers.size, 6);
    assert.deepEqual(c.warnings, []);
    assert.equal(new Set(c.tools.map((t) => t.id)).size, 27);
    const mig = c.getById("execute_migration")!;
    assert.equal(mig.server, "database");
    assert.deepEqual(mig.preconditions, [{ requiresScopes: ["db:admin"], milestone: "migration_approved" }]);
    assert.deepEqual(mig.tags, ["write", "admin"]);
    assert.ok(mig.summary.length > 0);
    assert.ok(mig.routingText.startsWith("execute migration (database): "));
  });

  it("gives server-qualified ids to names that occur on several servers", () => {
    const c = catalogWith({
      servers: [
        { name: "github", tools: [{ name: "search", description: "Search code." }, { name: "only_gh" }] },
        { name: "jira", tools: [{ name: "search", description: "Search issues." }] },
      ],
    });
    assert.deepEqual(c.tools.map((t) => t.id), ["github__search", "only_gh", "jira__search"]);
    assert.deepEqual(c.warnings, []);
    // By id: exact tool. By name: both, in catalog order; resolve(name) gives the first.
    assert.equal(c.resolve("jira__search")!.description, "Search issues.");
    assert.equal(c.getById("github__search")!.server, "github");
    assert.deepEqual(c.getByName("search").map((t) => t.id), ["github__search", "jira__search"]);
    assert.equal(c.resolve("search")!.id, "github__search");
    assert.equal(c.getById("search"), undefined);
    assert.equal(c.resolve("only_gh")!.id, "only_gh");
    // Both keep the plain name the model calls.
    assert.deepEqual(c.getByName("search").map((t) => t.name), ["search", "search"]);
  });

  it("suffixes a duplicate name on the same server and warns naming server and tool", () => {
    const c = catalogWith({
      servers: [{ name: "fs", tools: [{ name: "read", description: "first" }, { name: "read", description: "second" }] }],
    });
    assert.equal(c.size, 2);
    assert.deepEqual(c.tools.map((t) => t.id), ["read", "read__2"]);
    assert.equal(c.getById("read__2")!.description, "second");
    assert.equal(c.resolve("read")!.description, "first");
    assert.equal(c.warnings.length, 1);
    assert.match(c.warnings[0], /server "fs"/);
    assert.match(c.warnings[0], /tool "read"/);
    assert.match(c.warnings[0], /read__2/);
  });

  it("skips a tool without a name, keeping the rest of its server, and warns", () => {
    const seen: string[] = [];
    const c = catalogWith(
      { servers: [{ name: "s1", tools: [{ name: "a" }, { description: "nameless" }, { name: "  " }, { name: "b" }] }] },
      { onWarning: (m: string) => seen.push(m) },
    );
    assert.deepEqual(c.tools.map((t) => t.id), ["a", "b"]);
    assert.equal(c.warnings.length, 2);
    assert.deepEqual(seen, c.warnings);
    assert.match(c.warnings[0], /server "s1"/);
    assert.match(c.warnings[0], /#1\b/);
    assert.match(c.warnings[0], /name/);
    assert.match(c.warnings[1], /#2\b/);
  });

  it("skips non-object tool entries with a warning", () => {
    const c = catalogWith({ servers: [{ name: "s", tools: [null, "str", { name: "ok" }] }] });
    assert.deepEqual(c.tools.map((t) => t.id), ["ok"]);
    assert.equal(c.warnings.length, 2);
    assert.match(c.warnings[0], /server "s".*#0.*null/);
    assert.match(c.warnings[1], /server "s".*#1.*string/);
  });

  it(
    "names the index of a nameless tool within its own server",
    () => {
      const c = catalogWith({ servers: [{ name: "a", tools: [{ name: "x" }, { name: "y" }, { name: "z" }] }, { name: "b", tools: [{}] }] });
      assert.equal(c.warnings.length, 1);
      assert.match(c.warnings[0], /server "b": tool #0 /);
    },
  );

  it("repairs a non-string description and a non-object inputSchema with warnings", () => {
    const c = catalogWith({
      servers: [{ name: "s", tools: [{ name: "t", description: 42, inputSchema: "nope" }, { name: "u", inputSchema: [1] }] }],
    });
    assert.equal(c.size, 2);
    const t = c.getById("t")!;
    assert.equal(t.description, "");
    assert.equal(t.summary, "T.");
    assert.deepEqual(t.inputSchema, { type: "object", properties: {} });
    assert.deepEqual(c.getById("u")!.inputSchema, { type: "object", properties: {} });
    assert.equal(c.warnings.length, 3);
    assert.ok(c.warnings.some((w) => /tool "t"/.test(w) && /description/.test(w) && /number/.test(w)));
    assert.ok(c.warnings.some((w) => /tool "t"/.test(w) && /inputSchema/.test(w)));
    assert.ok(c.warnings.some((w) => /tool "u"/.test(w) && /inputSchema/.test(w)));
    for (const w of c.warnings) assert.match(w, /server "s"/);
  });

  it("leaves inputSchema undefined when the tool declares none (lazy loading)", () => {
    const c = catalogWith({ servers: [{ name: "s", tools: [{ name: "t" }] }] });
    assert.equal(c.getById("t")!.inputSchema, undefined);
    assert.deepEqual(c.warnings, []);
  });

  it("fails closed on invalid preconditions: tool kept, always gated out, reason names the field", () => {
    const c = catalogWith({
      servers: [
        {
          name: "s",
          tools: [
            { name: "bad_scopes", preconditions: { requiresScopes: "x" } },
            { name: "bad_after", preconditions: { afterTool: 7 } },
            { name: "bad_milestone", preconditions: { milestone: ["ok", 3] } },
            { name: "fine", preconditions: { requiresScopes: ["x"] } },
          ],
        },
      ],
    });
    assert.equal(c.size, 4);
    // Even a state that holds everything a well-formed version would need cannot unlock it.
    const rich = stateViewFrom({ scopes: ["x"], milestones: ["ok", "3"], toolOutputs: ["7"] });
    const cases: [string, string][] = [["bad_scopes", "requiresScopes"], ["bad_after", "afterTool"], ["bad_milestone", "milestone"]];
    for (const [id, field] of cases) {
      for (const state of [emptyStateView(), rich]) {
        const r = checkPreconditions(c.getById(id)!, state);
        assert.equal(r.allow, false, id);
        assert.ok(!r.allow && r.reason.includes(field), `${id}: ${!r.allow && r.reason}`);
      }
      assert.ok(c.warnings.some((w) => w.includes(`tool "${id}"`) && w.includes(field)), id);
    }
    assert.equal(checkPreconditions(c.getById("fine")!, rich).allow, true);
    assert.equal(c.warnings.length, 3);
  });

  it(
    "fails closed when preconditions is not an object at all",
    () => {
      const c = catalogWith({ servers: [{ name: "s", tools: [{ name: "t", preconditions: "requiresScopes: admin" }, { name: "u", preconditions: [{ requiresScopes: ["admin"] }] }] }] });
      for (const id of ["t", "u"]) assert.equal(checkPreconditions(c.getById(id)!, emptyStateView()).allow, false, id);
    },
  );

  it("reports fromFile errors naming the file", async () => {
    const missing = path.join(tmpRoot, "nope.json");
    assert.throws(() => ToolCatalog.fromFile(missing), (e: Error) => e.message.includes(missing) && /ENOENT/.test(e.message));
    const broken = path.join(tmpRoot, "broken.json");
    await writeFile(broken, '{"servers": [ {"name": "x", ');
    assert.throws(() => ToolCatalog.fromFile(broken), (e: Error) => e.message.includes(broken) && /JSON/i.test(e.message));
    const wrongShape = path.join(tmpRoot, "shape.json");
    await writeFile(wrongShape, '{"tools": []}');
    assert.throws(() => ToolCatalog.fromFile(wrongShape), (e: Error) => e.message.includes(wrongShape) && /Invalid catalog/.test(e.message));
  });

  it("has a fingerprint that is stable for the same input and changes with routing text", () => {
    const raw = readFileSync(DEMO_PATH, "utf8");
    const a = ToolCatalog.fromCatalogObject(JSON.parse(raw));
    const b = ToolCatalog.fromFile(DEMO_PATH);
    assert.equal(a.fingerprint, b.fingerprint);
    assert.match(a.fingerprint, /^[0-9a-f]{16}$/);

    const changed = JSON.parse(raw) as CatalogFile;
    changed.servers[2].tools[0].description = "Run a read-only SQL query and return at most 100 rows.";
    assert.notEqual(ToolCatalog.fromCatalogObject(changed).fingerprint, a.fingerprint);

    const renamed = JSON.parse(raw) as CatalogFile;
    renamed.servers[0].tools[0].name = "open_issue";
    assert.notEqual(ToolCatalog.fromCatalogObject(renamed).fingerprint, a.fingerprint);

    // Fields that do not feed routing (schemas, tags) leave it unchanged.
    const schemaOnly = JSON.parse(raw) as CatalogFile;
    schemaOnly.servers[2].tools[0].inputSchema = { type: "object", properties: { sql: { type: "string" }, limit: { type: "integer" } } };
    schemaOnly.servers[2].tools[0].tags = ["other"];
    assert.equal(ToolCatalog.fromCatalogObject(schemaOnly).fingerprint, a.fingerprint);
  });

  it("applies options.preconditions and options.tags by name, and by id for collided names", () => {
    const data = {
      servers: [
        { name: "a", tools: [{ name: "t", tags: ["read"], preconditions: { requiresScopes: ["s1"] } }, { name: "dup" }] },
        { name: "b", tools: [{ name: "dup" }] },
      ],
    };
    const c = catalogWith(data, {
      preconditions: { t: { milestone: "m" }, b__dup: () => "b's dup is off" },
      tags: { t: ["read", "extra"], b__dup: ["x"] },
    });
    const t = c.getById("t")!;
    assert.deepEqual(t.tags, ["read", "extra"]);
    assert.equal(t.preconditions.length, 2);
    // Declared precondition first, then the option's.
    assert.deepEqual(checkPreconditions(t, emptyStateView()), { allow: false, reason: "missing scope: s1" });
    assert.deepEqual(checkPreconditions(t, stateViewFrom({ scopes: ["s1"] })), { allow: false, reason: "requires milestone m" });
    assert.equal(checkPreconditions(t, stateViewFrom({ scopes: ["s1"], milestones: ["m"] })).allow, true);

    assert.deepEqual(checkPreconditions(c.getById("b__dup")!, emptyStateView()), { allow: false, reason: "b's dup is off" });
    assert.equal(checkPreconditions(c.getById("a__dup")!, emptyStateView()).allow, true);
    assert.deepEqual(c.getById("b__dup")!.tags, ["x"]);
    assert.deepEqual(c.getById("a__dup")!.tags, []);
  });

  it("accepts an array of preconditions per tool in options", () => {
    const c = catalogWith(
      { servers: [{ name: "s", tools: [{ name: "t" }] }] },
      { preconditions: { t: [{ afterTool: "read_file" }, () => true] } },
    );
    assert.equal(c.getById("t")!.preconditions.length, 2);
    assert.equal(checkPreconditions(c.getById("t")!, emptyStateView()).allow, false);
    assert.equal(checkPreconditions(c.getById("t")!, stateViewFrom({ toolOutputs: ["read_file"] })).allow, true);
  });

  it(
    "is not confused by tool names that are Object.prototype keys",
    () => {
      const data = { servers: [{ name: "s", tools: [{ name: "constructor" }, { name: "toString" }] }] };
      const c = catalogWith(data, { preconditions: {}, tags: {} });
      for (const t of c.tools) {
        assert.equal(checkPreconditions(t, emptyStateView()).allow, true, t.id);
        assert.deepEqual(t.tags, []);
      }
    },
  );

  it("keeps the server descriptions and lists every server", () => {
    const c = catalogWith({ servers: [{ name: "s", description: "Stuff.", tools: [{ name: "t" }] }, { name: "empty", tools: [] }] });
    assert.equal(c.servers.get("s"), "Stuff.");
    assert.ok(c.servers.has("empty"));
  });

  it("builds from MCP tools/list results and keeps the spec as source", () => {
    const spec = { name: "ping", description: "Ping a host.", inputSchema: { type: "object", properties: { host: { type: "string" } } } };
    const c = ToolCatalog.fromMcpTools({ net: [spec], other: [{ name: "ping" }] });
    assert.deepEqual(c.tools.map((t) => t.id), ["net__ping", "other__ping"]);
    assert.equal(c.sourceOf("net__ping"), spec);
    assert.deepEqual(c.getById("net__ping")!.inputSchema, spec.inputSchema);
  });

  it(
    "keeps every Phase-1 pool line ≤ 60 tokens, also for server-qualified ids",
    () => {
      const long = `Weather ${FIVE_THOUSAND_WORDS}.`;
      const c = catalogWith({
        servers: [
          { name: "some_really_long_server_name_here", tools: [{ name: "get_forecast_for_region", description: long }] },
          { name: "another_long_server_name_x", tools: [{ name: "get_forecast_for_region", description: long }] },
        ],
      });
      for (const line of renderPool(c).split("\n").filter((l) => l.startsWith("- ")))
        assert.ok(countTokens(line) <= 60, `${countTokens(line)}: ${line.slice(0, 70)}`);
    },
  );
});

describe("catalogFromLangChainTools", () => {
  const weather = tool(async ({ city }: { city: string }) => `sunny in ${city}`, {
    name: "get_weather",
    description: "Get the weather for a city.",
    schema: z.object({ city: z.string().describe("City name"), days: z.number().optional() }),
    metadata: { toolAttention: { server: "web", tags: ["read"], preconditions: { requiresScopes: ["weather:read"] } } },
  });
  const email = tool(async () => "sent", {
    name: "send_email",
    description: "Send an email.",
    schema: {
      type: "object",
      properties: { to: { type: "string" }, body: { type: "string" } },
      required: ["to"],
    },
  });

  it("converts zod and JSON-schema tools to JSON Schema inputSchema", () => {
    const c = catalogFromLangChainTools([weather, email]);
    assert.deepEqual(c.warnings, []);
    const w = c.getById("get_weather")!.inputSchema!;
    assert.equal(w.type, "object");
    assert.deepEqual(Object.keys(w.properties as object).sort(), ["city", "days"]);
    assert.deepEqual((w.properties as Record<string, { type: string; description?: string }>).city, { type: "string", description: "City name" });
    assert.deepEqual(w.required, ["city"]);
    // The result is plain JSON, not a zod object.
    assert.deepEqual(JSON.parse(JSON.stringify(w)), w);

    const e = c.getById("send_email")!.inputSchema!;
    assert.deepEqual(e.properties, { to: { type: "string" }, body: { type: "string" } });
    assert.deepEqual(e.required, ["to"]);
  });

  it("picks up metadata.toolAttention preconditions, tags and server, and keeps the tool as source", () => {
    const c = catalogFromLangChainTools([weather, email], { server: "default" });
    const w = c.getById("get_weather")!;
    assert.equal(w.server, "web");
    assert.deepEqual(w.tags, ["read"]);
    assert.deepEqual(checkPreconditions(w, emptyStateView()), { allow: false, reason: "missing scope: weather:read" });
    assert.equal(checkPreconditions(w, stateViewFrom({ scopes: ["weather:read"] })).allow, true);
    assert.equal(c.getById("send_email")!.server, "default");
    assert.equal(c.sourceOf("get_weather"), weather);
    assert.equal(c.sourceOf("send_email"), email);
    assert.equal(w.description, "Get the weather for a city.");
  });

  it("skips non-tool entries with a warning naming their index", () => {
    const warnings: string[] = [];
    const c = catalogFromLangChainTools([weather, { nope: 1 } as never, null as never, email], { onWarning: (m) => warnings.push(m) });
    assert.deepEqual(c.tools.map((t) => t.id), ["get_weather", "send_email"]);
    assert.equal(c.warnings.length, 2);
    assert.match(c.warnings[0], /#1\b.*skipped/);
    assert.match(c.warnings[1], /#2\b.*skipped/);
    assert.deepEqual(warnings, c.warnings);
  });

  it("gives a tool without a schema an empty object schema", () => {
    const c = catalogFromLangChainTools([{ name: "noop", description: "Does nothing." }]);
    assert.deepEqual(c.getById("noop")!.inputSchema, { type: "object", properties: {} });
  });
});
