/**
 * Real LangChain tools over the demo catalog (data/demo-catalog.json): each runs a small deterministic
 * function and counts its executions, so tests can prove which tools actually ran.
 */
import { readFileSync } from "node:fs";
import { tool } from "@langchain/core/tools";
import type { CatalogFile } from "../../src/core/catalog/catalog.js";

export const DEMO_CATALOG_PATH = new URL("../../data/demo-catalog.json", import.meta.url).pathname;

export function demoTools() {
  const catalog = JSON.parse(readFileSync(DEMO_CATALOG_PATH, "utf8")) as CatalogFile;
  const runs = new Map<string, number>();
  const tools = catalog.servers.flatMap((server) =>
    server.tools.map((spec) =>
      tool(
        async (args: Record<string, unknown>) => {
          runs.set(spec.name, (runs.get(spec.name) ?? 0) + 1);
          return JSON.stringify({ ok: true, tool: spec.name, args });
        },
        {
          name: spec.name,
          description: spec.description ?? "",
          schema: spec.inputSchema as Record<string, unknown>,
          metadata: { toolAttention: { server: server.name, tags: spec.tags, preconditions: spec.preconditions } },
        },
      ),
    ),
  );
  return { tools, runs };
}
