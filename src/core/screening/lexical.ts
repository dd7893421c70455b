/**
 * A second opinion on a whole tool, from its words: a logistic model over the word unigrams and bigrams of every
 * text field of the definition, trained on the library's own development sets (src/bench/screening-lexical-train.ts)
 * and shipped as a weight table (assets/screening-lexical.json).
 *
 * Why it exists beside the readers: the rules and the sentence readers read forms, and each new writer of attacks
 * or of honest tools brings forms they do not know. A rule that fires on an honest real server's usage note and a
 * calm attack the readers let through differ in their vocabulary as a whole more reliably than in any one form. The
 * model is not trusted alone against the rules: it sets aside a rule's or a reading's finding on a tool whose words
 * read as plainly honest (below `LEXICAL_VETO`), and files a finding of its own only on a tool whose words read as
 * plainly hostile (above `LEXICAL_ALONE`). Hidden characters and encoded text are never set aside: the model does
 * not see them.
 *
 * Pure and synchronous; the table is read once, lazily, on the first screening (about a megabyte).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { TextField } from "./fields.js";
import { sentences } from "./text.js";

/** The weight table: a bias and one weight per feature ("gram" for the description, "p:gram" for a parameter's, …). */
export interface LexicalModel {
  version: string;
  bias: number;
  weights: Map<string, number>;
}

/** Logit below which a tool's words read as plainly honest: the rules' and readers' findings on it are set aside. */
export const LEXICAL_VETO = -0.5;
/** Logit above which the model files a finding of its own on a tool the rules and readers let through. */
export const LEXICAL_ALONE = 1;

/**
 * Fewest features (about 25 words) a tool needs before the model weighs it: on shorter tools the common words
 * outweigh the rest, and the model's verdict is no better than the length of the text.
 */
export const LEXICAL_MIN_FEATURES = 60;

// Words (with the characters of paths, hosts and variables kept inside them) and single punctuation marks.
const TOKEN = /[a-z0-9~./_$-]+|[^\sa-z0-9]/g;

/** The kind of a field, as the model tells them apart: the tool's description has no prefix. */
export function fieldKind(field: string): string {
  if (field === "description") return "";
  if (field.endsWith(".description")) return "p:";
  if (/default|enum|const|example/.test(field)) return "v:";
  if (/title/.test(field)) return "t:";
  return "o:";
}

/** The features of one text of a field of kind `kind`: its unigrams and bigrams, also prefixed by the kind. */
export function addFeatures(text: string, kind: string, into: Set<string>): void {
  const tokens = text.toLowerCase().match(TOKEN);
  if (!tokens) return;
  for (let i = 0; i < tokens.length; i++) {
    const uni = tokens[i];
    into.add(uni);
    if (kind) into.add(kind + uni);
    if (i + 1 < tokens.length) {
      const bi = `${uni} ${tokens[i + 1]}`;
      into.add(bi);
      if (kind) into.add(kind + bi);
    }
  }
}

/** Every feature of a tool: the fields that carry prose or values (not the tool's name, not property names). */
export function toolFeatures(fields: readonly TextField[]): Set<string> {
  const out = new Set<string>();
  for (const f of fields) if (!f.identifier) addFeatures(f.text, fieldKind(f.field), out);
  return out;
}

/** The model's logit for a set of features: the bias plus the weights, scaled by the square root of their number. */
export function lexicalLogit(model: LexicalModel, features: ReadonlySet<string>): number {
  let sum = 0;
  for (const g of features) sum += model.weights.get(g) ?? 0;
  return model.bias + sum / Math.sqrt(Math.max(1, features.size));
}

/** The sentence whose own features weigh most towards an attack, with its field: where a finding of the model points. */
export function heaviestSentence(model: LexicalModel, fields: readonly TextField[]): { field: string; sentence: string } | undefined {
  let best: { field: string; sentence: string } | undefined;
  let bestWeight = 0;
  const features = new Set<string>();
  for (const f of fields) {
    if (f.identifier) continue;
    const kind = fieldKind(f.field);
    for (const s of sentences(f.text)) {
      features.clear();
      addFeatures(s.s, kind, features);
      let w = 0;
      for (const g of features) w += model.weights.get(g) ?? 0;
      if (w > bestWeight) {
        bestWeight = w;
        best = { field: f.field, sentence: s.s.trim() };
      }
    }
  }
  return best;
}

/** Parses a weight table; errors name the file and what is wrong. */
export function parseLexicalModel(json: string, from: string): LexicalModel {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (err) {
    throw new Error(`screening: the lexical weight table ${from} is not JSON (${(err as Error).message})`);
  }
  const o = raw as { version?: unknown; bias?: unknown; weights?: unknown };
  if (typeof o?.version !== "string" || typeof o.bias !== "number" || !o.weights || typeof o.weights !== "object")
    throw new Error(`screening: the lexical weight table ${from} needs "version" (string), "bias" (number) and "weights" (object)`);
  const weights = new Map<string, number>();
  for (const [g, w] of Object.entries(o.weights as Record<string, unknown>)) {
    if (typeof w !== "number" || !Number.isFinite(w)) throw new Error(`screening: the lexical weight table ${from} has a weight for "${g}" that is not a finite number`);
    weights.set(g, w);
  }
  return { version: o.version, bias: o.bias, weights };
}

/** Where the shipped table lives (in the package, beside dist/). */
export function lexicalModelPath(): string {
  return fileURLToPath(new URL("../../../assets/screening-lexical.json", import.meta.url));
}

let shipped: LexicalModel | undefined;

/** The shipped table, read on first use. */
export function shippedLexicalModel(): LexicalModel {
  if (!shipped) {
    const path = lexicalModelPath();
    shipped = parseLexicalModel(readFileSync(path, "utf8"), path);
  }
  return shipped;
}
