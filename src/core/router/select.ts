/**
 * The last stages of a route, θ → preconditions → top-k, on the scored slate (pipeline.ts):
 * - always-included tools, then the route's `include` (sticky or promoted tools), enter first when their
 *   preconditions hold; they do not count against k;
 * - slate tools at or above the cut (θ, raised to `best − margin` with a margin) are gated on the agent state, and
 *   the first k allowed become active;
 * - when fewer than `minActive` are active, the best allowed tools below θ (never below the margin) fill up to it,
 *   so a request phrased far from every description still gets its likeliest tools.
 * Pure over its input: the router passes what it read at the start of the route.
 */
import type { ToolCatalog } from "../catalog/catalog.js";
import { checkPreconditions } from "../preconditions/preconditions.js";
import type { Slate } from "./pipeline.js";
import type { AgentStateView, GatedTool, RoutingDecision, ScoredTool, ToolRecord } from "../types.js";

/** What selection reads. */
export interface SelectInput {
  /** The tools the slate's positions refer to. */
  tools: readonly ToolRecord[];
  /** The catalog always-included and `include` names resolve in. */
  catalog: ToolCatalog;
  /**
   * The scored slate: scores of every tool, the positions considered best first, and whether the route was
   * decomposed (the clauses' turns chose the tools; the active list is then sorted by score).
   */
  slate: Pick<Slate, "scores" | "order" | "decomposed">;
  state: AgentStateView;
  k: number;
  theta: number;
  margin: number | undefined;
  minActive: number;
  /** Ids of the always-included tools. */
  alwaysIds: readonly string[];
  /** Names or ids kept active this route whatever their score. */
  include: readonly string[] | undefined;
  /**
   * Whether a tool may be shown to the model (`ToolCatalog.isVisible`: with `screen` true it screens a tool whose
   * screening is pending; false answers from what is known). Selection screens the tools it makes active or gated
   * and the one the margin rests on; a tool refused is left out of the route altogether (not active, gated or a
   * candidate). Candidates it never reaches may still be pending screening: they are for logs and evaluation, never
   * shown to the model. Default: every tool.
   */
  visible?: (t: ToolRecord, screen: boolean) => boolean;
}

/** The part of a routing decision selection makes. */
export type Selection = Pick<RoutingDecision, "active" | "gatedOut" | "belowTheta" | "candidates">;

/** Position of each tool id in a tool list, built once per list (a catalog's list does not change). */
const positionsByList = new WeakMap<readonly ToolRecord[], Map<string, number>>();

/** Position of a tool id in `tools` (and in the index rows), -1 when absent. */
export function positionOf(tools: readonly ToolRecord[], id: string): number {
  let byId = positionsByList.get(tools);
  if (!byId) {
    byId = new Map<string, number>();
    for (let i = 0; i < tools.length; i++) byId.set(tools[i].id, i);
    positionsByList.set(tools, byId);
  }
  return byId.get(id) ?? -1;
}

/** θ → preconditions → top-k over the slate (see the module comment). */
export function selectActive(x: SelectInput): Selection {
  const { tools, catalog, state, k, theta, margin } = x;
  const visible = x.visible ?? (() => true);
  const { scores, order } = x.slate;
  const active: ScoredTool[] = [];
  const gatedOut: GatedTool[] = [];
  const candidates: ScoredTool[] = [];
  const taken = new Set<string>();
  let belowTheta = 0;

  for (const id of x.alwaysIds) {
    const t = catalog.getById(id);
    if (!t) continue;
    const check = checkPreconditions(t, state);
    if (check.allow) active.push({ id, name: t.name, server: t.server, score: 1 });
    else gatedOut.push({ id, name: t.name, server: t.server, score: 1, reason: check.reason });
    taken.add(id);
  }
  for (const name of x.include ?? []) {
    const t = catalog.resolve(name);
    if (!t || taken.has(t.id)) continue;
    taken.add(t.id);
    const i = positionOf(catalog.tools, t.id);
    const score = scores && i >= 0 && scores[i] !== Number.NEGATIVE_INFINITY ? scores[i] : 0;
    const scored: ScoredTool = { id: t.id, name: t.name, server: t.server, score };
    const check = checkPreconditions(t, state);
    if (check.allow) active.push(scored);
    else gatedOut.push({ ...scored, reason: check.reason });
  }
  const fixed = active.length;
  // Tools known to be quarantined leave the slate first; the margin rests on the best tool the screen passes.
  const shown = order.filter((i) => visible(tools[i], false));
  let best = Number.NEGATIVE_INFINITY;
  if (margin !== undefined)
    for (const i of [...shown].sort((a, b) => (scores as Float32Array)[b] - (scores as Float32Array)[a]))
      if (visible(tools[i], true)) {
        best = (scores as Float32Array)[i];
        break;
      }
  const cut = margin !== undefined && shown.length > 0 ? Math.max(theta, best - margin) : theta;
  for (const i of shown) {
    const t = tools[i];
    const score = (scores as Float32Array)[i];
    const scored: ScoredTool = { id: t.id, name: t.name, server: t.server, score };
    // A tool about to be active or gated (both reach the model) is screened first.
    if (score >= cut && !taken.has(t.id) && active.length - fixed < k && !visible(t, true)) continue;
    candidates.push(scored);
    if (score < cut) {
      belowTheta++;
      continue;
    }
    if (taken.has(t.id) || active.length - fixed >= k) continue;
    const check = checkPreconditions(t, state);
    if (check.allow) active.push(scored);
    else gatedOut.push({ ...scored, reason: check.reason });
  }
  // Never bind nothing: when θ left fewer than minActive tools active (always-included and sticky ones count),
  // the best candidates below the cut whose preconditions hold fill up to it.
  const floor = Math.min(k, x.minActive);
  if (active.length < floor) {
    const chosen = new Set(active.map((a) => a.id));
    for (const i of shown) {
      if (active.length >= floor) break;
      const t = tools[i];
      const score = (scores as Float32Array)[i];
      // The floor relaxes θ, never the margin: a relative cut is the caller's own choice of a tight set.
      if (score >= cut || taken.has(t.id) || chosen.has(t.id) || (margin !== undefined && score < best - margin)) continue;
      if (!visible(t, true)) {
        // Screened now, and quarantined: out of the candidates it entered unscreened.
        const at = candidates.findIndex((c) => c.id === t.id);
        if (at >= 0) candidates.splice(at, 1);
        continue;
      }
      if (checkPreconditions(t, state).allow) active.push({ id: t.id, name: t.name, server: t.server, score });
    }
  }
  // The clauses' turns decide which tools get in; the active list still reads best first.
  if (x.slate.decomposed) active.splice(fixed, active.length - fixed, ...active.slice(fixed).sort((a, b) => b.score - a.score));
  return { active, gatedOut, belowTheta, candidates };
}
