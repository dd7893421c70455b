/** The sentence context the screening readers take, for a tool named "widget" (tests of structure.ts and its roles). */
import { readStructure } from "../../src/core/screening/structure.js";
import type { SentenceContext } from "../../src/core/screening/intent.js";

export function widgetContext(extra: Partial<SentenceContext> = {}): SentenceContext {
  return {
    field: "description",
    purpose: "widget widgets things.",
    params: new Set(),
    lead: false,
    foreignTool: () => false,
    selfNames: new Set(["widget"]),
    ...extra,
  };
}

/** The categories the structural reading finds in one sentence. */
export function structureCategories(sentence: string, context = widgetContext()): string[] {
  return readStructure(sentence, context).map((r) => r.category);
}
