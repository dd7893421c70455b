/**
 * Tasks with gold tool sets for the synthetic testbed: single-step (one tool), multi-step (2–4 tools across
 * servers) and long-horizon (a goal plus one plan step per tool, in order). Wording comes from per-tool
 * phrasings and scenario goals with varied openers, joiners and entity values, never from tool descriptions.
 *
 * Tasks that need a gated tool come in both flavours: a state that satisfies its preconditions, and one that
 * does not (`blocked` lists the gold tools the state leaves gated out), so gating is exercised in both ways.
 */
import type { DeclarativePreconditions, ToolRecord } from "../../core/types.js";
import { checkPreconditions, stateViewFrom } from "../../core/preconditions/preconditions.js";
import { Rng, subSeed } from "./prng.js";
import type { ServerDef, ToolDef } from "./model.js";
import { CLOSERS, ENTITIES, JOINERS, OPENERS, QUESTION_OPENERS } from "./entities.js";
import { SCENARIOS, type Scenario } from "./scenarios.js";
import { SERVERS } from "./servers/index.js";
import { DEFAULT_SEED } from "./generate.js";

export type TaskKind = "single" | "multi" | "long";

export interface TaskState {
  scopes?: string[];
  milestones?: string[];
  toolOutputs?: string[];
}

/** One task in the shared tasks.jsonl format, plus `kind` and `blocked`. */
export interface SyntheticTask {
  id: string;
  kind: TaskKind;
  query: string;
  gold: string[];
  steps?: string[];
  state?: TaskState;
  /** Gold tools whose preconditions the state does not satisfy (a correct router gates them out). */
  blocked?: string[];
}

export interface TaskOptions {
  seed?: number;
  /** Multi-step tasks to generate. Default 180. */
  multi?: number;
  /** Variants per long-horizon scenario. Default 7. */
  longPerScenario?: number;
}

/** Share of phrasings that name the system they are about ("… on GitHub"), as users often do. */
const MENTION_RATE = 0.4;

const QUESTION = /^(what|which|who|how|is|are|did|does|has|have|any|why|where|when)\b/;

/** Fills `{slot}`s; a slot keeps one value within a task so its parts talk about the same things. */
class Filler {
  private readonly values = new Map<string, string>();
  constructor(private readonly rng: Rng) {}
  fill(template: string): string {
    return template.replace(/\{(\w+)\}/g, (_, slot: string) => {
      let v = this.values.get(slot);
      if (v === undefined) {
        const pool = ENTITIES[slot];
        if (!pool) throw new Error(`Task template uses unknown slot {${slot}}: "${template}"`);
        v = this.rng.pick(pool);
        this.values.set(slot, v);
      }
      return v;
    });
  }
}

