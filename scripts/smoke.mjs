#!/usr/bin/env node
/**
 * Smoke test of the published package, as a user gets it: `npm pack` (which builds the library), a fresh ESM app in
 * a temp dir, the tarball installed there with its peer dependencies, then
 *   a. a createAgent loop with the middleware (scripted tool-calling model, lexical encoder): a tool runs;
 *   a2. the README's createAgent example as written, offline (scripted model) and against the OpenAI emulator;
 *   b. the CLI through npx: `--version`; `route --catalog demo` (the shipped demo catalog) with the default encoder (the
 *      encoder worker thread must start from the installed files); `setup-faiss` (it runs; faiss loads only where
 *      libfaiss-dev is installed); `cost` on a one-task file;
 *   c. `tsc --noEmit` with `skipLibCheck: false` on a file using the package's types.
 * Exits non-zero on the first failure. Packages come from the npm cache when it has them (`--prefer-offline`); peer
 * versions are the ones this repository is tested with.
 *
 *   node scripts/smoke.mjs [--keep]     (--keep leaves the temp dir for inspection)
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const keep = process.argv.includes("--keep");
const started = Date.now();
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const repoRequire = createRequire(join(ROOT, "package.json"));
const installedVersion = (name) => JSON.parse(readFileSync(repoRequire.resolve(`${name}/package.json`), "utf8")).version;

const step = (msg) => console.log(`smoke: ${msg} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
function fail(msg, r) {
  const out = r ? `\n${String(r.stdout ?? "").trimEnd()}\n${String(r.stderr ?? "").trimEnd()}` : "";
  throw new Error(`${msg}${out}`);
}
function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.error) fail(`${cmd} ${args.join(" ")}: ${r.error.message}`);
  return r;
}
function must(what, cmd, args, opts) {
  const r = run(cmd, args, opts);
  if (r.status !== 0) fail(`${what} exited ${r.status}`, r);
  return r;
}

const work = mkdtempSync(join(tmpdir(), "tool-attention-smoke-"));
const app = join(work, "app");
// npm pack rebuilds dist/ as the library only; a full build (benchmark, emulators) is put back afterwards.
const hadFullBuild = existsSync(join(ROOT, "dist", "bench"));
try {
  // 1. Pack (prepare builds the library).
  const packed = must("npm pack", "npm", ["pack", "--json", "--pack-destination", work, "--loglevel=error"], { cwd: ROOT });
  const info = JSON.parse(packed.stdout)[0];
  const tarball = join(work, info.filename);
  step(`packed ${info.filename}: ${info.entryCount} files, ${(info.size / 1024).toFixed(0)} KiB (unpacked ${(info.unpackedSize / 1024).toFixed(0)} KiB)`);
  for (const f of info.files.map((x) => x.path))
    if (/^dist\/(bench|emulators)\/(main|synthetic|index)|\.map$|^data\/(synthetic|mcp)\//.test(f)) fail(`the package carries ${f}`);

  // 2. A fresh ESM app with the tarball and its peers.
  must("mkdir", "mkdir", ["-p", app]);
  writeFileSync(join(app, "package.json"), `${JSON.stringify({ name: "smoke-app", private: true, type: "module" }, null, 2)}\n`);
  const peers = Object.keys(pkg.peerDependencies ?? {}).map((n) => `${n}@${installedVersion(n)}`);
  const tools = ["typescript", "@types/node"].map((n) => `${n}@${installedVersion(n)}`);
  must("npm install", "npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", tarball, ...peers, ...tools], {
    cwd: app,
    env: { ...process.env, TOOL_ATTENTION_SKIP_FAISS_SETUP: "1" },
  });
  step(`installed the tarball with ${peers.join(", ")}`);

  // a. createAgent with the middleware, a scripted model and the lexical encoder.
  writeFileSync(
    join(app, "agent.mjs"),
    `import { createAgent, tool } from "langchain";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { z } from "zod";
import { toolAttentionMiddleware } from "tool-attention";

/** Calls get_weather on its first turn, then answers. Records the tools it was bound with. */
class ScriptedModel extends BaseChatModel {
  constructor(shared = { step: 0, bound: [] }, tools = []) {
    super({});
    this.shared = shared;
    this.tools = tools;
  }
  _llmType() { return "scripted"; }
  bindTools(tools) { return new ScriptedModel(this.shared, tools.map((t) => t.name ?? t.function?.name)); }
  async _generate() {
    this.shared.bound.push(this.tools);
    const message = this.shared.step++ === 0
      ? new AIMessage({ content: "", tool_calls: [{ id: "call_1", name: "get_weather", args: { city: "Oslo" }, type: "tool_call" }] })
      : new AIMessage("It is sunny in Oslo.");
    return { generations: [{ text: String(message.content), message }] };
  }
}

