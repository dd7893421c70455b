/**
 * Name resolution for tool calls (resolveCallName), the closest tools of a refused call (closestTools), and the
 * core gate with both wired in.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ToolCatalog, type CatalogEntry } from "../src/core/catalog/catalog.js";
import { resolveCallName } from "../src/core/catalog/names.js";
import { closestTools } from "../src/core/gate/closest.js";
import { gateToolCalls } from "../src/core/gate/gate.js";

const schema = { type: "object", properties: {} };
function entry(server: string, name: string, description = `${name.replace(/_/g, " ")}.`, properties: Record<string, unknown> = {}): CatalogEntry {
  return { server, spec: { name, description, inputSchema: { ...schema, properties } } };
}

/** Names as an MCP session gives them: qualified `server__name` when two servers offer the same name. */
const mcp = new ToolCatalog(
  [
    entry("memory", "memory__create_entities", "Create entities in the knowledge graph."),
    entry("notes", "notes__create_entities", "Create entities in the notes store."),
    entry("memory", "memory__read_graph", "Read the whole knowledge graph."),
    entry("memory", "search_nodes", "Search the knowledge graph for nodes."),
    entry("github", "create_issue", "Create a new issue in a GitHub repository.", { title: { type: "string" }, body: { type: "string" } }),
    entry("github", "list_issues", "List the issues of a GitHub repository."),
    entry("web-tools", "fetch_url", "Fetch a web page."),
    entry("slack", "post_message", "Post a message to a Slack channel.", { channel: { type: "string" }, text: { type: "string" } }),
    entry("calendar", "send_email", "Send an email to recipients.", { to: { type: "array" }, subject: { type: "string" } }),
  ],
  { log: false },
);

describe("resolveCallName", () => {
  it("an exact name is exact", () => {
    assert.deepEqual(resolveCallName(mcp, "create_issue"), { status: "exact", name: "create_issue" });
    assert.deepEqual(resolveCallName(mcp, "memory__read_graph"), { status: "exact", name: "memory__read_graph" });
  });

  it("an unqualified name resolves to the one server-qualified tool that carries it", () => {
    assert.deepEqual(resolveCallName(mcp, "read_graph"), { status: "resolved", name: "memory__read_graph", how: "unqualified" });
  });

  it("an unqualified name two servers carry is ambiguous, unless exactly one of them is active", () => {
    assert.deepEqual(resolveCallName(mcp, "create_entities"), { status: "ambiguous", candidates: ["memory__create_entities", "notes__create_entities"] });
    assert.deepEqual(resolveCallName(mcp, "create_entities", ["notes__create_entities", "create_issue"]), {
      status: "resolved",
      name: "notes__create_entities",
      how: "unqualified",
    });
    assert.equal(resolveCallName(mcp, "create_entities", ["notes__create_entities", "memory__create_entities"]).status, "ambiguous");
  });

  it("server-qualified names in the notations models use resolve to the server's tool", () => {
    for (const called of ["github.create_issue", "github/create_issue", "github:create_issue", "github__create_issue", "github_create_issue", "GitHub.Create-Issue"])
      assert.deepEqual(resolveCallName(mcp, called), { status: "resolved", name: "create_issue", how: "server-qualified" }, called);
    // The prefix must be a server of the catalog, and the tool must be that server's.
    assert.deepEqual(resolveCallName(mcp, "gitlab_create_issue"), { status: "none" });
    assert.deepEqual(resolveCallName(mcp, "slack.create_issue"), { status: "none" });
    // A server-qualified call picks one of two same-named tools; a server name with a dash is matched as well.
    assert.deepEqual(resolveCallName(mcp, "memory.create_entities"), { status: "resolved", name: "memory__create_entities", how: "server-qualified" });
    assert.deepEqual(resolveCallName(mcp, "web-tools.fetch_url"), { status: "resolved", name: "fetch_url", how: "server-qualified" });
    assert.deepEqual(resolveCallName(mcp, "web_tools__fetch_url"), { status: "resolved", name: "fetch_url", how: "server-qualified" });
  });

  it("letter case and - vs _ do not tell names apart", () => {
    assert.deepEqual(resolveCallName(mcp, "Create_Issue"), { status: "resolved", name: "create_issue", how: "case" });
    assert.deepEqual(resolveCallName(mcp, "create-issue"), { status: "resolved", name: "create_issue", how: "case" });
    assert.deepEqual(resolveCallName(mcp, "POST-MESSAGE"), { status: "resolved", name: "post_message", how: "case" });
    assert.deepEqual(resolveCallName(mcp, "Memory__Read_Graph"), { status: "resolved", name: "memory__read_graph", how: "case" });
    // Two tools that differ only in case: a case-insensitive call cannot pick one.
    const twins = new ToolCatalog([entry("a", "getItem"), entry("a", "getitem")], { log: false });
    assert.deepEqual(resolveCallName(twins, "GETITEM"), { status: "ambiguous", candidates: ["getItem", "getitem"] });
    assert.deepEqual(resolveCallName(twins, "GETITEM", ["getitem"]), { status: "resolved", name: "getitem", how: "case" });
  });

  it("names that fit no tool resolve to none", () => {
    for (const called of ["delete_everything", "", "   ", "create", "issue", "github.", "github__"])
      assert.deepEqual(resolveCallName(mcp, called), { status: "none" }, JSON.stringify(called));
  });

  it("a catalog file whose names collide (ids qualified, names not) resolves a server-qualified call to the name", () => {
    const file = ToolCatalog.fromCatalogObject(
      {
        servers: [
          { name: "github", tools: [{ name: "create_issue", description: "Create a GitHub issue." }] },
          { name: "gitlab", tools: [{ name: "create_issue", description: "Create a GitLab issue." }] },
        ],
      },
      { log: false },
    );
    assert.deepEqual(resolveCallName(file, "github__create_issue"), { status: "resolved", name: "create_issue", how: "server-qualified" });
    assert.deepEqual(resolveCallName(file, "gitlab.create_issue"), { status: "resolved", name: "create_issue", how: "server-qualified" });
  });

  it("a replaced catalog is resolved against its own names", () => {
    const next = new ToolCatalog([entry("memory", "read_graph")], { log: false });
    assert.deepEqual(resolveCallName(next, "read_graph"), { status: "exact", name: "read_graph" });
    assert.deepEqual(resolveCallName(mcp, "read_graph"), { status: "resolved", name: "memory__read_graph", how: "unqualified" });
  });
});

