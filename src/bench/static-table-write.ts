/**
 * Makes `assets/use-lite-static.bin` (encoders/static-table.ts) from the installed USE-lite model: each piece of its
 * vocabulary embedded on its own (word-start pieces as their word, others as their characters), in batches.
 *
 *   node --import tsx src/bench/static-table-write.ts
 *
 * About 6–12 s on 2 cores. The test in test/static-table.test.ts re-embeds a sample of pieces and compares.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { encodeStaticTable, staticTablePath, useLiteVocabularyPath } from "../core/encoders/static-table.js";
import { initUseLiteModel } from "../core/encoders/use-lite-model.js";
import type { UseLiteVocabulary } from "../core/encoders/use-lite-tokenizer.js";

/** What the model is given for one piece: its text with the word-start mark as a space, trimmed ("?" when empty). */
export function pieceText(piece: string): string {
  return piece.replace(/\u2581/g, " ").trim() || "?";
}

/** The rows of every piece of `vocabulary`, in id order. */
export async function embedPieces(vocabulary: UseLiteVocabulary, batch = 256): Promise<number[][]> {
  const model = await initUseLiteModel();
  const texts = vocabulary.map(([piece]) => pieceText(piece));
  const rows: number[][] = [];
  for (let i = 0; i < texts.length; i += batch) rows.push(...(await model.embed(texts.slice(i, i + batch))));
  return rows;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const vocabularyBytes = readFileSync(useLiteVocabularyPath());
  const vocabulary = JSON.parse(vocabularyBytes.toString("utf8")) as UseLiteVocabulary;
  const rows = await embedPieces(vocabulary);
  const bytes = encodeStaticTable(createHash("sha256").update(vocabularyBytes).digest("hex"), rows, rows[0]!.length);
  const out = staticTablePath();
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  console.log(`${out}: ${rows.length} pieces × ${rows[0]!.length}, ${(bytes.byteLength / 2 ** 20).toFixed(2)} MiB, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
