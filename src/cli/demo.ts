/**
 * The demo job: routes a few everyday requests over the demo catalog (data/demo-catalog.json, 27 tools on
 * 6 servers, some behind preconditions) and shows what each turn would bind, what state gates out, and the
 * tokens of the two-phase prompt against sending every full schema.
 */
import { fileURLToPath } from "node:url";
import { ToolCatalog } from "../core/catalog/catalog.js";
import { ToolAttentionRouter } from "../core/router/router.js";
import { stateViewFrom } from "../core/preconditions/preconditions.js";

export const DEMO_CATALOG = fileURLToPath(new URL("../../data/demo-catalog.json", import.meta.url));

interface DemoTurn {
  query: string;
  state?: { scopes?: string[]; milestones?: string[]; toolOutputs?: string[] };
}

const TURNS: DemoTurn[] = [
  { query: "What's the weather in Lisbon this weekend?" },
  { query: "Merge pull request 42 in acme/api" },
  { query: "Merge pull request 42 in acme/api", state: { scopes: ["repo:write"], toolOutputs: ["get_pull_request"] } },
  { query: "Open config.yaml and change the port to 8080" },
  { query: "Open config.yaml and change the port to 8080", state: { toolOutputs: ["read_file"] } },
  { query: "How many users signed up last week? Check the analytics tables" },
  { query: "Tell the #release channel on Slack that v2.1 is out" },
];

export async function runDemo(opts: { catalog?: string; json?: boolean; k?: number } = {}): Promise<void> {
  const catalog = ToolCatalog.fromFile(opts.catalog ?? DEMO_CATALOG, {
    onWarning: (w) => process.stderr.write(`warning: ${w}\n`),
  });
  const router = new ToolAttentionRouter(catalog, { k: opts.k ?? 5 });
  process.stderr.write(`demo: ${catalog.size} tools on ${catalog.servers.size} servers; embedding the catalog…\n`);
  await router.prepare();

  const results = [];
  for (const turn of TURNS) {
    const d = await router.route(turn.query, stateViewFrom(turn.state ?? {}));
    results.push({ turn, d });
  }
  if (opts.json) {
    process.stdout.write(
      `${JSON.stringify(
        results.map(({ turn, d }) => ({
          query: turn.query,
          state: turn.state ?? {},
          active: d.active.map((a) => ({ id: a.id, score: Math.round(a.score * 1000) / 1000 })),
          gatedOut: d.gatedOut.map((g) => ({ id: g.id, reason: g.reason })),
          phase1Tokens: d.phase1Tokens,
          phase2Tokens: d.phase2Tokens,
          fullSchemaTokens: d.fullSchemaTokens,
          routeMs: Math.round(d.latencyMs.total * 100) / 100,
        })),
        null,
        2,
      )}\n`,
    );
    return;
  }
  const out: string[] = [];
  for (const { turn, d } of results) {
    out.push(`\n> ${turn.query}${turn.state ? `   state: ${JSON.stringify(turn.state)}` : ""}`);
    out.push(`  active: ${d.active.map((a) => `${a.id} (${a.score.toFixed(2)})`).join(", ") || "(none)"}`);
    if (d.gatedOut.length) out.push(`  gated out: ${d.gatedOut.map((g) => `${g.id} — ${g.reason}`).join("; ")}`);
    out.push(
      `  tokens: pool ${d.phase1Tokens} + active schemas ${d.phase2Tokens} = ${d.phase1Tokens + d.phase2Tokens}` +
        ` vs all schemas ${d.fullSchemaTokens}   route ${d.latencyMs.total.toFixed(1)} ms`,
    );
  }
  const avg = results.reduce((n, r) => n + r.d.phase1Tokens + r.d.phase2Tokens, 0) / results.length;
  const full = results[0].d.fullSchemaTokens;
  out.push(
    `\nmeasured over ${results.length} turns: ${avg.toFixed(0)} tool tokens per turn vs ${full} with every full schema ` +
      `(${((1 - avg / full) * 100).toFixed(0)}% fewer; cl100k_base)`,
  );
  process.stdout.write(`${out.join("\n")}\n`);
}
