#!/usr/bin/env node
/**
 * The `tool-attention` command: route one query, evaluate routing on a task set, price a conversation under each
 * way of delivering tools, or run the demo.
 * Results go to stdout (text, or JSON with --json); progress, warnings and the index line go to stderr.
 */
import { parseArgs } from "node:util";
import { existsSync, statSync } from "node:fs";
import { PostgresRoutingStore } from "../core/store/postgres.js";
import { runIfEntry } from "./entry.js";
import { ToolCatalog } from "../core/catalog/catalog.js";
import { DEFAULT_ENCODER, ToolAttentionRouter, type RouterOptions, type TagFilter } from "../core/router/router.js";
import type { ToolTextOptions } from "../core/catalog/text.js";
import { stateViewFrom } from "../core/preconditions/preconditions.js";
import { parseEncoderSpec, type EncoderName } from "../core/encoders/index.js";
import { isTokenEncoding } from "../core/tokens/count.js";
import { loadTasks } from "../eval/tasks.js";
import { evaluate } from "../eval/evaluate.js";
import { DEMO_CATALOG, runDemo } from "./demo.js";
import { auditFailure, checkFailOn, formatAudit, runAudit, screeningFailure } from "./audit.js";
import { runCalibrate } from "./calibrate.js";
import { runCost } from "./cost.js";
import { providerOfModelId } from "../core/providers/model-id.js";
import { packageVersion, runSetupFaiss } from "./setup-faiss.js";

const USAGE = `Usage:
  tool-attention route --catalog FILE --query TEXT [--state JSON] [--k N] [--theta X] [--encoder NAME] [--json]
  tool-attention eval  --catalog FILE --tasks FILE.jsonl [--k N] [--theta X] [--encoder NAME] [--per-step | --simulate] [--limit N] [--json]
  tool-attention calibrate --catalog FILE --tasks FILE.jsonl [--k N] [--encoder NAME] [--per-step] [--limit N] [--json]
                   sweeps θ from 0.10 to 0.50 (step 0.02) and picks the max-F1 θ
  tool-attention cost  --catalog FILE --tasks FILE.jsonl [--provider anthropic|openai] [--model NAME] [--history N]
                   [--calls N] [--k N] [--encoder NAME] [--no-plan] [--json]
                   billed input per conversation (prompt caching priced) for every schema, tool search, an LLM
                   selector and Tool Attention's delivery modes; default provider the one --model names, else
                   anthropic; history 500, calls 15
  tool-attention demo  [--catalog FILE] [--json]
  tool-attention audit --config MCP.json [--k N] [--tokens NAME] [--concurrency N] [--json]
                   [--fail-on any|CATEGORY[,CATEGORY]] [--screen-encoder] [--approve] [--pins-dir DIR | --pins-postgres URL]
                   screening findings are listed; --fail-on exits 1 when a finding falls under those categories
                   (assistant-directive, resource-reach, concealment, shadowing, exfiltration, tool-choice);
                   --screen-encoder adds the embedded encoder to the rules and the sentence reader;
                   tools whose definition changed since approved are listed with a diff (pins in --pins-dir,
                   the directory given to McpSession's pins.dir; default TOOL_ATTENTION_CACHE_DIR, else
                   .cache/tool-attention/embeddings; --pins-postgres: the PostgreSQL store given to pins.store,
                   schema tool_attention); --approve pins every current definition, so McpSession no longer holds them
  tool-attention setup-faiss  builds the optional faiss index (Linux, needs libfaiss-dev); the built-in index ranks
                   the same, faiss only pays off on catalogs of thousands of tools
  tool-attention --version

Options:
  --catalog FILE   a catalog file ({"servers":[{"name","tools":[...]}]}); "demo" is the 27-tool demo catalog shipped
                   with the package (a file named demo: ./demo)
  --encoder NAME   hybrid (default: USE-lite + BM25, offline), use-lite, lexical (BM25 only), or a transformers.js
                   model (needs the optional @huggingface/transformers and the model files): hf:HUB_ID (e.g.
                   hf:Xenova/bge-small-en-v1.5, looked up in $TOOL_ATTENTION_MODEL_DIR), hf:/path/to/model-dir,
                   options after "?": pooling, dtype, query, document, family (hf:ID?dtype=q8); minilm is
                   hf:Xenova/all-MiniLM-L6-v2. A dense model alone has no BM25 channel: add --lexical-weight 1.5
  --lexical-weight X  weight of the BM25 score added to the cosine (hybrid; default 1.5)
  --margin X       relative cut: also drop tools scoring more than X below the best
  --multi-vector X share of the dense score from a tool's best short row (name, one sentence, parameters);
                   default 0.3 on catalogs up to 2,000 tools, 0 turns it off
  --server-weight X weight of the query's match with each tool's server (default 0.15, 0 turns it off)
  --anticipation X score added to the likely next tools once a tool ran (default 0.1, 0 turns it off)
  --min-active N   never bind fewer tools than N when θ leaves fewer (default 3, 0 lets θ leave none)
  --tool-text LIST what is embedded per tool besides name and description, comma-separated:
                   server, server-description, params, tags, no-server (default: server only when several)
  --tags-only LIST route only tools with one of these tags (or servers), comma-separated
  --tags-boost LIST add a small score to tools with one of these tags (or servers)
  --simulate       eval: multi-turn simulation over plan steps (rolling intent + sticky tools)
  --no-decompose   route multi-request queries whole (default: one route per clause, merged)
  --tokens NAME    cl100k_base (default) or o200k_base
  --index NAME     auto (default), faiss, flat
  --state JSON     agent state for preconditions: {"scopes":[...],"milestones":[...],"toolOutputs":[...]}
  --provider NAME  cost: anthropic or openai (default: the one --model names, else anthropic); --model NAME picks
                   the pricing profile (e.g. gpt-4o)
  --history N      cost: tokens each model call adds to the history (its tool call and result; default 500)
  --calls N        cost: model calls per conversation (default 15)
  --no-plan        cost: the replayed model states no plan before its calls, so routing reads only the requests
                   and the tool results (default: its plan, as an agent that says what it will do next)`;

