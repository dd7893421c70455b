/**
 * The byte-pair encoder's packed rank table (bpe.ts) gives js-tiktoken's tokens: every bundled text (catalogs, task
 * sets, screening sets in several languages, whole schemas as JSON) in both encodings, a rank file listing a token
 * twice, and decoding of special and unknown ids. The rank files load when an encoding is first used.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { Tiktoken } from "js-tiktoken/lite";
import cl100k_base from "js-tiktoken/ranks/cl100k_base";
import o200k_base from "js-tiktoken/ranks/o200k_base";
import { BytePairEncoder } from "../src/core/tokens/bpe.js";
import { countTokens, getEncoder } from "../src/core/tokens/count.js";

function lines(file: string): string[] {
  return readFileSync(file, "utf8").split("\n").filter((l) => l.trim());
}

/** Whole tool definitions as JSON and every line of the task and screening sets. */
function corpus(): string[] {
  const catalogs = ["data/synthetic/catalog.json", "data/demo-catalog.json"].flatMap((f) =>
    (JSON.parse(readFileSync(f, "utf8")) as { servers: { tools: unknown[] }[] }).servers.flatMap((s) => s.tools.map((t) => JSON.stringify(t))),
  );
  const sets = [
    "data/mcp/real-tasks.jsonl",
    "data/synthetic/tasks.jsonl",
    ...readdirSync("data/screening")
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => `data/screening/${f}`),
  ].flatMap(lines);
  return [...catalogs, ...sets];
}

const b64 = (s: string) => Buffer.from(s, "latin1").toString("base64");

describe("BytePairEncoder's packed table", () => {
  const texts = corpus();

  for (const [name, ranks] of [["cl100k_base", cl100k_base], ["o200k_base", o200k_base]] as const) {
    it(`${name}: js-tiktoken's tokens for every bundled text`, () => {
      assert.ok(texts.length > 1000, `a corpus of thousands of texts (got ${texts.length})`);
      const reference = new Tiktoken(ranks);
      const ours = getEncoder(name);
      for (const text of texts) assert.deepEqual(ours.encode(text), reference.encode(text, [], []), `tokens of ${JSON.stringify(text.slice(0, 80))}`);
      assert.equal(countTokens(texts.join("\n"), name), reference.encode(texts.join("\n"), [], []).length);
    });
  }

  it("a token listed twice keeps its last rank; decoding skips unknown ids and reads special tokens", () => {
    const file = {
      pat_str: "\\S+|\\s+",
      special_tokens: { "<|end|>": 100 },
      bpe_ranks: [`! 0 ${["a", "b", "c", " "].map(b64).join(" ")}`, `! 4 ${["ab", "bc", "ab"].map(b64).join(" ")}`, `! 7 ${b64("abc")}`].join("\n"),
    };
    const enc = new BytePairEncoder(file);
    assert.deepEqual(enc.encode("ab"), [6], "'ab' listed at 4 and 6: the last wins");
    assert.deepEqual(enc.encode("abc"), [7]);
    assert.deepEqual(enc.encode("cab"), [2, 6], "merges the lowest rank first");
    assert.deepEqual(enc.encode("bc a"), [5, 3, 0]);
    assert.equal(enc.decode([6, 3, 5, 100, 999, -1, 1.5]), "ab bc<|end|>");
    assert.deepEqual(enc.encode("xyz"), [], "bytes outside the table have no token");
  });

  it("loads an encoding's rank file on its first use only", () => {
    // A fresh process: which rank modules are loaded after importing the counter, counting in cl100k_base, then in o200k_base.
    const script = `
      import { createRequire } from "node:module";
      const require = createRequire(import.meta.url);
      const loaded = () => Object.keys(require.cache).filter((k) => /js-tiktoken[\\/]dist[\\/]ranks/.test(k)).map((k) => k.replace(/.*ranks[\\/]/, "")).sort().join(",");
      const { countTokens } = await import(${JSON.stringify(new URL("../src/core/tokens/count.ts", import.meta.url).href)});
      const steps = [loaded()];
      countTokens("hello world", "cl100k_base");
      steps.push(loaded());
      countTokens("hello world", "o200k_base");
      steps.push(loaded());
      console.log(JSON.stringify(steps));
    `;
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
    assert.deepEqual(JSON.parse(out.trim().split("\n").at(-1)!), ["", "cl100k_base.cjs", "cl100k_base.cjs,o200k_base.cjs"]);
  });
});
