/**
 * Retrieval metrics of an active set against gold tool names. A gold name is hit when any active tool has
 * that name (names are not server-qualified). Per task, then averaged over tasks; F1 from the mean P and R.
 */

export interface TaskScore {
  recall: number;
  precision: number;
  top1: number;
  allGold: number;
  active: number;
}

/**
 * @param activeNames active tool names, best first (duplicates allowed when servers share a name)
 * @param gold gold tool names
 */
export function scoreTask(activeNames: readonly string[], gold: readonly string[]): TaskScore {
  const goldSet = new Set(gold);
  const activeSet = new Set(activeNames);
  let hits = 0;
  for (const g of goldSet) if (activeSet.has(g)) hits++;
  let goldActive = 0;
  for (const a of activeNames) if (goldSet.has(a)) goldActive++;
  return {
    recall: goldSet.size === 0 ? 1 : hits / goldSet.size,
    precision: activeNames.length === 0 ? 0 : goldActive / activeNames.length,
    top1: activeNames.length > 0 && goldSet.has(activeNames[0]) ? 1 : 0,
    allGold: hits === goldSet.size ? 1 : 0,
    active: activeNames.length,
  };
}

export interface AggregateScore {
  tasks: number;
  recall: number;
  precision: number;
  f1: number;
  top1: number;
  allGold: number;
  avgActive: number;
}

export function aggregate(scores: readonly TaskScore[]): AggregateScore {
  const n = scores.length;
  const mean = (f: (s: TaskScore) => number) => (n === 0 ? 0 : scores.reduce((a, s) => a + f(s), 0) / n);
  const recall = mean((s) => s.recall);
  const precision = mean((s) => s.precision);
  return {
    tasks: n,
    recall,
    precision,
    f1: recall + precision === 0 ? 0 : (2 * precision * recall) / (precision + recall),
    top1: mean((s) => s.top1),
    allGold: mean((s) => s.allGold),
    avgActive: mean((s) => s.active),
  };
}

/** The q-quantile (0..1) of a list of numbers, by linear interpolation; NaN for an empty list. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}