function capitalize(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** Wraps a phrase in a random opener and closer, with a question mark when it reads as a question. */
function dress(rng: Rng, phrase: string, withCloser = true): string {
  const question = QUESTION.test(phrase);
  const opener = rng.pick(question ? QUESTION_OPENERS : OPENERS);
  const closer = question || !withCloser ? "" : rng.pick(CLOSERS);
  const body = opener ? `${opener}${phrase}` : capitalize(phrase);
  return `${body}${closer}${question ? "?" : ""}`;
}

/** A tool's phrasing with its server named now and then. */
function phrase(rng: Rng, filler: Filler, server: ServerDef, ask: string): string {
  const text = filler.fill(ask);
  return rng.chance(MENTION_RATE) ? `${text} ${rng.pick(server.mentions)}` : text;
}

function toolIndex(servers: readonly ServerDef[]): Map<string, { server: ServerDef; def: ToolDef }> {
  const map = new Map<string, { server: ServerDef; def: ToolDef }>();
  for (const server of servers) for (const def of server.tools) map.set(def.name, { server, def });
  return map;
}

function asArray(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** The state that satisfies every precondition of these tools (first alternative of each afterTool). */
function grantingState(pres: DeclarativePreconditions[]): TaskState {
  const scopes = new Set<string>();
  const milestones = new Set<string>();
  const outputs = new Set<string>();
  for (const p of pres) {
    for (const s of p.requiresScopes ?? []) scopes.add(s);
    for (const m of asArray(p.milestone)) milestones.add(m);
    const after = asArray(p.afterTool);
    if (after.length) outputs.add(after[0]);
  }
  return {
    ...(scopes.size ? { scopes: [...scopes].sort() } : {}),
    ...(milestones.size ? { milestones: [...milestones].sort() } : {}),
    ...(outputs.size ? { toolOutputs: [...outputs].sort() } : {}),
  };
}

/** A state that misses something: nothing at all, or the scopes without the workflow conditions. */
function withholdingState(rng: Rng, pres: DeclarativePreconditions[]): TaskState | undefined {
  const full = grantingState(pres);
  const hasWorkflow = Boolean(full.milestones || full.toolOutputs);
  if (hasWorkflow && full.scopes && rng.chance(0.5)) return { scopes: full.scopes };
  return undefined;
}

function blockedOf(gold: string[], index: Map<string, { def: ToolDef }>, state: TaskState | undefined): string[] {
  const view = stateViewFrom(state ?? {});
  const out: string[] = [];
  for (const name of gold) {
    const p = index.get(name)?.def.preconditions;
    if (!p) continue;
    const record = { id: name, preconditions: [p] } as unknown as ToolRecord;
    if (!checkPreconditions(record, view).allow) out.push(name);
  }
  return out;
}

function finish(task: Omit<SyntheticTask, "blocked">, index: Map<string, { def: ToolDef }>): SyntheticTask {
  const blocked = blockedOf(task.gold, index, task.state);
  const out: SyntheticTask = { id: task.id, kind: task.kind, query: task.query, gold: task.gold };
  if (task.steps) out.steps = task.steps;
  if (task.state) out.state = task.state;
  if (blocked.length) out.blocked = blocked;
  return out;
}

function pad(n: number): string {
  return String(n).padStart(4, "0");
}

export function generateTasks(options: TaskOptions = {}, servers: readonly ServerDef[] = SERVERS, scenarios: readonly Scenario[] = SCENARIOS): SyntheticTask[] {
  const seed = options.seed ?? DEFAULT_SEED;
  const index = toolIndex(servers);
  const tasks: SyntheticTask[] = [];

  // Single-step: every phrasing of every tool once; gated tools alternate granted / withheld state.
  const rs = new Rng(subSeed(seed, "tasks:single"));
  let n = 0;
  for (const server of servers)
    for (const def of server.tools)
      def.asks.forEach((ask, i) => {
        const filler = new Filler(rs);
        const pres = def.preconditions ? [def.preconditions] : [];
        const state = pres.length ? (i % 2 === 0 ? grantingState(pres) : withholdingState(rs, pres)) : undefined;
        tasks.push(finish({ id: `single-${pad(++n)}`, kind: "single", query: dress(rs, phrase(rs, filler, server, ask)), gold: [def.name], ...(state ? { state } : {}) }, index));
      });

  // Multi-step: 2–4 tools from at least two servers, asked for in one message.
  const rm = new Rng(subSeed(seed, "tasks:multi"));
  const multi = options.multi ?? 180;
  for (let m = 0; m < multi; m++) {
    const size = rm.int(2, 4);
    const chosenServers = rm.sample(servers, Math.min(size, servers.length));
    while (chosenServers.length < size) chosenServers.push(rm.pick(servers));
    const defs: ToolDef[] = [];
    for (const s of chosenServers) {
      const options = s.tools.filter((d) => !defs.includes(d));
      defs.push(rm.pick(options));
    }
    const filler = new Filler(rm);
    const parts = defs.map((d, i) => phrase(rm, filler, chosenServers[i], rm.pick(d.asks)));
    let query = dress(rm, parts[0], false).replace(/\?$/, "");
    for (let i = 1; i < parts.length; i++) query += `${rm.pick(JOINERS)}${parts[i]}`;
    query += QUESTION.test(parts[parts.length - 1]) ? "?" : ".";
    const pres = defs.flatMap((d) => (d.preconditions ? [d.preconditions] : []));
    const state = pres.length ? (m % 2 === 0 ? grantingState(pres) : withholdingState(rm, pres)) : undefined;
    tasks.push(finish({ id: `multi-${pad(m + 1)}`, kind: "multi", query, gold: defs.map((d) => d.name), ...(state ? { state } : {}) }, index));
  }

  // Long-horizon: a goal with one plan step per tool; most variants hold what the workflow needs.
  const rl = new Rng(subSeed(seed, "tasks:long"));
  const per = options.longPerScenario ?? 7;
  let l = 0;
  for (const scenario of scenarios) {
    const defs = scenario.tools.map((name) => {
      const hit = index.get(name);
      if (!hit) throw new Error(`Scenario "${scenario.name}" names unknown tool "${name}"`);
      return hit.def;
    });
    for (let v = 0; v < per; v++) {
      const filler = new Filler(rl);
      const query = dress(rl, filler.fill(scenario.goals[v % scenario.goals.length]));
      const steps = defs.map((d) => {
        const step = filler.fill(rl.pick(d.asks));
        return `${capitalize(step)}${QUESTION.test(step) ? "?" : ""}`;
      });
      const pres = defs.flatMap((d) => (d.preconditions ? [d.preconditions] : []));
      const state = pres.length ? (v % 3 === 2 ? withholdingState(rl, pres) : grantingState(pres)) : undefined;
      tasks.push(finish({ id: `long-${pad(++l)}`, kind: "long", query, gold: defs.map((d) => d.name), steps, ...(state ? { state } : {}) }, index));
    }
  }
  return tasks;
}