describe("closestTools", () => {
  it("scores the called name's words and the argument keys against names, descriptions and parameters", () => {
    assert.equal(closestTools(mcp, { name: "slack_send", args: { channel: "#ops", text: "hi" } })[0], "post_message");
    assert.equal(closestTools(mcp, { name: "new_issue", args: { title: "x", body: "y" } })[0], "create_issue");
    assert.equal(closestTools(mcp, { name: "emailSend", args: { subject: "x" } })[0], "send_email");
  });

  it("offers at most `max` usable tools, never an excluded one, and nothing for a name that shares no word", () => {
    const all = closestTools(mcp, { name: "create_things" });
    assert.ok(all.length > 0 && all.length <= 3, String(all));
    const usable = closestTools(mcp, { name: "create_things" }, { usable: (n) => n !== all[0], exclude: [all[1] ?? ""], max: 1 });
    assert.equal(usable.length, 1);
    assert.ok(usable[0] !== all[0] && usable[0] !== all[1]);
    assert.deepEqual(closestTools(mcp, { name: "zzqx" }), []);
  });

  it("a replaced catalog gets its own index", () => {
    const next = new ToolCatalog([entry("jira", "open_ticket", "Open a ticket.", { title: { type: "string" } })], { log: false });
    assert.deepEqual(closestTools(next, { name: "create_ticket", args: { title: "x" } }), ["open_ticket"]);
    assert.ok(!closestTools(mcp, { name: "create_ticket", args: { title: "x" } }).includes("open_ticket"));
  });
});

