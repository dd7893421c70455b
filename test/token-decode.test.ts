/**
 * The token encoders (bpe.ts) keep no rank → bytes table until the first decode, which builds it from the rank table.
 * Checked against js-tiktoken's own encode and decode, for every token of varied texts in both encodings.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Tiktoken } from "js-tiktoken/lite";
import cl100k_base from "js-tiktoken/ranks/cl100k_base";
import o200k_base from "js-tiktoken/ranks/o200k_base";
import { getEncoder, truncateToTokens, countTokens } from "../src/core/tokens/count.js";

const TEXTS = [
  "Create a new issue in a GitHub repository.",
  "café 東京 naïve — “quotes” 🙂 emoji and tabs\tand\nnewlines",
  '{"type":"object","properties":{"path":{"type":"string"}}}',
  "查询微信读书app排名 and Ünïcödé",
];

describe("token decoding from the rank table", () => {
  for (const [name, ranks] of [["cl100k_base", cl100k_base], ["o200k_base", o200k_base]] as const) {
    it(`${name}: decodes every token as js-tiktoken's own table does`, () => {
      const ours = getEncoder(name);
      const reference = new Tiktoken(ranks);
      for (const text of TEXTS) {
        const ids = reference.encode(text);
        assert.deepEqual(ours.encode(text), ids);
        assert.equal(ours.decode(ids), reference.decode(ids));
        assert.equal(ours.decode(ids), text);
        for (const id of ids) assert.equal(ours.decode([id]), reference.decode([id]));
      }
      assert.equal(ours.decode([]), "");
    });
  }

  it("truncation still cuts within the budget", () => {
    const text = "Reads the named file from the workspace and returns its contents as text. ".repeat(20);
    const out = truncateToTokens(text, 12);
    assert.ok(out.endsWith("…"));
    assert.ok(countTokens(out) <= 12);
    assert.ok(text.startsWith(out.slice(0, -1)));
  });
});
