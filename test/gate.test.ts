import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { gateToolCalls, rejectionFor, type GateContext, type ToolCallLike } from "../src/core/gate/gate.js";

const catalogNames = new Set(["get_weather", "send_email", "read_file", "edit_file", "web_search"]);
const ctx = (over: Partial<GateContext> = {}): GateContext => ({
  active: new Set(["get_weather", "web_search"]),
  available: ["get_weather", "web_search"],
  exists: (n) => catalogNames.has(n),
  preconditionReason: (n) => (n === "send_email" ? "missing scope: mail:send" : n === "edit_file" ? "requires output of read_file first" : undefined),
  ...over,
});

function parseContent(content: string) {
  const lines = content.split("\n");
  return { payload: JSON.parse(lines[0]) as Record<string, unknown>, lines };
}

describe("gateToolCalls", () => {
  it("passes allowed calls through untouched and in order", () => {
    const calls = [
      { id: "1", name: "web_search", args: { q: "a" } },
      { id: "2", name: "nope" },
      { id: "3", name: "get_weather", args: { city: "Paris" } },
      { id: "4", name: "web_search", args: { q: "b" } },
    ];
    const r = gateToolCalls(calls, ctx());
    assert.deepEqual(r.allowed.map((c) => c.id), ["1", "3", "4"]);
    assert.equal(r.allowed[1], calls[2]); // same object, not a copy
    assert.deepEqual(r.rejected.map((x) => x.toolCallId), ["2"]);
  });

  it("tells unknown tools, inactive tools and precondition failures apart", () => {
    const r = gateToolCalls(
      [
        { id: "a", name: "invented_tool" },
        { id: "b", name: "read_file" },
        { id: "c", name: "send_email" },
        { id: "d", name: "edit_file" },
      ],
      ctx(),
    );
    assert.deepEqual(r.allowed, []);
    assert.deepEqual(
      r.rejected.map((x) => [x.toolCallId, x.kind]),
      [
        ["a", "unknown_tool"],
        ["b", "not_active"],
        ["c", "precondition"],
        ["d", "precondition"],
      ],
    );
    assert.equal(r.rejected[0].payload.reason, undefined);
    assert.equal(r.rejected[1].payload.reason, undefined);
    assert.equal(r.rejected[2].payload.reason, "missing scope: mail:send");
    assert.equal(r.rejected[3].payload.reason, "requires output of read_file first");
  });

  it("does not ask for a precondition reason of a tool that does not exist", () => {
    let asked = 0;
    const r = gateToolCalls([{ id: "x", name: "ghost" }], ctx({ preconditionReason: () => (asked++, "should not be used") }));
    assert.equal(r.rejected[0].kind, "unknown_tool");
    assert.equal(r.rejected[0].payload.reason, undefined);
    assert.equal(asked, 0);
  });

  it("treats every inactive name as existing when no exists() is given", () => {
    const r = gateToolCalls([{ id: "x", name: "ghost" }], { active: new Set(), available: [] });
    assert.equal(r.rejected[0].kind, "not_active");
  });

  it("answers every rejected call exactly once, with the same id", () => {
    const calls = [
      { id: "c1", name: "ghost" },
      { id: "c2", name: "get_weather" },
      { id: "c3", name: "send_email" },
      { id: "c4", name: "read_file" },
      { id: "c5", name: "ghost" },
    ];
    const r = gateToolCalls(calls, ctx());
    assert.equal(r.allowed.length + r.rejected.length, calls.length);
    const ids = r.rejected.map((x) => x.toolCallId);
    assert.deepEqual(ids, ["c1", "c3", "c4", "c5"]);
    assert.equal(new Set(ids).size, ids.length);
    for (const x of r.rejected) assert.equal(x.call.id, x.toolCallId);
    // Allowed and rejected partition the calls.
    const all = [...r.allowed.map((c) => c.id), ...ids].sort();
    assert.deepEqual(all, calls.map((c) => c.id).sort());
  });

  it("content: first line is the JSON payload, then one line telling the model what to do", () => {
    const r = gateToolCalls(
      [
        { id: "a", name: "ghost" },
        { id: "b", name: "read_file" },
        { id: "c", name: "send_email" },
      ],
      ctx(),
    );
    const guidance: string[] = [];
    for (const x of r.rejected) {
      const { payload, lines } = parseContent(x.content);
      assert.equal(lines.length, 2, x.content);
      assert.equal(payload.error, "tool_not_available");
      assert.equal(payload.tool, x.call.name);
      assert.deepEqual(payload.available, ["get_weather", "web_search"]);
      assert.deepEqual(payload, x.payload);
      const sentence = lines[1];
      assert.ok(sentence.length > 0);
      assert.match(sentence, /[.!]$/);
      assert.ok(sentence.includes(`"${x.call.name}"`), sentence);
      guidance.push(sentence);
    }
    // The advice differs per kind; a precondition rejection repeats its reason.
    assert.equal(new Set(guidance).size, 3);
    assert.match(guidance[0], /no tool named/);
    assert.ok(guidance[2].includes("missing scope: mail:send"));
    assert.deepEqual(Object.keys(parseContent(r.rejected[2].content).payload), ["error", "tool", "available", "reason"]);
    assert.deepEqual(Object.keys(parseContent(r.rejected[0].content).payload), ["error", "tool", "available"]);
  });

  it(
    "keeps the guidance on one line even when the invented name contains a newline",
    () => {
      const r = gateToolCalls([{ id: "a", name: "evil\nname" }], ctx());
      const { payload, lines } = parseContent(r.rejected[0].content);
      assert.equal(payload.tool, "evil\nname");
      assert.equal(lines.length, 2);
    },
  );

  it("copies the available list into the payload", () => {
    const available = ["get_weather"];
    const r = gateToolCalls([{ id: "a", name: "ghost" }], { active: new Set(available), available });
    available.push("later");
    assert.deepEqual(r.rejected[0].payload.available, ["get_weather"]);
  });

  it("handles an empty list of calls", () => {
    assert.deepEqual(gateToolCalls([], ctx()), { allowed: [], unbound: [], rejected: [], renamed: [] });
  });

  it('gives a call without an id the toolCallId ""', () => {
    const r = gateToolCalls([{ name: "ghost" } as ToolCallLike, { name: "get_weather" }], ctx());
    assert.equal(r.rejected.length, 1);
    assert.equal(r.rejected[0].toolCallId, "");
    assert.equal(r.allowed.length, 1);
  });

  it("matches names exactly (case-sensitive, no trimming)", () => {
    const r = gateToolCalls([{ id: "1", name: "Get_Weather" }, { id: "2", name: " get_weather" }], ctx());
    assert.deepEqual(r.allowed, []);
    assert.deepEqual(r.rejected.map((x) => x.kind), ["unknown_tool", "unknown_tool"]);
  });
});

describe("rejectionFor", () => {
  it("builds the same answer the gate gives", () => {
    const call = { id: "z", name: "read_file" };
    const direct = rejectionFor(call, "not_active", ["get_weather", "web_search"]);
    const viaGate = gateToolCalls([call], ctx()).rejected[0];
    assert.deepEqual(direct, viaGate);
  });
  it("omits an empty reason", () => {
    const r = rejectionFor({ id: "z", name: "x" }, "precondition", [], "");
    assert.equal("reason" in r.payload, false);
  });
});
