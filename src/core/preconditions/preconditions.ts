/**
 * Precondition gating: deterministic rules over agent state that remove tools which cannot be used now.
 * They look only at state (scopes, milestones, prior tool outputs), never at the user's wording.
 */
import type { AgentStateView, DeclarativePreconditions, Precondition, ToolRecord } from "../types.js";

export type PreconditionResult = { allow: true } | { allow: false; reason: string };

const ALLOW: PreconditionResult = { allow: true };

/** An empty state: no scopes, milestones or tool outputs. */
export function emptyStateView(): AgentStateView {
  return { scopes: new Set(), milestones: new Set(), toolOutputs: new Set() };
}

/** Builds a state view from plain arrays (CLI `--state` JSON, tests, custom graphs). */
export function stateViewFrom(input: {
  scopes?: Iterable<string>;
  milestones?: Iterable<string>;
  toolOutputs?: Iterable<string>;
  raw?: unknown;
} = {}): AgentStateView {
  return {
    scopes: new Set(input.scopes ?? []),
    milestones: new Set(input.milestones ?? []),
    toolOutputs: new Set(input.toolOutputs ?? []),
    raw: input.raw,
  };
}

function toolOutputMatches(pattern: string, outputs: ReadonlySet<string>): boolean {
  if (pattern.endsWith("*")) {
    const prefix = pattern.slice(0, -1);
    for (const name of outputs) if (name.startsWith(prefix)) return true;
    return false;
  }
  return outputs.has(pattern);
}

function checkDeclarative(p: DeclarativePreconditions, state: AgentStateView): PreconditionResult {
  if (p.requiresScopes && p.requiresScopes.length > 0) {
    const missing = p.requiresScopes.filter((s) => !state.scopes.has(s));
    if (missing.length > 0)
      return { allow: false, reason: `missing scope${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}` };
  }
  if (p.afterTool !== undefined) {
    const patterns = Array.isArray(p.afterTool) ? p.afterTool : [p.afterTool];
    if (patterns.length > 0 && !patterns.some((pat) => toolOutputMatches(pat, state.toolOutputs)))
      return { allow: false, reason: `requires output of ${patterns.join(" or ")} first` };
  }
  if (p.milestone !== undefined) {
    const needed = Array.isArray(p.milestone) ? p.milestone : [p.milestone];
    const missing = needed.filter((m) => !state.milestones.has(m));
    if (missing.length > 0) return { allow: false, reason: `requires milestone ${missing.join(", ")}` };
  }
  return ALLOW;
}

/**
 * Evaluates every precondition of a tool; the first failing one gives the reason. A custom predicate that
 * throws gates the tool out (with the error as reason) rather than crashing the turn.
 */
export function checkPreconditions(tool: ToolRecord, state: AgentStateView): PreconditionResult {
  for (const p of tool.preconditions) {
    let result: PreconditionResult;
    if (typeof p === "function") {
      let out: ReturnType<typeof p>;
      try {
        out = p(state, tool);
      } catch (err) {
        return { allow: false, reason: `precondition error: ${err instanceof Error ? err.message : String(err)}` };
      }
      if (out === true) result = ALLOW;
      else if (out === false) result = { allow: false, reason: "precondition not met" };
      else if (typeof out === "string") result = { allow: false, reason: out };
      else if (out && typeof out === "object")
        result = out.allow ? ALLOW : { allow: false, reason: out.reason ?? "precondition not met" };
      else result = { allow: false, reason: `precondition returned ${String(out)}` };
    } else {
      result = checkDeclarative(p, state);
    }
    if (!result.allow) return result;
  }
  return ALLOW;
}

const KNOWN_FIELDS = new Set(["requiresScopes", "afterTool", "milestone"]);

/** Edit distance (insertions, deletions, substitutions), for "did you mean" hints. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/** The known name closest to a misspelled one (case-insensitive, at most a third of its letters off), if any. */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(name.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(Math.max(name.length, best.length) / 3)) ? best : undefined;
}

/**
 * Throws on preconditions that cannot be evaluated as written (wrong types, unknown or misspelled fields),
 * naming the tool and the field: a silently ignored rule would leave a tool open that was meant to be gated.
 */
export function validatePreconditions(tool: { id: string; preconditions: Precondition[] }): void {
  for (const p of tool.preconditions) {
    if (typeof p === "function") continue;
    if (typeof p !== "object" || p === null || Array.isArray(p))
      throw new Error(`Tool "${tool.id}": preconditions must be an object or a predicate function`);
    const bad = (field: string, want: string) => {
      throw new Error(`Tool "${tool.id}": precondition field "${field}" must be ${want}`);
    };
    for (const key of Object.keys(p))
      if (!KNOWN_FIELDS.has(key)) {
        const near = closestName(key, KNOWN_FIELDS);
        throw new Error(
          `Tool "${tool.id}": unknown precondition field "${key}"${near ? ` (did you mean "${near}"?` : " (expected"} ` +
            `${near ? "known fields: " : ""}${[...KNOWN_FIELDS].join(", ")})`,
        );
      }
    const isStrList = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string");
    if (p.requiresScopes !== undefined && !isStrList(p.requiresScopes)) bad("requiresScopes", "an array of strings");
    if (p.afterTool !== undefined && typeof p.afterTool !== "string" && !isStrList(p.afterTool))
      bad("afterTool", "a string or an array of strings");
    if (p.milestone !== undefined && typeof p.milestone !== "string" && !isStrList(p.milestone))
      bad("milestone", "a string or an array of strings");
  }
}
