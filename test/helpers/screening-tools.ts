// A tool definition in a line, and the screen run beside a small catalog of other servers' tools, with the checks the
// note and reader tests make (screening-notes.test.ts, screening-calm.test.ts).
import assert from "node:assert/strict";
import { screenTool, type ScreenableTool } from "../../src/core/screening/screen.js";

/** A tool with a description and parameters (by default one plain query parameter). */
export function screeningTool(name: string, description: string, properties: Record<string, unknown> = { q: { type: "string", description: "Query." } }): ScreenableTool {
  return { name, description, inputSchema: { type: "object", properties } };
}

/** The screen for a tool of server "vendor" next to `catalog`, and its checks. */
export function besideCatalog(catalog: readonly { name: string; server: string }[]) {
  // The readers alone: the lexical model (lexical.ts), which also reads short tools, is tested on its own.
  const screen = (t: ScreenableTool) => screenTool(t, { server: "vendor", lexical: false, tools: [...catalog, { name: String(t.name), server: "vendor" }] });
  return {
    screen,
    /** Nothing found at all. */
    pass: (t: ScreenableTool) => assert.deepEqual(screen(t).reasons, [], `${t.name} should pass`),
    /** Quarantined, for any reason. */
    flag: (t: ScreenableTool) => assert.ok(screen(t).flagged, `${t.name} should be flagged`),
    /** Read as this category. */
    flags: (t: ScreenableTool, category: string) =>
      assert.ok(new Set(screen(t).findings.map((f) => f.category)).has(category), `${t.name} should be read as ${category}: ${JSON.stringify(screen(t).reasons)}`),
  };
}
