/**
 * A second opinion on a whole tool, from its words: a logistic model over the word unigrams and bigrams of every
 * text field of the definition, trained on the library's own development sets (src/bench/screening-lexical-train.ts)
 * and shipped as a table of weights (assets/screening-lexical.bin).
 *
 * Why it exists beside the readers: the rules and the sentence readers read forms, and each new writer of attacks
 * or of honest tools brings forms they do not know. A rule that fires on an honest real server's usage note and a
 * calm attack the readers let through differ in their vocabulary as a whole more reliably than in any one form. The
 * model is not trusted alone against the rules: it sets aside a rule's or a reading's finding on a tool whose words
 * read as plainly honest (below `LEXICAL_VETO`) unless the finding's own sentence, read alone, does not (above
 * `LEXICAL_SENTENCE_KEEP`), and files a finding of its own only on a tool whose words read as plainly hostile (above
 * `LEXICAL_ALONE`) and one of whose sentences does too (above `LEXICAL_ALONE_SENTENCE`). On a short tool, below
 * `LEXICAL_MIN_FEATURES`, it sets nothing aside and files a finding of its own on the stricter `LEXICAL_SHORT_ALONE` and
 * `LEXICAL_SHORT_SENTENCE`. Hidden characters and encoded text are never set aside: the model does not see them. The
 * acts are decided in lexical-verdict.ts.
 *
 * Features are hashed into a fixed table (the hashing trick): the table holds numbers only, loads in about 10 ms,
 * and a feature costs a hash, not a string. Pure and synchronous; the table is read once, on first use.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { TextField } from "./fields.js";
import { sentences } from "./text.js";

/** The weight table: a bias and one weight per hash bucket. */
export interface LexicalModel {
  bias: number;
  /** 2^bits weights; a feature's weight is `weights[bucketOf(hash)]`. */
  weights: Float32Array;
  mask: number;
}

/**
 * Logit below which a tool's words read as plainly honest: the rules' and readers' findings on it are set aside.
 * Chosen with the table, over the never-fit sets (1,088 realistic and 192 evasive attacks, 3,040 honest tools) and
 * the real servers: −0.5 with the first table, −0.2 and then 0 as the tables grew more confident.
 */
export const LEXICAL_VETO = 0;
/**
 * Logit above which the model files a finding of its own on a tool the rules and readers let through (its heaviest
 * sentence must not read as plainly honest: `LEXICAL_ALONE_SENTENCE`). Chosen as `LEXICAL_VETO` was: 1, then 1.1 once
 * the table had also learned short tools (two fewer attacks, three fewer honest tools over the never-fit sets).
 */
export const LEXICAL_ALONE = 1.1;
/**
 * Logit the sentence a finding of the model's own points at must reach, read alone: an ask sits in a sentence, while
 * promotional copy spread over a whole description ("Unlock a world of …") raises the tool's logit without any one
 * sentence reading as an attack. The table is trained on honest tools' single sentences as well (the trainer's
 * `honestSentenceShare`), so a sentence's logit means what a tool's does: a plain sentence reads about −2 ("Returns
 * the forecast for a city."), an ask above 0. −1 keeps the plain ones out; over the never-fit sets, 0 let 14 attacks
 * through whose whole tool read as hostile, and no honest tool there reads above `LEXICAL_ALONE` unflagged.
 */
export const LEXICAL_ALONE_SENTENCE = -1;
/**
 * Share of a tool's features the model has weights for, below which it files nothing of its own: on vocabulary it
 * never saw (100,000 generated enum values, a language it was not trained on) the logit tends to the bias, which
 * says nothing about the tool.
 */
export const LEXICAL_MIN_KNOWN = 0.5;
/** Fewest features (about three words) of a sentence the model's own finding may point at. */
export const LEXICAL_MIN_SENTENCE_FEATURES = 6;
/**
 * Logit, read on a finding's own sentence, above which the finding is kept whatever the whole tool reads as: in a
 * long honest-sounding tool, one hostile sentence weighs little against the rest, but read alone it reads as what it is.
 */
export const LEXICAL_SENTENCE_KEEP = 0.5;
/**
 * Fewest features (about 25 words) a tool needs before the model weighs it: on shorter tools the common words
 * outweigh the rest, and the model's verdict is no better than the length of the text.
 */
export const LEXICAL_MIN_FEATURES = 60;
/**
 * On a tool shorter than that, which is most real servers' register ("Reads a text file.", one parameter), the model
 * files a finding of its own only when the whole tool reads above this logit and its strongest sentence, read alone,
 * above `LEXICAL_SHORT_SENTENCE`: a short tool is little more than its sentences, and the table was trained on single
 * honest sentences and on short tools of both kinds. It never sets a short tool's findings aside. Chosen on round58–59
 * and the real servers: 1.25 and 0.5 flag none of about 2,500 honest short tools (real servers, MetaTool, the honest sets),
 * where a tool threshold of 1 flagged a real home-automation server's "Should be called at the end of user request
 * processing." (1.16).
 */
