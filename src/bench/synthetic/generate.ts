/**
 * The synthetic MCP testbed calibrated to Table 2 of the Tool Attention paper (arXiv 2604.21816): six servers
 * whose tools average a given number of cl100k tokens each, counted as `JSON.stringify({name, description,
 * inputSchema})`. The paper's per-server figures add up to 48.6k tokens while it reports a 47.3k total, so
 * every server budget is scaled by the same factor to hit the total; per-tool means stay within 3 % of the
 * table.
 *
 * Every tool starts from hand-written core parameters; calibration then adds the tool's own optional
 * parameters, then optional parameters its server offers to tools of that kind, until the tool reaches its
 * (jittered) share of the server budget. Deterministic for a seed.
 */
import type { JsonSchema, ToolSpec } from "../../core/types.js";
import { countTokens } from "../../core/tokens/count.js";
import type { CatalogFile } from "../../core/catalog/catalog.js";
import { Rng, subSeed } from "./prng.js";
import type { ServerDef, ToolDef } from "./model.js";
import { SERVERS } from "./servers/index.js";

/** The paper's reported total for the six servers. */
export const TABLE2_TOTAL_TOKENS = 47_300;
export const DEFAULT_SEED = 42;

/** How one tool is counted for calibration (the MCP object as a server sends it). */
export function schemaTokensOf(tool: Pick<ToolSpec, "name" | "description" | "inputSchema">): number {
  return countTokens(JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
}

/** Token budget per server after scaling the table's per-tool means to the reported total. */
export function serverBudgets(servers: readonly ServerDef[] = SERVERS): Map<string, number> {
  const nominal = servers.reduce((a, s) => a + s.tools.length * s.tokensPerTool, 0);
  const scale = TABLE2_TOTAL_TOKENS / nominal;
  return new Map(servers.map((s) => [s.name, Math.round(s.tools.length * s.tokensPerTool * scale)]));
}

function baseSchema(def: ToolDef): JsonSchema {
  return {
    type: "object",
    properties: { ...def.params },
    ...(def.required?.length ? { required: [...def.required] } : {}),
    additionalProperties: false,
  };
}

/** The tags every tool carries: its domain, its kind, read-only/mutating, and any extra tags. */
function tagsOf(server: ServerDef, def: ToolDef): string[] {
  const tags = [server.domain, def.kind, def.kind === "list" || def.kind === "read" ? "read-only" : "mutating", ...(def.tags ?? [])];
  return [...new Set(tags)];
}

function annotationsOf(def: ToolDef): Record<string, unknown> {
  const readOnly = def.kind === "list" || def.kind === "read";
  return { readOnlyHint: readOnly, destructiveHint: def.kind === "admin", openWorldHint: true };
}

/**
 * Grows one tool towards `target` tokens. A candidate parameter is added when it brings the count closer to
 * the target, so a tool overshoots by at most half a parameter.
 */
function growTool(server: ServerDef, def: ToolDef, target: number): ToolSpec {
  const schema = baseSchema(def);
  const props = schema.properties as Record<string, JsonSchema>;
  const spec: ToolSpec = { name: def.name, description: def.description, inputSchema: schema };
  let tokens = schemaTokensOf(spec);
  const candidates: [string, JsonSchema][] = [
    ...Object.entries(def.extras ?? {}),
    ...server.pool.filter((p) => p.kinds.includes(def.kind)).map((p) => [p.key, p.schema] as [string, JsonSchema]),
  ];
  for (const [key, value] of candidates) {
    if (tokens >= target) break;
    if (Object.hasOwn(props, key)) continue;
    props[key] = value;
    const next = schemaTokensOf(spec);
    if (next - target > target - tokens) {
      delete props[key];
      continue;
    }
    tokens = next;
  }
  return spec;
}

export interface GeneratedServer {
  name: string;
  description: string;
  tools: ToolSpec[];
}

/** The calibrated testbed for a seed (the seed only jitters how the budget is spread over a server's tools). */
export function generateCatalog(seed = DEFAULT_SEED, servers: readonly ServerDef[] = SERVERS): CatalogFile {
  const budgets = serverBudgets(servers);
  const out: GeneratedServer[] = [];
  for (const server of servers) {
    const rng = new Rng(subSeed(seed, `budget:${server.name}`));
    // Tools differ in size: weights in [0.75, 1.25], normalized so the shares add up to the server budget.
    const weights = server.tools.map(() => 0.75 + rng.next() * 0.5);
    const sum = weights.reduce((a, b) => a + b, 0);
    const budget = budgets.get(server.name) as number;
    const tools: ToolSpec[] = [];
    let spent = 0;
    let planned = 0;
    server.tools.forEach((def, i) => {
      planned += (budget * weights[i]) / sum;
      // Carry the running error forward so small per-tool misses do not add up over the server.
      const target = Math.round(planned - spent);
      const spec = growTool(server, def, target);
      spent += schemaTokensOf(spec);
      tools.push({
        ...spec,
        annotations: annotationsOf(def),
        tags: tagsOf(server, def),
        ...(def.preconditions ? { preconditions: def.preconditions } : {}),
      });
    });
    out.push({ name: server.name, description: server.description, tools });
  }
  return { servers: out };
}

/** Tokens per server and in total, counted as the calibration counts them. */
export function catalogTokenStats(catalog: CatalogFile): { total: number; tools: number; servers: { name: string; tools: number; tokens: number; perTool: number }[] } {
  const servers = catalog.servers.map((s) => {
    const tokens = s.tools.reduce((a, t) => a + schemaTokensOf(t), 0);
    return { name: s.name, tools: s.tools.length, tokens, perTool: s.tools.length ? tokens / s.tools.length : 0 };
  });
  return { total: servers.reduce((a, s) => a + s.tokens, 0), tools: servers.reduce((a, s) => a + s.tools, 0), servers };
}