let ran = 0;
const tools = [
  tool(async ({ city }) => { ran++; return \`Sunny in \${city}\`; }, {
    name: "get_weather", description: "Get the current weather and a 3-day forecast for a city.", schema: z.object({ city: z.string() }),
  }),
  tool(async ({ pull_number }) => \`PR #\${pull_number}: open\`, {
    name: "get_pull_request", description: "Get a pull request by number.", schema: z.object({ pull_number: z.number() }),
  }),
  tool(async ({ pull_number }) => \`merged #\${pull_number}\`, {
    name: "merge_pull_request", description: "Merge an open pull request into its base branch.", schema: z.object({ pull_number: z.number() }),
    metadata: { toolAttention: { preconditions: { requiresScopes: ["repo:write"], afterTool: "get_pull_request" } } },
  }),
];
const model = new ScriptedModel();
const events = [];
const middleware = toolAttentionMiddleware({ tools, k: 2, encoder: "lexical", log: false, onEvent: (e) => events.push(e) });
const agent = createAgent({ model, tools, middleware: [middleware] });
const out = await agent.invoke({ messages: [new HumanMessage("what's the weather in Oslo?")] });
const answer = out.messages.find((m) => ToolMessage.isInstance(m));
if (ran !== 1 || !answer || answer.content !== "Sunny in Oslo") throw new Error(\`get_weather ran \${ran} times; answer: \${answer?.content}\`);
const routes = events.filter((e) => e.type === "tool_attention.route");
if (routes.length !== 2 || !routes[0].active.some((a) => a.id === "get_weather")) throw new Error("routing events: " + JSON.stringify(routes));
const gated = await middleware.router.route("merge PR 42");
if (!gated.gatedOut.some((g) => g.name === "merge_pull_request")) throw new Error("merge_pull_request is not gated without its scope");
console.log("agent ok: get_weather ran once; routed twice; bound on the first call: " + model.shared.bound[0].join(", "));
`,
  );
  const agentRun = must("the createAgent example", process.execPath, ["agent.mjs"], { cwd: app });
  step(agentRun.stdout.trim());

  // a2. The README's createAgent example, as written: its block is extracted from README.md and run with the real
  // @langchain/openai client pointed at the local OpenAI emulator (OPENAI_BASE_URL). The emulator's script answers
  // "Merged PR 42." only once the merge tool's result is in the conversation.
  {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## A createAgent example"));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    if (!block) fail("README.md has no createAgent example block");
    writeFileSync(join(app, "readme-agent.mjs"), block);
    must("npm install @langchain/openai", "npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", `@langchain/openai@${installedVersion("@langchain/openai")}`], {
      cwd: app,
      env: { ...process.env, TOOL_ATTENTION_SKIP_FAISS_SETUP: "1" },
    });
    // Offline first, as a user without an API key runs it: langchain's scripted fakeModel plays the model.
    {
      const env = { ...process.env };
      delete env.OPENAI_API_KEY;
      delete env.OPENAI_BASE_URL;
      const offline = run(process.execPath, ["readme-agent.mjs"], { cwd: app, env });
      if (offline.status !== 0 || offline.stdout.trim().split("\n").at(-1) !== "Merged PR 42.") fail("the README's createAgent example did not run offline", offline);
      step("README createAgent example ran offline (no OPENAI_API_KEY: the scripted model)");
    }
    const emulatorCode = `
      import { startOpenAIEmulator } from "./src/emulators/index.ts";
      const last = (body) => body.messages.at(-1) ?? {};
      const emu = await startOpenAIEmulator({ script: (body) => {
        const m = last(body);
        const text = typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? "");
        if (m.role === "user") return { toolCalls: [{ name: "get_pull_request", input: { pull_number: 42 } }] };
        if (m.role === "tool" && text.includes('"number":42')) return { toolCalls: [{ name: "merge_pull_request", input: { pull_number: 42 } }] };
        if (m.role === "tool" && text.includes("merged #42")) return { text: "Merged PR 42." };
        return { text: "FAILED: " + text.slice(0, 200) };
      } });
      console.log(emu.url);
      process.stdin.resume();
      process.stdin.on("end", () => emu.close().then(() => process.exit(0)));`;
    const emulator = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", emulatorCode], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
    try {
      const url = await new Promise((resolve, reject) => {
        let out = "";
        emulator.stdout.on("data", (d) => {
          out += d;
          const line = out.split("\n").find((l) => l.startsWith("http"));
          if (line) resolve(line.trim());
        });
        emulator.on("exit", (code) => reject(new Error(`the OpenAI emulator exited (${code})`)));
      });
      const example = await new Promise((resolve) => {
        const child = spawn(process.execPath, ["readme-agent.mjs"], { cwd: app, env: { ...process.env, OPENAI_BASE_URL: url, OPENAI_API_KEY: "test" } });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d) => (stdout += d));
        child.stderr.on("data", (d) => (stderr += d));
        child.on("exit", (status) => resolve({ status, stdout, stderr }));
      });
      if (example.status !== 0 || example.stdout.trim().split("\n").at(-1) !== "Merged PR 42.") fail("the README's createAgent example did not merge PR 42", example);
      step("README createAgent example ran as written: get_pull_request, then merge_pull_request (gated on repo:write and its output)");
    } finally {
      emulator.stdin.end();
    }
  }

  // b. The CLI, as installed.
  const npx = (args) => run("npx", ["--no-install", "tool-attention", ...args], { cwd: app });
  const version = npx(["--version"]);
  if (version.status !== 0 || version.stdout.trim() !== pkg.version) fail(`tool-attention --version printed "${version.stdout.trim()}", expected ${pkg.version}`, version);
  const catalog = join(app, "node_modules", "tool-attention", "data", "demo-catalog.json");
  // `--catalog demo` is how the docs name the shipped demo catalog from an app.
  const route = npx(["route", "--catalog", "demo", "--query", "merge PR 42", "--json"]);
  if (route.status !== 0) fail(`tool-attention route exited ${route.status}`, route);
  let routed;
  try {
    routed = JSON.parse(route.stdout);
  } catch {
    fail("tool-attention route --json did not print JSON", route);
  }
  if (!routed.active.length || !routed.gatedOut.some((g) => g.name === "merge_pull_request" && /repo:write/.test(g.reason)))
    fail(`unexpected routing: ${JSON.stringify({ active: routed.active.map((a) => a.name), gatedOut: routed.gatedOut })}`, route);
  step(`cli ok: --version ${pkg.version}; route active ${routed.active.map((a) => a.name).join(", ")}; ${route.stderr.trim().split("\n").at(-1)}`);
  // cost replays conversations with the library's own modules (src/eval; the benchmark is not shipped).
  writeFileSync(join(app, "tasks.jsonl"), `${JSON.stringify({ id: "t1", query: "merge PR 42 in acme/api", gold: ["merge_pull_request"], state: { scopes: ["repo:write"] } })}\n`);
  const cost = npx(["cost", "--catalog", catalog, "--tasks", "tasks.jsonl", "--encoder", "lexical", "--calls", "3", "--json"]);
  let costed;
  try {
    costed = JSON.parse(cost.stdout);
  } catch {
    fail(`tool-attention cost exited ${cost.status} without JSON`, cost);
  }
  if (cost.status !== 0 || !Array.isArray(costed.methods) || costed.methods.length === 0) fail("tool-attention cost reported no methods", cost);
  step(`cost ok: ${costed.methods.length} methods priced`);
  // setup-faiss must run from the app (the script ships with the package). Whether faiss then loads depends on the
  // machine (libfaiss-dev), so both outcomes pass as long as the command ends by saying which index is in use.
  const faiss = npx(["setup-faiss"]);
  const faissLine = faiss.stdout.trim().split("\n").at(-1) ?? "";
  if (![0, 1].includes(faiss.status) || !faissLine.startsWith("index: ")) fail(`tool-attention setup-faiss exited ${faiss.status}`, faiss);
  step(`setup-faiss ran (exit ${faiss.status}): ${faissLine.slice(0, 100)}`);

  // c. A consumer type-checking the package's declarations (skipLibCheck: false).
  writeFileSync(
    join(app, "tsconfig.json"),
    `${JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: false, noEmit: true, types: ["node"] }, include: ["consumer.ts"] }, null, 2)}\n`,
  );
  writeFileSync(
    join(app, "consumer.ts"),
    `import { createAgent, tool } from "langchain";
import { z } from "zod";
import {
  createToolAttentionHooks,
  McpSession,
  ToolAttentionRouter,
  ToolCatalog,
  toolAttentionMiddleware,
  UseLiteEmbeddings,
  type RoutingDecision,
  type ToolAttentionEvent,
  type ToolAttentionMiddlewareOptions,
} from "tool-attention";

const tools = [tool(async ({ city }: { city: string }) => city, { name: "get_weather", description: "Weather", schema: z.object({ city: z.string() }) })];
const options: ToolAttentionMiddlewareOptions = { tools, k: 5, encoder: "lexical", onEvent: (e: ToolAttentionEvent) => void e.type };
const middleware = toolAttentionMiddleware(options);
export const agent = createAgent({ model: "openai:gpt-4.1-mini", tools, middleware: [middleware] });
export const hooks = createToolAttentionHooks({ tools, encoder: "lexical" });
const router: ToolAttentionRouter = middleware.router;
export const decision: Promise<RoutingDecision> = router.route("weather in Oslo");
export const catalog: ToolCatalog = ToolCatalog.fromCatalogObject({ servers: [] });
export const embeddings = new UseLiteEmbeddings({ workers: 1 });
export type Session = McpSession;
`,
  );
  const tsc = run(process.execPath, [join(app, "node_modules", "typescript", "bin", "tsc"), "-p", "."], { cwd: app });
  if (tsc.status !== 0) fail("tsc --noEmit with skipLibCheck: false reported errors", tsc);
  step("types ok: tsc --noEmit, skipLibCheck false, 0 errors");
  console.log(`smoke: passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (err) {
  console.error(`smoke: FAILED: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  if (hadFullBuild) {
    const r = run(process.execPath, [repoRequire.resolve("typescript/bin/tsc"), "-p", "."], { cwd: ROOT });
    if (r.status !== 0) console.error(`smoke: restoring the full build of dist/ failed:\n${r.stdout}${r.stderr}`);
  }
  if (keep) console.log(`smoke: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
