/**
 * What the first routed call of a cold start costs, and that the shortcuts behind it change nothing: a BM25 build
 * that tokenizes each repeated field text once indexes exactly what tokenizing every field does (identifier fields
 * keep their acronyms, prose fields never get them, whichever comes first), and the scaling sweep reports the
 * catalog build as part of `firstRouteColdS`. A catalog of a few hundred tools (a real MCP deployment's size) starts
 * progressively with the default options: its first route does not wait for a cold build.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Bm25Index, type Bm25Field } from "../src/core/encoders/bm25.js";
import { ToolCatalog } from "../src/core/catalog/catalog.js";
import { ToolAttentionRouter } from "../src/core/router/router.js";
import { runScaling } from "../src/bench/scaling.js";
import { expandCatalog } from "../src/bench/synthetic/expand.js";
import { DEFAULT_CONTEXT } from "../src/bench/metrics.js";
import type { EvalTask } from "../src/eval/tasks.js";

/**
 * The reference: the same documents with every field text made distinct by trailing punctuation the tokenizer drops
 * (same tokens, no text seen twice), so nothing a build keeps per text can be reused.
 */
function scoresWithoutRepeats(docs: readonly (readonly Bm25Field[])[], query: string): number[] {
  const unique = docs.map((fields, d) => fields.map((f) => ({ ...f, text: `${f.text}${" .".repeat(d + 1)}` })));
  const index = new Bm25Index();
  index.build(unique);
  return Array.from(index.scoreAll(query));
}

describe("BM25 build with repeated field texts", () => {
  const name = (text: string): Bm25Field => ({ text, weight: 2, identifier: true });
  const prose = (text: string): Bm25Field => ({ text, weight: 1 });

  for (const order of ["identifier first", "prose first"] as const) {
    it(`indexes a text's acronyms only where it is an identifier (${order})`, () => {
      const docs =
        order === "identifier first"
          ? [[name("list pull requests")], [prose("list pull requests")], [name("list pull requests")]]
          : [[prose("list pull requests")], [name("list pull requests")], [name("list pull requests")]];
      const index = new Bm25Index();
      index.build(docs);
      const scores = Array.from(index.scoreAll("lpr"));
      docs.forEach((fields, d) => {
        if (fields[0]!.identifier) assert.ok(scores[d]! > 0, `doc ${d} (identifier) matches its acronym`);
        else assert.equal(scores[d], 0, `doc ${d} (prose) has no acronym`);
      });
    });
  }

  it("scores every document as a build without repeated texts does", () => {
    // A catalog's shape: servers' tools share parameter lists and server names, descriptions differ.
    const docs: Bm25Field[][] = [];
    for (let s = 0; s < 4; s++)
      for (let t = 0; t < 6; t++)
        docs.push([
          name(`server${s} tool${t} ${t % 2 ? "create issue" : "list files"}`),
          prose(`Tool ${t} of server ${s}: ${t % 3 ? "creates an issue in a repository" : "lists the files of a directory"}.`),
          { text: t % 2 ? "owner, repo, title, body" : "path, recursive", weight: 0.5 },
          { text: `server ${s}`, weight: 0.5 },
        ]);
    const shared = new Bm25Index();
    shared.build(docs);
    for (const query of ["create an issue in the repo", "list the files under path", "recursive title", "ci lf server2"])
      assert.deepEqual(Array.from(shared.scoreAll(query)), scoresWithoutRepeats(docs, query), query);
  });
});

describe("scaling sweep: firstRouteColdS counts the catalog build", () => {
  it("reports catalogBuildS and a first routed call that includes it", async () => {
    const tasks: EvalTask[] = [
      { id: "a", query: "create an issue in the repository", gold: ["create_issue"] },
      { id: "b", query: "post a message to the team channel", gold: ["slack_post_message"] },
    ];
    const points = await runScaling({
      sizes: [60],
      expand: (n) => expandCatalog(n, 42),
      tasks,
      encoder: "lexical",
      encoding: "cl100k_base",
      context: DEFAULT_CONTEXT,
      cacheDir: false,
      latencySample: 2,
      warmStore: "disk",
    });
    assert.equal(points.length, 1);
    const p = points[0]!;
    assert.equal(typeof p.catalogBuildS, "number");
    assert.ok(p.catalogBuildS! > 0, `catalogBuildS ${p.catalogBuildS}`);
    assert.equal(typeof p.firstRouteColdS, "number");
    assert.ok(p.firstRouteColdS! > p.catalogBuildS!, `firstRouteColdS ${p.firstRouteColdS} includes catalogBuildS ${p.catalogBuildS}`);
  });
});

describe("default progressive start", () => {
  it("a 300-tool catalog with the default options routes at once, before the encoder has embedded it", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "ta-first-route-"));
    const router = new ToolAttentionRouter(ToolCatalog.fromCatalogObject(expandCatalog(300, 7)), { cacheDir: dir, log: false });
    try {
      const first = await router.route("create a new branch in the git repository");
      // BM25, with the static channel when the encoder loaded within progressive.staticWaitMs (1.5 s by default).
      assert.ok(["lexical", "static,lexical"].includes(first.channels.join()), first.channels.join());
      assert.equal(router.health().state, "building");
      assert.ok(first.active.some((a) => /branch/.test(a.name)), first.active.map((a) => a.name).join(", "));
    } finally {
      await router.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
