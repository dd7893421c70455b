import { test } from "node:test";
import assert from "node:assert/strict";
import { measureCompaction } from "../src/core/compaction/measure.js";
import { countTokens } from "../src/core/tokens/count.js";
import { githubLike, linearLike, notionLike } from "./helpers/compaction-fixtures.js";

test("measureCompaction: raw is the summed JSON of each tool; savings are raw minus technique tokens", () => {
  const tools = linearLike(4);
  const report = measureCompaction(tools);
  assert.equal(report.tools, 4);
  assert.equal(report.raw, tools.reduce((n, t) => n + countTokens(JSON.stringify(t)), 0));
  for (const key of ["shortList", "refDedup", "sharedDefs", "shortListRefDedup", "terse"] as const) {
    const m = report[key];
    assert.equal(m.saved, report.raw - m.tokens, key);
    assert.ok(Math.abs(m.savedRatio - m.saved / report.raw) < 1e-12, key);
  }
});

test("measureCompaction: the technique that fits each shape saves most", () => {
  const linear = measureCompaction(linearLike(10));
  // Linear-like: the output schema dominates, so the short list saves most of it.
  assert.ok(linear.shortList.savedRatio > 0.5, `short list saved ${linear.shortList.savedRatio}`);
  // The output schema's repeated issue shape is hoisted within each tool.
  assert.ok(linear.refDedup.saved > 0);

  const notion = measureCompaction(notionLike(8));
  // Notion-like: one $defs block repeated in every tool; only a shared block removes the repeats.
  assert.ok(notion.sharedDefs.savedRatio > 0.5, `shared defs saved ${notion.sharedDefs.savedRatio}`);
  assert.equal(notion.refDedup.saved, 0, "within one tool there is nothing repeated to hoist");

  const github = measureCompaction(githubLike(10));
  // Small repeated properties cost less inline than as $refs: nothing is hoisted, nothing lost.
  assert.equal(github.refDedup.saved, 0);
  assert.ok(github.sharedDefs.saved <= 10, `shared defs on small repeats: ${github.sharedDefs.saved}`);
  for (const r of [linear, notion, github]) assert.ok(r.terse.saved > 0);
});

test("measureCompaction: empty list and the o200k_base encoding", () => {
  const empty = measureCompaction([]);
  assert.equal(empty.raw, 0);
  assert.equal(empty.shortList.savedRatio, 0);
  const o200k = measureCompaction(linearLike(2), "o200k_base");
  assert.equal(o200k.encoding, "o200k_base");
  assert.equal(o200k.raw, linearLike(2).reduce((n, t) => n + countTokens(JSON.stringify(t), "o200k_base"), 0));
});