export const LEXICAL_SHORT_ALONE = 1.25;
/** See `LEXICAL_SHORT_ALONE`. */
export const LEXICAL_SHORT_SENTENCE = 0.5;

// Words (with the characters of paths, hosts and variables kept inside them) and single punctuation marks.
const TOKEN = /[a-z0-9~./_$-]+|[^\sa-z0-9]/g;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const SPACE = 32;

/** FNV-1a over a string's UTF-16 code units, continuing from `h`: hashing "a" then "b" equals hashing "ab". */
export function fnv1a(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/** A feature's bucket: the hash mixed (MurmurHash3's finalizer) so that its low bits are spread, then masked. */
export function bucketOf(hash: number, mask: number): number {
  let h = hash;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) & mask;
}

/** The kind of a field, as the model tells them apart: the tool's description has no prefix. */
export function fieldKind(field: string): string {
  if (field === "description") return "";
  if (field.endsWith(".description")) return "p:";
  if (/default|enum|const|example/.test(field)) return "v:";
  if (/title/.test(field)) return "t:";
  return "o:";
}

/** The hash of a feature given as text ("send it", "p:send it"): what `addFeatures` adds for it. */
export function featureHash(feature: string): number {
  return fnv1a(FNV_OFFSET, feature);
}

/**
 * Adds the features of one text of a field of kind `kind` to `into`, as hashes: its unigrams and bigrams, each
 * also prefixed by the kind ("p:send it" for a parameter's description).
 */
export function addFeatures(text: string, kind: string, into: Set<number>): void {
  const tokens = text.toLowerCase().match(TOKEN);
  if (!tokens) return;
  const kindStart = fnv1a(FNV_OFFSET, kind);
  for (let i = 0; i < tokens.length; i++) {
    const uni = fnv1a(FNV_OFFSET, tokens[i]);
    into.add(uni);
    const next = i + 1 < tokens.length ? tokens[i + 1] : undefined;
    // A bigram is its first word, a space and its second: hashed on from the first word's hash.
    if (next !== undefined) into.add(fnv1a(Math.imul(uni ^ SPACE, FNV_PRIME) >>> 0, next));
    if (kind) {
      const kuni = fnv1a(kindStart, tokens[i]);
      into.add(kuni);
      if (next !== undefined) into.add(fnv1a(Math.imul(kuni ^ SPACE, FNV_PRIME) >>> 0, next));
    }
  }
}

/** Every feature of a tool: the fields that carry prose or values (not the tool's name, not property names). */
export function toolFeatures(fields: readonly TextField[]): Set<number> {
  const out = new Set<number>();
  for (const f of fields) if (!f.identifier) addFeatures(f.text, fieldKind(f.field), out);
  return out;
}

/** The sum of the features' weights. */
function weightOf(model: LexicalModel, features: ReadonlySet<number>): number {
  let sum = 0;
  for (const h of features) sum += model.weights[bucketOf(h, model.mask)];
  return sum;
}

/** The model's logit for a set of features: the bias plus their weights, scaled by the square root of their number. */
export function lexicalLogit(model: LexicalModel, features: ReadonlySet<number>): number {
  return model.bias + weightOf(model, features) / Math.sqrt(Math.max(1, features.size));
}

/** The share of `features` whose bucket carries a weight (a feature never trained on mostly lands in an empty one). */
export function knownShare(model: LexicalModel, features: ReadonlySet<number>): number {
  let known = 0;
  for (const h of features) if (model.weights[bucketOf(h, model.mask)] !== 0) known++;
  return known / Math.max(1, features.size);
}

/** The model's logit for one sentence of a field, read as if it were a tool of its own. */
export function sentenceLogit(model: LexicalModel, sentence: string, field: string): number {
  return lexicalLogit(model, sentenceFeatures(sentence, field));
}

/** The features of one sentence of a field. */
export function sentenceFeatures(sentence: string, field: string): Set<number> {
  const features = new Set<number>();
  addFeatures(sentence, fieldKind(field), features);
  return features;
}

/** A sentence of a field, with its features. */
export interface WeighedSentence {
  field: string;
  sentence: string;
  features: Set<number>;
}

/** The sentence whose own features weigh most towards an attack, with its field: where a finding of the model points. */
export function heaviestSentence(model: LexicalModel, fields: readonly TextField[]): WeighedSentence | undefined {
  let best: WeighedSentence | undefined;
  let bestWeight = 0;
  for (const { field, sentence } of proseSentences(fields)) {
    const features = sentenceFeatures(sentence, field);
    const w = weightOf(model, features);
    if (w > bestWeight) {
      bestWeight = w;
      best = { field, sentence: sentence.trim(), features };
    }
  }
  return best;
}

/** Every sentence of the fields that carry prose or values (not names), with its field: what the model reads alone. */
export function* proseSentences(fields: readonly TextField[]): Generator<{ field: string; sentence: string }> {
  for (const f of fields) if (!f.identifier) for (const s of sentences(f.text)) yield { field: f.field, sentence: s.s };
}

