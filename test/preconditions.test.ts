import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  checkPreconditions,
  emptyStateView,
  stateViewFrom,
  validatePreconditions,
} from "../src/core/preconditions/preconditions.js";
import type { AgentStateView, Precondition, ToolRecord } from "../src/core/types.js";

function toolWith(...preconditions: Precondition[]): ToolRecord {
  return {
    id: "t",
    name: "t",
    server: "s",
    description: "",
    tags: [],
    preconditions,
    summary: "T.",
    routingText: "t",
  };
}

const check = (state: AgentStateView, ...p: Precondition[]) => checkPreconditions(toolWith(...p), state);

describe("requiresScopes", () => {
  it("needs every scope and lists exactly the missing ones", () => {
    const p = { requiresScopes: ["repo:read", "repo:write", "admin"] };
    assert.deepEqual(check(emptyStateView(), p), { allow: false, reason: "missing scopes: repo:read, repo:write, admin" });
    assert.deepEqual(check(stateViewFrom({ scopes: ["repo:read", "admin"] }), p), { allow: false, reason: "missing scope: repo:write" });
    assert.deepEqual(check(stateViewFrom({ scopes: ["admin", "repo:write", "repo:read", "extra"] }), p), { allow: true });
  });
  it("is case-sensitive and ignores milestones/tool outputs of the same name", () => {
    const p = { requiresScopes: ["Admin"] };
    assert.equal(check(stateViewFrom({ scopes: ["admin"], milestones: ["Admin"], toolOutputs: ["Admin"] }), p).allow, false);
  });
  it("an empty list needs nothing", () => {
    assert.deepEqual(check(emptyStateView(), { requiresScopes: [] }), { allow: true });
  });
});

describe("afterTool", () => {
  it("exact name matches only that tool's output", () => {
    const p = { afterTool: "read_file" };
    assert.deepEqual(check(emptyStateView(), p), { allow: false, reason: "requires output of read_file first" });
    assert.equal(check(stateViewFrom({ toolOutputs: ["read_file_v2", "xread_file"] }), p).allow, false);
    assert.equal(check(stateViewFrom({ toolOutputs: ["list_directory", "read_file"] }), p).allow, true);
  });
  it("a trailing * is a prefix match", () => {
    const p = { afterTool: "search_*" };
    assert.equal(check(stateViewFrom({ toolOutputs: ["search_code"] }), p).allow, true);
    assert.equal(check(stateViewFrom({ toolOutputs: ["search_"] }), p).allow, true);
    assert.equal(check(stateViewFrom({ toolOutputs: ["research_code", "search"] }), p).allow, false);
    const r = check(emptyStateView(), p);
    assert.ok(!r.allow && r.reason.includes("search_*"));
  });
  it("without * there is no prefix matching", () => {
    assert.equal(check(stateViewFrom({ toolOutputs: ["search_code"] }), { afterTool: "search" }).allow, false);
  });
  it("an array means any one of them", () => {
    const p = { afterTool: ["get_pull_request", "list_*"] };
    assert.equal(check(stateViewFrom({ toolOutputs: ["get_pull_request"] }), p).allow, true);
    assert.equal(check(stateViewFrom({ toolOutputs: ["list_issues"] }), p).allow, true);
    assert.deepEqual(check(stateViewFrom({ toolOutputs: ["merge"] }), p), {
      allow: false,
      reason: "requires output of get_pull_request or list_* first",
    });
  });
  it("an empty array needs nothing", () => {
    assert.equal(check(emptyStateView(), { afterTool: [] }).allow, true);
  });
});

describe("milestone", () => {
  it("a string needs that milestone", () => {
    assert.deepEqual(check(emptyStateView(), { milestone: "approved" }), { allow: false, reason: "requires milestone approved" });
    assert.equal(check(stateViewFrom({ milestones: ["approved"] }), { milestone: "approved" }).allow, true);
    assert.equal(check(stateViewFrom({ scopes: ["approved"] }), { milestone: "approved" }).allow, false);
  });
  it("an array needs all of them and names the missing ones", () => {
    const p = { milestone: ["planned", "approved", "tested"] };
    assert.deepEqual(check(stateViewFrom({ milestones: ["approved"] }), p), { allow: false, reason: "requires milestone planned, tested" });
    assert.equal(check(stateViewFrom({ milestones: ["planned", "approved", "tested"] }), p).allow, true);
  });
});

describe("declarative combinations", () => {
  it("checks scopes, then afterTool, then milestone within one object", () => {
    const p = { requiresScopes: ["db:admin"], afterTool: "describe_table", milestone: "migration_approved" };
    const reasons: string[] = [];
    for (const state of [
      stateViewFrom({}),
      stateViewFrom({ scopes: ["db:admin"] }),
      stateViewFrom({ scopes: ["db:admin"], toolOutputs: ["describe_table"] }),
    ]) {
      const r = check(state, p);
      assert.equal(r.allow, false);
      if (!r.allow) reasons.push(r.reason);
    }
    assert.deepEqual(reasons, ["missing scope: db:admin", "requires output of describe_table first", "requires milestone migration_approved"]);
    assert.equal(check(stateViewFrom({ scopes: ["db:admin"], toolOutputs: ["describe_table"], milestones: ["migration_approved"] }), p).allow, true);
  });
  it("a tool without preconditions is always allowed", () => {
    assert.deepEqual(check(emptyStateView()), { allow: true });
    assert.deepEqual(check(emptyStateView(), {}), { allow: true });
  });
});