class UsageError extends Error {}

function num(name: string, value: string | undefined, fallback?: number): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} expects a number, got "${value}"`);
  return n;
}

/** A positive integer option (or its default); errors name the flag. */
function positiveInt(name: string, value: string | undefined, fallback?: number): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${name} expects a positive integer, got "${value}"`);
  return n;
}

/** `--k`: how many tools a route keeps. 0 would route nothing, so it is refused like any other non-count. */
function toolCount(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) throw new UsageError(`--k expects a number of tools, got "${value}"`);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--k expects a positive integer (the number of tools to keep), got "${value}"`);
  return n;
}

/**
 * node:util's parseArgs reads a value that starts with "-" as an option ("--k -3" fails as "argument is
 * ambiguous"), so a negative number after a value option is joined to it ("--k=-3") and reaches the flag's own
 * check, which then says what is wrong with the value.
 */
export function joinNegativeValues(args: readonly string[], valueOptions: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const next = args[i + 1];
    if (a.startsWith("--") && !a.includes("=") && valueOptions.has(a.slice(2)) && next !== undefined && /^-(\d|\.\d)/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/**
 * `--catalog FILE`, or `--catalog demo`: the 27-tool demo catalog shipped in the package, so the commands can be
 * tried from any app without knowing where npm put it (a file of that name is given as ./demo).
 */
function catalogFile(value: string | undefined): string {
  const path = need("catalog", value);
  return path === "demo" ? DEMO_CATALOG : path;
}

function need(name: string, value: string | undefined): string {
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function buildRouter(values: Record<string, string | boolean | undefined>, catalogPath: string) {
  const encoder = (values.encoder as string | undefined) ?? DEFAULT_ENCODER;
  try {
    parseEncoderSpec(encoder);
  } catch (err) {
    throw new UsageError(`--encoder: ${(err as Error).message}`);
  }
  const tokens = (values.tokens as string | undefined) ?? "cl100k_base";
  if (!isTokenEncoding(tokens)) throw new UsageError(`--tokens must be cl100k_base or o200k_base, got "${tokens}"`);
  const index = (values.index as string | undefined) ?? "auto";
  if (!["auto", "faiss", "flat"].includes(index)) throw new UsageError(`--index must be auto, faiss or flat, got "${index}"`);
  const catalog = ToolCatalog.fromFile(catalogPath, { encoding: tokens, onWarning: (w) => process.stderr.write(`warning: ${w}\n`) });
  const lexicalWeight = num("lexical-weight", values["lexical-weight"] as string | undefined);
  return new ToolAttentionRouter(catalog, {
    encoder: encoder as EncoderName,
    ...(lexicalWeight !== undefined ? { lexical: { weight: lexicalWeight } } : {}),
    toolText: toolTextOption(values["tool-text"] as string | undefined),
    margin: num("margin", values.margin as string | undefined),
    ...(values["no-decompose"] ? { decompose: false } : {}),
    ...multiVectorOption(num("multi-vector", values["multi-vector"] as string | undefined)),
    ...serverOption(num("server-weight", values["server-weight"] as string | undefined)),
    anticipationBoost: num("anticipation", values.anticipation as string | undefined),
    minActive: num("min-active", values["min-active"] as string | undefined),
    k: toolCount(values.k as string | undefined),
    theta: num("theta", values.theta as string | undefined),
    encoding: tokens,
    index: index as "auto" | "faiss" | "flat",
    // The command line says which index and encoder it uses; a library embedding the router says nothing unasked.
    log: (line) => process.stderr.write(`${line}\n`),
    // A command measures the encoder it names: one that cannot load is the command's error, not a lexical run.
    encoderFallback: false,
  });
}

/** `--multi-vector X`: 0 turns the channel off; a weight turns it on for any catalog size. */
function multiVectorOption(weight: number | undefined): Pick<RouterOptions, "multiVector"> {
  if (weight === undefined) return {};
  return { multiVector: weight === 0 ? false : { weight } };
}

/** `--server-weight X`: 0 turns the server channel off. */
function serverOption(weight: number | undefined): Pick<RouterOptions, "servers"> {
  if (weight === undefined) return {};
  return { servers: weight === 0 ? false : { weight } };
}

const TOOL_TEXT_PARTS = ["server", "server-description", "params", "tags", "no-server"];

function toolTextOption(list: string | undefined): ToolTextOptions | undefined {
  if (!list) return undefined;
  const parts = list.split(",").map((p) => p.trim()).filter(Boolean);
  for (const p of parts)
    if (!TOOL_TEXT_PARTS.includes(p)) throw new UsageError(`--tool-text: unknown part "${p}" (expected ${TOOL_TEXT_PARTS.join(", ")})`);
  return {
    server: parts.includes("no-server") ? false : parts.includes("server") || parts.includes("server-description") ? true : "auto",
    serverDescription: parts.includes("server-description"),
    params: parts.includes("params"),
    tags: parts.includes("tags"),
  };
}

function tagsOption(values: Record<string, string | boolean | undefined>): TagFilter | undefined {
  const list = (v: unknown) => (typeof v === "string" ? v.split(",").map((t) => t.trim()).filter(Boolean) : []);
  const only = list(values["tags-only"]);
  const boost = list(values["tags-boost"]);
  return only.length || boost.length ? { ...(only.length ? { only } : {}), ...(boost.length ? { boost } : {}) } : undefined;
}

function parseState(json: string | undefined) {
  if (!json) return stateViewFrom();
  let obj: unknown;
  try {
    obj = JSON.parse(json);
  } catch (err) {
    throw new UsageError(`--state is not valid JSON: ${(err as Error).message}`);
  }
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) throw new UsageError(`--state must be a JSON object`);
  const s = obj as Record<string, unknown>;
  for (const key of ["scopes", "milestones", "toolOutputs"])
    if (s[key] !== undefined && !(Array.isArray(s[key]) && (s[key] as unknown[]).every((x) => typeof x === "string")))
      throw new UsageError(`--state field "${key}" must be an array of strings`);
  return stateViewFrom({ ...(s as object), raw: s });
}

async function cmdRoute(values: Record<string, string | boolean | undefined>) {
  const router = buildRouter(values, catalogFile(values.catalog as string | undefined));
  const query = need("query", values.query as string);
  const state = parseState(values.state as string | undefined);
  await router.prepare();
  const d = await router.route(query, state, { tags: tagsOption(values) });
  const result = {
    query,
    k: d.k,
    theta: d.theta,
    active: d.active.map((a) => ({ id: a.id, name: a.name, server: a.server, score: round(a.score) })),
    gatedOut: d.gatedOut.map((g) => ({ id: g.id, name: g.name, server: g.server, score: round(g.score), reason: g.reason })),
    belowTheta: d.belowTheta,
    phase1Tokens: d.phase1Tokens,
    phase2Tokens: d.phase2Tokens,
    fullSchemaTokens: d.fullSchemaTokens,
    latencyMs: Object.fromEntries(Object.entries(d.latencyMs).map(([k, v]) => [k, round(v, 2)])),
  };
  if (values.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const lines = [`query: ${query}`, `active (${result.active.length}, k=${d.k}, θ=${d.theta}):`];
  for (const a of result.active) lines.push(`  ${a.score.toFixed(3)}  ${a.id}${a.server ? `  [${a.server}]` : ""}`);
  if (result.gatedOut.length) {
    lines.push("gated out by state:");
    for (const g of result.gatedOut) lines.push(`  ${g.score.toFixed(3)}  ${g.id}: ${g.reason}`);
  }
  lines.push(`below θ in the slate: ${d.belowTheta}`);
  lines.push(
    `tokens: pool ${d.phase1Tokens} + active schemas ${d.phase2Tokens} = ${d.phase1Tokens + d.phase2Tokens} ` +
      `(all full schemas: ${d.fullSchemaTokens})`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
}

async function cmdEval(values: Record<string, string | boolean | undefined>) {
  const router = buildRouter(values, catalogFile(values.catalog as string | undefined));
  let tasks = loadTasks(need("tasks", values.tasks as string));
  const limit = num("limit", values.limit as string | undefined);
  if (limit !== undefined) tasks = tasks.slice(0, limit);
  needData(values, router, tasks);
  process.stderr.write(`eval: ${tasks.length} tasks over ${router.catalog.size} tools; embedding the catalog…\n`);
  await router.prepare();
  const report = await evaluate(router, tasks, {
    perStep: Boolean(values["per-step"]),
    simulate: Boolean(values.simulate),
    tags: tagsOption(values),
    onProgress: (done, total) => process.stderr.write(`eval: ${done}/${total}\n`),
  });
  const { perTask: _perTask, ...summary } = report;
  const out = {
    tasks: summary.tasks,
    k: summary.k,
    theta: summary.theta,
    recall: round(summary.recall),
    precision: round(summary.precision),
    f1: round(summary.f1),
    top1: round(summary.top1),
    allGold: round(summary.allGold),
    avgActive: round(summary.avgActive, 2),
    poolTokens: summary.poolTokens,
    activeSchemaTokens: round(summary.activeSchemaTokens, 1),
    fullSchemaTokens: summary.fullSchemaTokens,
    routeMsP50: round(summary.routeMsP50, 2),
    routeMsP95: round(summary.routeMsP95, 2),
    encoder: summary.encoder,
    index: summary.index,
    perStep: summary.perStep,
    ...(summary.simulate ? { simulate: true } : {}),
    ...(values["no-decompose"] ? { decompose: false } : {}),
    ...(router.margin !== undefined ? { margin: router.margin } : {}),
    ...(summary.avgUnion !== undefined ? { avgUnion: round(summary.avgUnion, 2) } : {}),
    ...(summary.searchRecovery ? { searchRecovery: { ...summary.searchRecovery, share: round(summary.searchRecovery.share) } } : {}),
  };
  if (values.json) process.stdout.write(`${JSON.stringify(out)}\n`);
  else for (const [k, v] of Object.entries(out)) process.stdout.write(`${k.padEnd(20)} ${typeof v === "object" ? JSON.stringify(v) : v}\n`);
}

/**
 * `--pins-dir`: the directory of the pin file McpSession reads (its `pins.dir`). Without `--approve` it must exist:
 * a mistyped path would otherwise audit against no pins and report nothing held.
 */
function pinsDirOf(dir: string, approve: boolean): string {
  if (!dir.trim()) throw new UsageError("--pins-dir expects a directory path");
  if (existsSync(dir) ? !statSync(dir).isDirectory() : !approve)
    throw new UsageError(`--pins-dir ${JSON.stringify(dir)} is not a directory (give the directory McpSession's pins.dir names)`);
  return dir;
}

