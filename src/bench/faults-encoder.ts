/**
 * The dense encoder failing in the middle of a session. A LangChain Embeddings wrapper around the real USE-lite
 * encoder answers the catalog's documents, then starts failing its queries (an outage), then recovers. Measured per
 * setup: routes degraded to the lexical channel, log lines (one per failure episode expected), and how often the
 * request's tool is still routed (active or gated by preconditions) before, during and after the outage.
 *
 * Setups: the hybrid default (USE-lite + BM25: the lexical channel is there already), a dense-only encoder (BM25
 * built on the first failure), and an encoder that hangs instead of throwing (caught by `timeoutMs`).
 */
import { Embeddings } from "@langchain/core/embeddings";
import { ToolCatalog } from "../core/catalog/catalog.js";
import { UseLiteEmbeddings } from "../core/encoders/use-lite.js";
import { ToolAttentionRouter, type RouterOptions } from "../core/router/router.js";

/** Everyday requests over the demo catalog and the tool each one needs. */
export const ENCODER_FAULT_REQUESTS: readonly { request: string; tool: string }[] = [
  { request: "what's the weather going to be like in Paris tomorrow", tool: "get_weather" },
  { request: "merge pull request 17 in acme/api", tool: "merge_pull_request" },
  { request: "show me what's in config.yaml", tool: "read_file" },
  { request: "how many users signed up last week? check the analytics tables", tool: "run_query" },
  { request: "tell the #release channel that v2 is out", tool: "post_message" },
  { request: "open a ticket about the login bug in acme/api", tool: "create_issue" },
  { request: "write to bob about tomorrow's meeting", tool: "send_email" },
  { request: "what's inside the reports folder", tool: "list_directory" },
  { request: "look online for the Lisbon train timetable", tool: "web_search" },
  { request: "put a meeting with the team in my calendar for Friday", tool: "create_event" },
  { request: "which tables does the database have", tool: "list_tables" },
  { request: "react with a thumbs up to the last message in #general", tool: "add_reaction" },
  { request: "find mails from alice about the invoice", tool: "search_emails" },
  { request: "rename draft.md to final.md", tool: "move_file" },
  { request: "where is the login function defined in our repositories", tool: "search_code" },
  { request: "grab the page at example.com/pricing", tool: "fetch_url" },
];

/** Embeddings that delegate to another encoder, with query failures switched on and off from outside. */
export class OutageEmbeddings extends Embeddings {
  /** "throw": queries fail at once; "hang": queries never answer; undefined: healthy. */
  outage?: "throw" | "hang";
  queries = 0;
  failures = 0;
  constructor(private readonly inner: Embeddings) {
    super({});
  }
  embedDocuments(texts: string[]): Promise<number[][]> {
    return this.inner.embedDocuments(texts);
  }
  async embedQuery(text: string): Promise<number[]> {
    this.queries++;
    if (this.outage === "throw") {
      this.failures++;
      throw new Error("embedding service unavailable (HTTP 503)");
    }
    if (this.outage === "hang") {
      this.failures++;
      return new Promise<number[]>(() => undefined);
    }
    return this.inner.embedQuery(text);
  }
}

export interface EncoderPhase {
  routes: number;
  degraded: number;
  /** Share of requests whose tool was routed (active, or gated out by its preconditions). */
  recall: number;
  routeMsP50: number;
  routeMsMax: number;
}

export interface EncoderFailureSetup {
  name: string;
  healthy: EncoderPhase;
  outage: EncoderPhase;
  recovered: EncoderPhase;
  /** Lines the router logged about the failure (one per episode expected), and the lines themselves. */
  logLines: number;
  lines: string[];
}

export interface EncoderFailureReport {
  setups: EncoderFailureSetup[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : 0;
};

async function phase(router: ToolAttentionRouter): Promise<EncoderPhase> {
  let degraded = 0;
  let hits = 0;
  const ms: number[] = [];
  for (const { request, tool } of ENCODER_FAULT_REQUESTS) {
    const t0 = performance.now();
    const d = await router.route(request);
    ms.push(performance.now() - t0);
    if (d.degraded) degraded++;
    if ([...d.active, ...d.gatedOut].some((a) => a.name === tool)) hits++;
  }
  const round = (x: number) => Math.round(x * 10) / 10;
  return { routes: ms.length, degraded, recall: round((hits / ms.length) * 100) / 100, routeMsP50: round(median(ms)), routeMsMax: round(Math.max(...ms)) };
}

async function runSetup(name: string, outage: "throw" | "hang", options: RouterOptions): Promise<EncoderFailureSetup> {
  const encoder = new OutageEmbeddings(new UseLiteEmbeddings());
  const lines: string[] = [];
  const router = new ToolAttentionRouter(ToolCatalog.fromFile(new URL("../../data/demo-catalog.json", import.meta.url).pathname), {
    ...options,
    encoder,
    cacheDir: false,
    k: 5,
    log: (l) => {
      if (!l.includes("index:")) lines.push(l);
    },
  });
  await router.prepare();
  const healthy = await phase(router);
  encoder.outage = outage;
  const during = await phase(router);
  encoder.outage = undefined;
  const recovered = await phase(router);
  return { name, healthy, outage: during, recovered, logLines: lines.length, lines };
}

/** The encoder part of the fault suite. */
export async function runEncoderFailureFault(): Promise<EncoderFailureReport> {
  return {
    setups: [
      await runSetup("hybrid (USE-lite + BM25), queries throw", "throw", { lexical: true }),
      await runSetup("dense only (USE-lite), queries throw", "throw", { lexical: false }),
      await runSetup("hybrid, queries hang (timeoutMs 300)", "hang", { lexical: true, encoderFallback: { timeoutMs: 300 } }),
    ],
  };
}
