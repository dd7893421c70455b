/**
 * The router's scoring channels beyond dense + lexical: multi-vector rows (max-sim), the server channel, and the
 * evaluation's measure of the search_tools way back. Real USE-lite throughout.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { CountingEmbeddings } from "./helpers/store-fixtures.js";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { descriptionSentences, multiVectorRowsOf } from "../src/core/router/channels/multi-vector.js";
import { evaluate, routedQueries } from "../src/eval/evaluate.js";
import { DEFAULT_INTENT } from "../src/core/router/intent.js";

const tool = (name: string, description: string, properties: Record<string, unknown> = {}) => ({
  name,
  description,
  inputSchema: { type: "object", properties },
});

function catalog() {
  return ToolCatalog.fromMcpTools({
    files: [
      tool(
        "manage_workspace",
        "Reads, writes and lists files in the agent's workspace directory. Moves and renames files. Compresses a folder into a zip archive for download.",
        { path: { type: "string" } },
      ),
      tool("read_file", "Read the contents of a text file."),
    ],
    weather: [tool("get_forecast", "Get the weather forecast for a city."), tool("get_alerts", "Get severe weather alerts for a region.")],
    mail: [tool("send_email", "Send an email message to a recipient.", { to: { type: "string" }, subject: { type: "string" } })],
  });
}

const scoreOf = (d: { candidates: { name: string; score: number }[] }, name: string) => d.candidates.find((c) => c.name === name)?.score;

describe("multi-vector rows (max-sim)", () => {
  it("rows are the name, name + each sentence, name + parameters", () => {
    const c = catalog();
    const t = c.getByName("manage_workspace")[0];
    const rows = multiVectorRowsOf(t, undefined, { multiServer: true });
    assert.equal(rows[0], "manage workspace (files)");
    assert.equal(rows.length, 1 + 3 + 1);
    assert.match(rows[3], /^manage workspace: Compresses a folder into a zip archive/);
    assert.equal(rows[4], "manage workspace: path");
    assert.deepEqual(descriptionSentences("Lists items, e.g. files. Version 1.2 is used. ok"), ["Lists items, e.g. files.", "Version 1.2 is used. ok"]);
  });

  it("a query about one sentence of a long description raises that tool's score", async () => {
    const q = "compress this folder into a zip archive";
    const on = await new ToolAttentionRouter(catalog(), { cacheDir: false, log: false, servers: false }).route(q);
    const off = await new ToolAttentionRouter(catalog(), { cacheDir: false, log: false, servers: false, multiVector: false }).route(q);
    assert.equal(on.active[0].name, "manage_workspace");
    assert.ok((scoreOf(on, "manage_workspace") ?? 0) > (scoreOf(off, "manage_workspace") ?? 0), `${scoreOf(on, "manage_workspace")} vs ${scoreOf(off, "manage_workspace")}`);
  });

  it("embeds rows once, with the tool texts, and only new rows on a catalog change; off above maxTools", async () => {
    const enc = new CountingEmbeddings();
    const router = new ToolAttentionRouter(catalog(), { encoder: enc, cacheDir: false, log: false });
    await router.prepare();
    const c = catalog();
    const rows = c.tools.reduce((n, t) => n + multiVectorRowsOf(t, undefined, { multiServer: true }).length, 0);
    assert.equal(enc.texts.length, new Set([...router.toolTexts(), ...enc.texts]).size, "no text embedded twice");
    assert.equal(enc.texts.length, c.size + rows, `${enc.texts.length} texts for ${c.size} tools and ${rows} rows`);
    enc.texts = [];
    const next = ToolCatalog.fromMcpTools({
      files: [tool("read_file", "Read the contents of a text file.")],
      weather: [tool("get_forecast", "Get the weather forecast for a city."), tool("get_alerts", "Get severe weather alerts for a region.")],
      mail: [tool("send_email", "Send an email message to a recipient.", { to: { type: "string" }, subject: { type: "string" } })],
      calendar: [tool("create_event", "Create a calendar event.")],
    });
    const update = await router.replaceCatalog(next);
    // New: create_event's whole text and its rows (name, one sentence); the server context of the others is unchanged.
    assert.deepEqual(enc.texts.sort(), ["create event (calendar)", "create event (calendar): Create a calendar event.", "create event: Create a calendar event."].sort());
    assert.equal(update.embedded, 3);

    const small = new CountingEmbeddings();
    await new ToolAttentionRouter(catalog(), { encoder: small, cacheDir: false, log: false, multiVector: { maxTools: 3 } }).prepare();
    assert.equal(small.texts.length, catalog().size, "above maxTools only the whole texts are embedded");
    assert.throws(() => new ToolAttentionRouter(catalog(), { multiVector: { weight: 2 } }), /multiVector\.weight/);
  });
});

describe("server channel", () => {
  it("the best server's tools keep their score, other servers' tools lose some; one server: no change", async () => {
    const q = "will it rain in Oslo tomorrow";
    const on = await new ToolAttentionRouter(catalog(), { cacheDir: false, log: false, multiVector: false, servers: { weight: 0.5 } }).route(q);
    const off = await new ToolAttentionRouter(catalog(), { cacheDir: false, log: false, multiVector: false, servers: false }).route(q);
    assert.ok(Math.abs((scoreOf(on, "get_forecast") ?? 0) - (scoreOf(off, "get_forecast") ?? 1)) < 1e-6);
    assert.ok((scoreOf(on, "send_email") ?? 0) < (scoreOf(off, "send_email") ?? 0));
    assert.equal(on.active[0].name, "get_forecast");

    const single = ToolCatalog.fromMcpTools({ only: [tool("get_forecast", "Get the weather forecast for a city."), tool("send_email", "Send an email.")] });
    const a = await new ToolAttentionRouter(single, { cacheDir: false, log: false, multiVector: false }).route(q);
    const b = await new ToolAttentionRouter(single, { cacheDir: false, log: false, multiVector: false, servers: false }).route(q);
    assert.deepEqual(a.candidates, b.candidates);
    assert.throws(() => new ToolAttentionRouter(catalog(), { servers: { weight: -1 } }), /servers\.weight/);
  });
});

describe("evaluation: per-step routing and the search_tools way back", () => {
  const task = {
    id: "t1",
    query: "sort out the team offsite",
    gold: ["get_forecast", "send_email"],
    steps: ["check the weather forecast for Lisbon on Friday", "email everyone the plan"],
  };

  it("routes a step as the adapters route a stated plan: the request at 1, the step at planWeight", () => {
    const q = routedQueries(task, true);
    assert.equal(q[0], task.query);
    assert.deepEqual(q[1], [
      { text: task.query, weight: 1 },
      { text: task.steps[0], weight: DEFAULT_INTENT.planWeight },
    ]);
    assert.deepEqual(routedQueries(task, false), [task.query]);
  });

  it("searchRecovery counts the request's misses that one search per step finds", async () => {
    const router = new ToolAttentionRouter(catalog(), { cacheDir: false, log: false, k: 1, minActive: 0 });
    const r = await evaluate(router, [task], { perStep: true, k: 1, latencySample: 0 });
    const s = r.searchRecovery;
    assert.ok(s);
    // k = 1: the request alone cannot hold both gold tools.
    assert.ok(s.missed >= 1, JSON.stringify(s));
    assert.ok(s.found >= 1 && s.found <= s.missed, JSON.stringify(s));
    assert.equal(s.share, s.found / s.missed);
    assert.ok(s.afterSteps.missed <= s.missed);
    const single = await evaluate(router, [task], { k: 1, latencySample: 0 });
    assert.equal(single.searchRecovery, undefined);
  });
});