describe("custom predicates", () => {
  it("receives the state and the tool", () => {
    const seen: unknown[] = [];
    const state = stateViewFrom({ raw: { plan: "pro" } });
    const t = toolWith((s, tool) => {
      seen.push(s, tool);
      return true;
    });
    assert.deepEqual(checkPreconditions(t, state), { allow: true });
    assert.equal(seen[0], state);
    assert.equal(seen[1], t);
  });
  it("true allows, false gates with a generic reason", () => {
    assert.deepEqual(check(emptyStateView(), () => true), { allow: true });
    assert.deepEqual(check(emptyStateView(), () => false), { allow: false, reason: "precondition not met" });
  });
  it("a string gates out with that string as reason", () => {
    assert.deepEqual(check(emptyStateView(), () => "user must confirm first"), { allow: false, reason: "user must confirm first" });
  });
  it("an object decides by allow, with its reason or a generic one", () => {
    assert.deepEqual(check(emptyStateView(), () => ({ allow: true, reason: "ignored" })), { allow: true });
    assert.deepEqual(check(emptyStateView(), () => ({ allow: false, reason: "quota exceeded" })), { allow: false, reason: "quota exceeded" });
    assert.deepEqual(check(emptyStateView(), () => ({ allow: false })), { allow: false, reason: "precondition not met" });
  });
  it("can read raw application state", () => {
    const pro = (s: AgentStateView) => ((s.raw as { plan?: string })?.plan === "pro" ? true : "needs the pro plan");
    assert.equal(check(stateViewFrom({ raw: { plan: "pro" } }), pro).allow, true);
    assert.deepEqual(check(stateViewFrom({ raw: { plan: "free" } }), pro), { allow: false, reason: "needs the pro plan" });
  });
  it("an unexpected return value fails closed", () => {
    const r = check(emptyStateView(), (() => undefined) as unknown as Precondition);
    assert.equal(r.allow, false);
    assert.ok(!r.allow && r.reason.includes("undefined"));
  });
  it("a throwing predicate gates out with the error in the reason instead of throwing", () => {
    let r: ReturnType<typeof checkPreconditions> | undefined;
    assert.doesNotThrow(() => {
      r = check(emptyStateView(), () => {
        throw new Error("token store offline");
      });
    });
    assert.equal(r!.allow, false);
    assert.ok(!r!.allow && r!.reason.includes("token store offline"), JSON.stringify(r));
  });
  it(
    "a predicate throwing a non-Error value still reports it",
    () => {
      const r = check(emptyStateView(), () => {
        throw "boom";
      });
      assert.ok(!r.allow && r.reason.includes("boom"), JSON.stringify(r));
    },
  );
});

describe("several preconditions", () => {
  it("the first failing one gives the reason, and later ones are not evaluated", () => {
    let laterCalls = 0;
    const later = () => {
      laterCalls++;
      return "later";
    };
    const r = check(emptyStateView(), () => true, { requiresScopes: ["a"] }, () => "second", later);
    assert.deepEqual(r, { allow: false, reason: "missing scope: a" });
    assert.equal(laterCalls, 0);
    const r2 = check(stateViewFrom({ scopes: ["a"] }), () => true, { requiresScopes: ["a"] }, () => "second", later);
    assert.deepEqual(r2, { allow: false, reason: "second" });
    assert.equal(laterCalls, 0);
  });
  it("allows only when all hold", () => {
    assert.deepEqual(check(stateViewFrom({ scopes: ["a"], milestones: ["m"] }), { requiresScopes: ["a"] }, { milestone: "m" }, () => true), { allow: true });
  });
});

describe("validatePreconditions", () => {
  const bad = (p: unknown) => () => validatePreconditions({ id: "my_tool", preconditions: [p as Precondition] });
  it("accepts well-formed preconditions and predicates", () => {
    assert.doesNotThrow(() =>
      validatePreconditions({
        id: "t",
        preconditions: [{ requiresScopes: ["a"], afterTool: "x", milestone: "m" }, { afterTool: ["x", "y*"], milestone: ["a", "b"] }, {}, () => "no"],
      }),
    );
  });
  it("names the tool and the field", () => {
    const cases: [unknown, string][] = [
      [{ requiresScopes: "repo:write" }, "requiresScopes"],
      [{ requiresScopes: ["ok", 3] }, "requiresScopes"],
      [{ afterTool: 5 }, "afterTool"],
      [{ afterTool: ["x", null] }, "afterTool"],
      [{ milestone: { a: 1 } }, "milestone"],
      [{ milestone: [true] }, "milestone"],
    ];
    for (const [p, field] of cases) {
      assert.throws(bad(p), (e: Error) => e.message.includes('"my_tool"') && e.message.includes(`"${field}"`), JSON.stringify(p));
    }
  });
  it("reports an invalid field even after valid preconditions", () => {
    assert.throws(
      () => validatePreconditions({ id: "x", preconditions: [{ requiresScopes: ["a"] }, { milestone: 1 } as unknown as Precondition] }),
      /Tool "x".*"milestone"/,
    );
  });
});
