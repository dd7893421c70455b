/**
 * The code in README.md and docs/*.md runs as written.
 *
 * Convention (also stated in docs/README.md):
 * - A ```ts block is a program. It is written to a temp directory under os.tmpdir() and run with
 *   `node --import tsx`, offline (no provider API key in the environment), where "tool-attention" resolves to this
 *   repository's src/index.ts (a tsconfig `paths` entry) and every other package to this repository's node_modules.
 *   It must exit 0. When an HTML comment `<!-- output: ... -->` follows the block, its stdout must be that text.
 * - A ```ts fragment block shows part of a program (an option's shape, a call that needs your own database, MCP
 *   config or model files) and is not run. No other word may follow the language.
 * - A runnable block that can talk to OpenAI (it reads OPENAI_API_KEY) runs a second time with the real
 *   @langchain/openai client pointed at the local OpenAI emulator (OPENAI_BASE_URL). The emulator plays the
 *   pull-request script the README's example follows: read PR 42, then merge it, then say "Merged PR 42." — the
 *   answer only comes once the merge tool's result is in the conversation.
 *
 * Also checked: README.md stays within 250 lines, its first TypeScript block is a program, and every relative link
 * of README.md and docs/ names a file that exists and, with an anchor, a heading in it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startOpenAIEmulator } from "../src/emulators/index.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PAGES = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
const LANGUAGES = new Set(["ts", "typescript"]);

interface Block {
  page: string;
  line: number;
  code: string;
  fragment: boolean;
  /** The stdout the page says the block prints, when it says. */
  output?: string;
}

/** The TypeScript blocks of a page, with their mark and the output comment that follows them. */
function blocksOf(page: string): Block[] {
  const lines = readFileSync(join(ROOT, page), "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith("```"));
    assert.ok(end > i, `${page}:${i + 1}: a code block that is never closed`);
    const [, lang, rest] = open;
    if (LANGUAGES.has(lang)) {
      assert.ok(rest === "" || rest === "fragment", `${page}:${i + 1}: "${lines[i]}": a TypeScript block is \`\`\`ts or \`\`\`ts fragment`);
      const block: Block = { page, line: i + 1, code: lines.slice(i + 1, end).join("\n"), fragment: rest === "fragment" };
      if (lines[end + 1]?.startsWith("<!-- output:")) {
        const close = lines.findIndex((l, j) => j > end && l.startsWith("-->"));
        block.output = lines.slice(end + 2, close).join("\n");
      }
      blocks.push(block);
    }
    i = end;
  }
  return blocks;
}

const ALL = PAGES.flatMap(blocksOf);
const RUNNABLE = ALL.filter((b) => !b.fragment);

/** A temp app in which "tool-attention" is this repository's source. */
function makeApp(): string {
  const dir = mkdtempSync(join(tmpdir(), "ta-docs-"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "docs-blocks", private: true, type: "module" })}\n`);
  const compilerOptions = { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, paths: { "tool-attention": [join(ROOT, "src", "index.ts")] } };
  writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify({ compilerOptions }, null, 2)}\n`);
  return dir;
}

/** Runs one block; resolves with its exit code and output. */
function runBlock(dir: string, block: Block, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const file = join(dir, `${block.page.replace(/[^a-z0-9]+/gi, "-")}-${block.line}.ts`);
  writeFileSync(file, `${block.code}\n`);
  const base = { ...process.env };
  for (const key of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"]) delete base[key];
  return new Promise((done) => {
    const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), file], {
      cwd: dir,
      env: { ...base, TOOL_ATTENTION_CACHE_DIR: join(dir, ".cache"), ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

const where = (b: Block) => `${b.page}:${b.line}`;

test("README.md is at most 250 lines and its first TypeScript block is a program", () => {
  const lines = readFileSync(join(ROOT, "README.md"), "utf8").split("\n");
  assert.ok(lines.length <= 250, `README.md has ${lines.length} lines`);
  const first = ALL.find((b) => b.page === "README.md");
  assert.ok(first && !first.fragment && first.output !== undefined, "the README's first TypeScript block runs and says what it prints");
});

test("every TypeScript block is a program or marked as a fragment; the docs have programs to run", () => {
  // blocksOf already refused any other mark; here: the pages this convention covers exist and hold programs.
  assert.ok(PAGES.length >= 5, `docs pages: ${PAGES.join(", ")}`);
  assert.ok(RUNNABLE.length >= 5, `runnable blocks: ${RUNNABLE.map(where).join(", ")}`);
  for (const b of RUNNABLE) assert.ok(/\bimport\b/.test(b.code), `${where(b)}: a program imports what it uses`);
});

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const h = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (h) out.add(h[1].trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-"));
  }
  return out;
}

test("every relative link in README.md and docs/ names an existing file and heading", () => {
  const broken: string[] = [];
  for (const page of PAGES) {
    const text = readFileSync(join(ROOT, page), "utf8").replace(/```[\s\S]*?```/g, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [path, anchor] = target.split("#");
      const file = path === "" ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path);
      if (!existsSync(file)) {
        broken.push(`${page}: ${target} (no file ${relative(ROOT, file)})`);
        continue;
      }
      if (anchor && file.endsWith(".md") && !anchorsOf(readFileSync(file, "utf8")).has(anchor)) broken.push(`${page}: ${target} (no heading #${anchor})`);
    }
  }
  assert.deepEqual(broken, []);
});

test("every runnable block runs offline and prints what its page says", { timeout: 1_200_000 }, async () => {
  const dir = makeApp();
  try {
    for (const block of RUNNABLE) {
      const r = await runBlock(dir, block, {});
      assert.equal(r.code, 0, `${where(block)} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
      if (block.output !== undefined) assert.equal(r.stdout.trim(), block.output.trim(), `${where(block)} printed something else`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("blocks that read OPENAI_API_KEY run against the OpenAI emulator with the real client", { timeout: 600_000 }, async () => {
  const withProvider = RUNNABLE.filter((b) => b.code.includes("OPENAI_API_KEY"));
  assert.ok(withProvider.some((b) => b.page === "README.md"), "the README's example can use a real provider");
  const dir = makeApp();
  const text = (m: Record<string, unknown>) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""));
  const emulator = await startOpenAIEmulator({
    script: (body) => {
      const m = ((body.messages as Record<string, unknown>[] | undefined) ?? []).at(-1) ?? {};
      if (m.role === "user") return { toolCalls: [{ name: "get_pull_request", input: { pull_number: 42 } }] };
      if (m.role === "tool" && text(m).includes('"number":42')) return { toolCalls: [{ name: "merge_pull_request", input: { pull_number: 42 } }] };
      if (m.role === "tool" && text(m).includes("merged #42")) return { text: "Merged PR 42." };
      return { text: `FAILED: ${text(m).slice(0, 200)}` };
    },
  });
  try {
    for (const block of withProvider) {
      emulator.reset();
      const r = await runBlock(dir, block, { OPENAI_API_KEY: "test", OPENAI_BASE_URL: emulator.url });
      assert.equal(r.code, 0, `${where(block)} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
      assert.equal(r.stdout.trim().split("\n").at(-1), "Merged PR 42.", `${where(block)}: ${r.stdout}`);
      assert.equal(emulator.requests.length, 3, "three model calls: read, merge, answer");
    }
  } finally {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