/** A sentence whose object is the sentence before: "Put it in `q`.", "Pass them as `context`." */
const POINTS_BACK = /^\W*(?:put|pass|place|send|include|add|use|give|set|attach|copy|paste|enter)\s+(?:it|them|this|that|these|those)\b/i;

/** Three words or more, not a question: what a short tool's finding may point at. Split, not matched: linear in any text. */
function asksSomething(s: string): boolean {
  const t = s.trim();
  return !t.endsWith("?") && t.split(/\s+/, 3).length >= 3;
}

/**
 * The sentence that reads most as an attack, read alone, with its field and logit: of those with at least
 * `minFeatures` features that are statements of three words or more. A value such as a URL is no sentence, and a
 * question ("Q: What goes in `q`?") asks nothing of the model; on a short tool either may otherwise read as the
 * strongest.
 */
export function strongestSentence(model: LexicalModel, fields: readonly TextField[], minFeatures: number): (WeighedSentence & { logit: number }) | undefined {
  let best: (WeighedSentence & { logit: number }) | undefined;
  let before: { field: string; sentence: string } | undefined;
  for (const current of proseSentences(fields)) {
    const { field } = current;
    // "Put it in `q`." says what "it" is in the sentence before: the two are weighed together.
    const sentence = before?.field === field && POINTS_BACK.test(current.sentence) ? `${before.sentence.trim()} ${current.sentence.trim()}` : current.sentence;
    before = current;
    if (!asksSomething(sentence)) continue;
    const features = sentenceFeatures(sentence, field);
    if (features.size < minFeatures) continue;
    const logit = lexicalLogit(model, features);
    if (!best || logit > best.logit) best = { field, sentence: sentence.trim(), features, logit };
  }
  return best;
}

/**
 * The table's layout, little-endian: "TALX", the number of hash bits (uint32), the bias (float32), the number of
 * weighted buckets (uint32), then each weighted bucket as its index (uint32) and weight (float32). Most buckets are
 * never trained (a feature needs two training tools), so the file holds the others only.
 */
const MAGIC = "TALX";
const HEADER_BYTES = 16;

/** Writes a table in that layout. */
export function encodeLexicalModel(bias: number, weights: Float32Array): Buffer {
  const bits = Math.log2(weights.length);
  if (!Number.isInteger(bits)) throw new Error(`screening: a lexical weight table needs 2^bits weights, not ${weights.length}`);
  const used: number[] = [];
  for (let i = 0; i < weights.length; i++) if (weights[i] !== 0) used.push(i);
  const out = Buffer.alloc(HEADER_BYTES + used.length * 8);
  out.write(MAGIC, 0, "latin1");
  out.writeUInt32LE(bits, 4);
  out.writeFloatLE(bias, 8);
  out.writeUInt32LE(used.length, 12);
  used.forEach((b, k) => {
    out.writeUInt32LE(b, HEADER_BYTES + k * 8);
    out.writeFloatLE(weights[b], HEADER_BYTES + k * 8 + 4);
  });
  return out;
}

/** Reads a table; errors name the file and what is wrong. */
export function decodeLexicalModel(bytes: Uint8Array, from: string): LexicalModel {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < HEADER_BYTES || buf.toString("latin1", 0, 4) !== MAGIC) throw new Error(`screening: ${from} is not a lexical weight table (no "${MAGIC}" header)`);
  const bits = buf.readUInt32LE(4);
  if (bits < 4 || bits > 24) throw new Error(`screening: the lexical weight table ${from} declares ${bits} hash bits (4–24 expected)`);
  const bias = buf.readFloatLE(8);
  if (!Number.isFinite(bias)) throw new Error(`screening: the lexical weight table ${from} has a bias that is not a finite number`);
  const count = buf.readUInt32LE(12);
  if (buf.length !== HEADER_BYTES + count * 8) throw new Error(`screening: the lexical weight table ${from} holds ${buf.length} bytes, ${HEADER_BYTES + count * 8} expected for ${count} weights`);
  const weights = new Float32Array(2 ** bits);
  for (let k = 0; k < count; k++) {
    const b = buf.readUInt32LE(HEADER_BYTES + k * 8);
    const w = buf.readFloatLE(HEADER_BYTES + k * 8 + 4);
    if (b >= weights.length || !Number.isFinite(w)) throw new Error(`screening: the lexical weight table ${from} has a bad entry ${k} (bucket ${b}, weight ${w})`);
    weights[b] = w;
  }
  return { bias, weights, mask: weights.length - 1 };
}

/** Where the shipped table lives (in the package, beside dist/). */
export function lexicalModelPath(): string {
  return fileURLToPath(new URL("../../../assets/screening-lexical.bin", import.meta.url));
}

let shipped: LexicalModel | undefined;

/** The shipped table, read on first use. */
export function shippedLexicalModel(): LexicalModel {
  if (!shipped) {
    const path = lexicalModelPath();
    shipped = decodeLexicalModel(readFileSync(path), path);
  }
  return shipped;
}
