/** ToolAttentionRouter.replaceCatalog: incremental embedding, removed tools out of routing at once. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { CountingEmbeddings } from "./helpers/store-fixtures.js";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { countTokens } from "../src/core/tokens/count.js";

const tool = (name: string, description: string, properties: Record<string, unknown> = {}) => ({
  name,
  description,
  inputSchema: { type: "object", properties },
});

test("replaceCatalog embeds only new routing texts and routes over the new tool set", async () => {
  const encoder = new CountingEmbeddings();
  const before = ToolCatalog.fromMcpTools({
    weather: [tool("get_forecast", "Get the weather forecast for a city."), tool("get_alerts", "Get severe weather alerts for a region.")],
    mail: [tool("send_email", "Send an email message to a recipient.")],
  });
  // Whole-text rows only here; the multi-vector rows' own incremental embedding is tested in routing-channels.test.ts.
  const router = new ToolAttentionRouter(before, { encoder, cacheDir: false, log: false, alwaysInclude: ["send_email"], k: 3, multiVector: false });
  await router.prepare();
  const poolTokensBefore = router.poolTokens(); // memoized for the first catalog
  assert.equal(encoder.texts.length, 3);
  assert.ok((await router.route("send an email to bob")).active.some((a) => a.name === "send_email"));

  const after = ToolCatalog.fromMcpTools({
    weather: [
      tool("get_forecast", "Get the weather forecast for a city.", { city: { type: "string" } }), // schema changed only
      tool("get_alerts", "Get severe weather alerts and warnings for a region."), // reworded
    ],
    calendar: [tool("create_event", "Create a calendar event with a title and a time.")],
  });
  const update = await router.replaceCatalog(after);
  assert.deepEqual(update.added, ["create_event"]);
  assert.deepEqual(update.changed.sort(), ["get_alerts", "get_forecast"]);
  assert.deepEqual(update.removed, ["send_email"]);
  // get_forecast's routing text did not change: only the two new texts were embedded.
  assert.equal(update.embedded, 2);
  assert.deepEqual(encoder.texts.slice(3).sort(), [after.getById("create_event")?.routingText, after.getById("get_alerts")?.routingText].sort());

  assert.equal(router.catalog, after);
  const d = await router.route("schedule a calendar event for the team meeting at noon");
  assert.equal(d.active[0].name, "create_event");
  assert.ok(!d.active.some((a) => a.name === "send_email"), "the removed always-included tool is gone");
  assert.ok(!d.candidates.some((c) => c.name === "send_email"));
  // Phase-2 schemas come from the new catalog (the changed schema, not a cached old one).
  const [forecast] = await router.loader.getMany(["get_forecast"]);
  assert.deepEqual(forecast.inputSchema.properties, { city: { type: "string" } });
  assert.equal(d.fullSchemaTokens, await router.schemaTokens(after.tools.map((t) => t.id)));
  assert.ok(router.pool().includes("create_event") && !router.pool().includes("send_email"));
  // The pool's token count belongs to the new catalog, not the one it replaced.
  assert.equal(router.poolTokens(), countTokens(router.pool(), router.encoding));
  assert.notEqual(router.poolTokens(), poolTokensBefore);
});