async function cmdAudit(values: Record<string, string | boolean | undefined>) {
  const tokens = (values.tokens as string | undefined) ?? "cl100k_base";
  if (!isTokenEncoding(tokens)) throw new UsageError(`--tokens must be cl100k_base or o200k_base, got "${tokens}"`);
  const failOn = values["fail-on"] as string | undefined;
  const badFailOn = failOn === undefined ? undefined : checkFailOn(failOn);
  if (badFailOn) throw new UsageError(badFailOn);
  if (values["pins-dir"] !== undefined && values["pins-postgres"] !== undefined) throw new UsageError("give --pins-dir or --pins-postgres, not both");
  const pinsUrl = values["pins-postgres"] as string | undefined;
  if (pinsUrl !== undefined && !/^postgres(ql)?:\/\//.test(pinsUrl)) throw new UsageError("--pins-postgres expects a postgres:// or postgresql:// URL");
  const pinsStore = pinsUrl === undefined ? undefined : new PostgresRoutingStore({ connectionString: pinsUrl, warn: () => {} });
  const report = await runAudit({
    screeningEncoder: Boolean(values["screen-encoder"]),
    config: need("config", values.config as string),
    k: toolCount(values.k as string | undefined),
    encoding: tokens,
    concurrency: num("concurrency", values.concurrency as string | undefined),
    approve: Boolean(values.approve),
    ...(values["pins-dir"] !== undefined ? { pinsDir: pinsDirOf(values["pins-dir"] as string, Boolean(values.approve)) } : {}),
    ...(pinsStore ? { pinsStore } : {}),
  }).finally(() => pinsStore?.close());
  process.stdout.write(`${values.json ? JSON.stringify(report, null, 2) : formatAudit(report)}\n`);
  const failed = auditFailure(report) ?? (failOn ? screeningFailure(report, failOn) : undefined);
  if (failed) throw new Error(failed);
}

async function cmdCalibrate(values: Record<string, string | boolean | undefined>) {
  const router = buildRouter(values, catalogFile(values.catalog as string | undefined));
  let tasks = loadTasks(need("tasks", values.tasks as string));
  const limit = num("limit", values.limit as string | undefined);
  if (limit !== undefined) tasks = tasks.slice(0, limit);
  needData(values, router, tasks);
  if (values.theta !== undefined) throw new UsageError("calibrate sweeps θ itself; drop --theta");
  await runCalibrate(router, tasks, { k: toolCount(values.k as string | undefined), perStep: Boolean(values["per-step"]), json: Boolean(values.json) });
}

/**
 * cost's provider: --provider, else the one --model names by its family ("gpt-5.6" is OpenAI), else anthropic. A
 * model of the other provider is an error rather than a silent price on the wrong profile.
 */
export function costProvider(providerFlag: string | undefined, model: string | undefined): "anthropic" | "openai" {
  if (providerFlag !== undefined && providerFlag !== "anthropic" && providerFlag !== "openai")
    throw new UsageError(`--provider must be anthropic or openai, got "${providerFlag}"`);
  const named = model ? providerOfModelId(model) : "other";
  if (providerFlag && named !== "other" && named !== providerFlag)
    throw new UsageError(`--model ${model} is a${named === "openai" ? "n OpenAI" : "n Anthropic"} model, but --provider is ${providerFlag}; drop one of them`);
  return (providerFlag as "anthropic" | "openai" | undefined) ?? (named === "openai" ? "openai" : "anthropic");
}

async function cmdCost(values: Record<string, string | boolean | undefined>) {
  const provider = costProvider(values.provider as string | undefined, values.model as string | undefined);
  const history = positiveInt("history", values.history as string | undefined, 500) as number;
  const calls = positiveInt("calls", values.calls as string | undefined, 15) as number;
  const k = toolCount(values.k as string | undefined);
  const catalogPath = catalogFile(values.catalog as string | undefined);
  const tasksPath = need("tasks", values.tasks as string);
  const router = buildRouter(values, catalogPath);
  if (router.catalog.size === 0) throw new Error(`${catalogPath}: the catalog has no tools`);
  const tasks = loadTasks(tasksPath);
  if (tasks.length === 0) throw new Error(`${tasksPath}: no tasks (expected one JSON object a line)`);
  await runCost(router, tasks, { provider, model: values.model as string | undefined, calls, historyTokens: history, k, noPlan: Boolean(values["no-plan"]), json: Boolean(values.json) });
}

/** eval and calibrate measure nothing without tools or tasks (their averages would be NaN): say which file is empty. */
function needData(values: Record<string, string | boolean | undefined>, router: ToolAttentionRouter, tasks: readonly unknown[]): void {
  if (router.catalog.size === 0) throw new Error(`${values.catalog}: the catalog has no tools`);
  if (tasks.length === 0)
    throw new Error(values.limit !== undefined ? `--limit ${values.limit} leaves no tasks of ${values.tasks}` : `${values.tasks}: no tasks (expected one JSON object a line)`);
}

function round(x: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

const OPTIONS = {
  catalog: { type: "string" },
  query: { type: "string" },
  tasks: { type: "string" },
  state: { type: "string" },
  k: { type: "string" },
  theta: { type: "string" },
  encoder: { type: "string" },
  tokens: { type: "string" },
  index: { type: "string" },
  limit: { type: "string" },
  "per-step": { type: "boolean" },
  simulate: { type: "boolean" },
  "no-decompose": { type: "boolean" },
  margin: { type: "string" },
  "lexical-weight": { type: "string" },
  "multi-vector": { type: "string" },
  "server-weight": { type: "string" },
  anticipation: { type: "string" },
  "no-plan": { type: "boolean" },
  "min-active": { type: "string" },
  "tool-text": { type: "string" },
  "tags-only": { type: "string" },
  "tags-boost": { type: "string" },
  config: { type: "string" },
  concurrency: { type: "string" },
  provider: { type: "string" },
  model: { type: "string" },
  history: { type: "string" },
  calls: { type: "string" },
  json: { type: "boolean" },
  "fail-on": { type: "string" },
  "screen-encoder": { type: "boolean" },
  approve: { type: "boolean" },
  "pins-dir": { type: "string" },
  "pins-postgres": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Options that take a value (a negative number after one is its value, not an option). */
const VALUE_OPTIONS: ReadonlySet<string> = new Set(Object.entries(OPTIONS).filter(([, o]) => o.type === "string").map(([name]) => name));

export async function main(argv = process.argv.slice(2)): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "--version" || command === "-v" || command === "version") {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (command === "setup-faiss") return runSetupFaiss();
  if (!command) {
    // No command is a mistake, not a request for help: the usage goes to stderr and the exit code says so.
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    const { values } = parseArgs({
      args: joinNegativeValues(rest, VALUE_OPTIONS),
      options: OPTIONS,
      strict: true,
    });
    if (values.help || command === "help" || command === "--help" || command === "-h") {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (command === "route") await cmdRoute(values);
    else if (command === "eval") await cmdEval(values);
    else if (command === "audit") await cmdAudit(values);
    else if (command === "calibrate") await cmdCalibrate(values);
    else if (command === "cost") await cmdCost(values);
    else if (command === "demo") await runDemo({ catalog: values.catalog === undefined ? undefined : catalogFile(values.catalog as string), json: Boolean(values.json) });
    else throw new UsageError(`unknown command "${command}"`);
    return 0;
  } catch (err) {
    const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
    process.stderr.write(`tool-attention: ${(err as Error).message}\n${usage ? `\n${USAGE}\n` : ""}`);
    return usage ? 2 : 1;
  }
}

runIfEntry(import.meta.url, () => main());