describe("gateToolCalls with name resolution and closest tools", () => {
  const exists = (n: string) => mcp.getByName(n).length > 0;
  const ctx = (active: string[]) => ({
    active: new Set(active),
    available: active,
    exists,
    resolve: (n: string) => resolveCallName(mcp, n, active),
    closest: (c: { name: string; args?: unknown }) => closestTools(mcp, c, { exclude: [c.name] }),
  });

  it("a resolved call to an active tool is allowed under its canonical name and reported as renamed", () => {
    const calls = [
      { id: "1", name: "github.create_issue", args: { title: "x" } },
      { id: "2", name: "list_issues" },
    ];
    const r = gateToolCalls(calls, ctx(["create_issue", "list_issues"]));
    assert.deepEqual(r.allowed.map((c) => [c.id, c.name]), [["1", "create_issue"], ["2", "list_issues"]]);
    assert.deepEqual(r.allowed[0].args, { title: "x" });
    assert.equal(calls[0].name, "github.create_issue", "the model's call object is not mutated");
    assert.deepEqual(r.renamed, [{ toolCallId: "1", from: "github.create_issue", to: "create_issue", how: "server-qualified" }]);
    assert.deepEqual(r.rejected, []);
  });

  it("a resolved call to an inactive tool is refused as that tool, with the name the model used", () => {
    const r = gateToolCalls([{ id: "1", name: "read_graph" }], ctx(["create_issue"]));
    assert.equal(r.rejected[0].kind, "not_active");
    assert.equal(r.rejected[0].call.name, "memory__read_graph");
    assert.equal(r.rejected[0].calledAs, "read_graph");
    assert.equal(r.rejected[0].payload.tool, "memory__read_graph");
    assert.equal(r.rejected[0].payload.calledAs, "read_graph");
  });

  it("an ambiguous name is refused with its candidates and told to call one by its exact name", () => {
    const r = gateToolCalls([{ id: "1", name: "create_entities" }], ctx(["create_issue"]));
    assert.equal(r.rejected[0].kind, "unknown_tool");
    assert.deepEqual(r.rejected[0].payload.candidates, ["memory__create_entities", "notes__create_entities"]);
    assert.match(r.rejected[0].content, /matches several tools: "memory__create_entities", "notes__create_entities"\. Call the one you mean by its exact name/);
    assert.deepEqual(r.renamed, []);
  });

  it("an unknown name gets the closest tools in its payload and its next step", () => {
    const r = gateToolCalls([{ id: "1", name: "slack_send", args: { channel: "#a", text: "b" } }], ctx(["create_issue"]));
    const [first, next] = r.rejected[0].content.split("\n");
    assert.equal(JSON.parse(first).closest[0], "post_message");
    assert.match(next, /^There is no tool named "slack_send"\. The closest tools are "post_message"/);
  });
});

describe("gate answers say which pointed-to tools the model can call", () => {
  it("without promotion, closest tools that are not bound are named as not available", () => {
    const active = ["create_issue"];
    const r = gateToolCalls([{ id: "1", name: "slack_send", args: { channel: "#a", text: "b" } }], {
      active: new Set(active),
      available: active,
      exists: (n) => mcp.getByName(n).length > 0,
      closest: (c) => closestTools(mcp, c, { exclude: [c.name] }),
    });
    const next = r.rejected[0].content.split("\n")[1];
    assert.match(next, /The closest tools are "post_message".*, not available in this request\. Call one of the available tools by its exact name/);
  });

  it("a closest tool that is bound is named as available; a not-bound call gets its closest tools too", () => {
    const active = ["post_message"];
    const ctx = {
      active: new Set(active),
      available: active,
      exists: (n: string) => mcp.getByName(n).length > 0,
      closest: (c: { name: string; args?: unknown }) => closestTools(mcp, c, { exclude: [c.name], max: 1 }),
    };
    const unknown = gateToolCalls([{ id: "1", name: "slack_send", args: { channel: "#a", text: "b" } }], ctx);
    assert.match(unknown.rejected[0].content.split("\n")[1], /The closest tools are "post_message"; it is available on your next step\. Call one that is available/);
    const inactive = gateToolCalls([{ id: "2", name: "list_issues" }], ctx);
    assert.equal(inactive.rejected[0].kind, "not_active");
    assert.ok((inactive.rejected[0].payload.closest ?? []).length === 1);
    assert.match(inactive.rejected[0].content.split("\n")[1], /^"list_issues" is not active for this request\. The closest tools are/);
  });
});
