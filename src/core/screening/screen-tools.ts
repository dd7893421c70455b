/**
 * Screens a whole catalog with every stage: the pattern rules and the sentence reader (screen.ts, intent.ts), the
 * embedded encoder against the category prototypes (prototypes.ts), and an optional user-supplied judge. The
 * encoder weighs a sentence's nearest category prototype against its nearest legitimate prototype; it confirms a
 * reading the reader was unsure of, and files on its own only a sentence much nearer an attack than any
 * legitimate description. Sentences that name nothing the categories are about (the model, the user, secrets,
 * addresses, other tools, preference) are not embedded, which keeps connect time low.
 *
 * The encoder is optional: when it cannot load, screening goes on with rules and the reader, and the report says so.
 */
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { resolveEncoder, type EncoderName } from "../encoders/index.js";
import { SCREENING_CATEGORIES, type ScreeningCategory } from "./categories.js";
import type { SentenceFinding, ToolSentence } from "./meaning.js";
import { CATEGORY_PROTOTYPES, LEGITIMATE_PROTOTYPES } from "./prototypes.js";
import { screenToolDetailed } from "./screen.js";
import { LEXICAL_VETO } from "./lexical.js";
import { DEFAULT_SCREENING_THRESHOLD, type ScreenableTool, type ScreeningFinding, type ScreeningResult } from "./types.js";

/** A user-supplied judge, e.g. a model call: given a sentence and its tool, the categories it reads as. Never the default. */
export type ScreeningJudge = (input: {
  server: string;
  tool: string;
  field: string;
  sentence: string;
  /** What the rules and the reader concluded for this sentence (possibly nothing). */
  readings: { category: ScreeningCategory; score: number }[];
}) => Promise<{ category: ScreeningCategory; score: number }[] | undefined>;

export interface ScreenToolsOptions {
  /** Encoder for the prototype comparison: "use-lite" (default), any LangChain Embeddings, or false (rules and reader only). */
  encoder?: EncoderName | EmbeddingsInterface | false;
  /** Disk cache for the encoder's vectors (see resolveEncoder). Default: the library's cache directory. */
  cacheDir?: string | false;
  /** Asked about each candidate sentence, after the encoder. Optional; its findings carry source "judge". */
  judge?: ScreeningJudge;
  /** Score at which a finding counts. Default `DEFAULT_SCREENING_THRESHOLD`. */
  threshold?: number;
  /** Weigh each tool's words with the lexical model (lexical.ts). Default true. */
  lexical?: boolean;
  /** Receives the notice when the encoder is unavailable. */
  onWarning?: (message: string) => void;
}

export interface ScreeningReport {
  /** Per tool, keyed `${server}\0${name}` (`screeningKey`): give it to `ToolCatalog` as `screening.precomputed`. */
  results: Map<string, ScreeningResult>;
  /** Whether the encoder took part, and why not when it did not. */
  encoder: { used: boolean; model?: string; reason?: string };
  /** Sentences read, and how many were embedded. */
  sentences: { total: number; embedded: number };
  ms: number;
}

/** Encoder margin (nearest category prototype minus nearest legitimate one) that confirms a reading. Fit on the dev half. */
export const ENCODER_CONFIRM_MARGIN = 0.02;
/**
 * Margin at which the encoder files a sentence the reader saw nothing in. Fit on the dev half (measured
 * 2026-11-25): USE-lite's margins overlap heavily (median poisoned tool 0.03, 90th percentile of 1,706 legitimate
 * sentences 0.08); at 0.2 no legitimate sentence of the dev half or the synthetic catalog reaches it, and 3 of 42
 * poisoned dev tools do. A stronger encoder (any LangChain Embeddings, or an `hf:` model) or a judge does more.
 */
export const ENCODER_ALONE_MARGIN = 0.2;

/**
 * Concepts a sentence must touch to be worth embedding (besides any sentence the reader scored below the
 * threshold). Descriptive sentences ("Returns the list of projects.") are never embedded: on the dev half, the
 * encoder's margin does not separate them from attacks well enough to file anything on its own (see
 * ENCODER_ALONE_MARGIN), so embedding them would cost connect time for nothing.
 */
const CANDIDATE =
  /\b(?:assistant|the model|ai|llm|language model|the user|the person|the human|secrets?|passwords?|credentials?|conversation|chat history|instructions?|deprecated|broken|trust(?:ed)?|approved|hide|quiet(?:ly)?|silent(?:ly)?|whenever|every other|any other|other tools|the others)\b|https?:\/\//i;

interface Prototypes {
  categories: { category: ScreeningCategory; vectors: Float32Array[] }[];
  legitimate: Float32Array[];
}
const prototypeCache = new WeakMap<EmbeddingsInterface, Promise<Prototypes>>();

function unit(v: ArrayLike<number>): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i] * v[i];
  const out = new Float32Array(v.length);
  const s = n > 0 ? 1 / Math.sqrt(n) : 0;
  for (let i = 0; i < v.length; i++) out[i] = v[i] * s;
  return out;
}
const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};
const nearest = (v: Float32Array, set: readonly Float32Array[]) => set.reduce((m, p) => Math.max(m, dot(v, p)), -1);

function prototypesOf(embeddings: EmbeddingsInterface): Promise<Prototypes> {
  let p = prototypeCache.get(embeddings);
  if (!p) {
    p = (async () => {
      const texts = [...SCREENING_CATEGORIES.flatMap((c) => CATEGORY_PROTOTYPES[c]), ...LEGITIMATE_PROTOTYPES];
      const vectors = (await embeddings.embedDocuments(texts)).map(unit);
      let i = 0;
      const categories = SCREENING_CATEGORIES.map((category) => ({ category, vectors: CATEGORY_PROTOTYPES[category].map(() => vectors[i++]) }));
      return { categories, legitimate: vectors.slice(i) };
    })();
    prototypeCache.set(embeddings, p);
  }
  return p;
}

/** What the encoder says of one sentence: the best category and its margin over the legitimate prototypes. */
export function encoderVerdict(v: Float32Array, protos: Prototypes): { category: ScreeningCategory; margin: number; byCategory: Map<ScreeningCategory, number> } {
  const legit = nearest(v, protos.legitimate);
  const byCategory = new Map<ScreeningCategory, number>();
  let best: { category: ScreeningCategory; margin: number } = { category: protos.categories[0].category, margin: -Infinity };
  for (const c of protos.categories) {
    const margin = nearest(v, c.vectors) - legit;
    byCategory.set(c.category, margin);
    if (margin > best.margin) best = { category: c.category, margin };
  }
  return { ...best, byCategory };
}

export interface ScreenToolsEntry {
  server: string;
  tool: ScreenableTool;
}

/**
 * Screens every tool of a catalog with rules, the reader, the encoder (default USE-lite) and an optional judge.
 * Each tool is screened next to all the others (a server's own tool references are not steering).
 */
export async function screenTools(entries: readonly ScreenToolsEntry[], options: ScreenToolsOptions = {}): Promise<ScreeningReport> {
  const started = performance.now();
  const threshold = options.threshold ?? DEFAULT_SCREENING_THRESHOLD;
  const neighbours = entries.map((e) => ({ name: String(e.tool?.name ?? ""), server: e.server }));
  const results = new Map<string, ScreeningResult>();
  const pending: { key: string; entry: ScreenToolsEntry; parts: ToolSentence[]; readings: SentenceFinding[]; honest: boolean }[] = [];
  for (const entry of entries) {
    const name = String(entry.tool?.name ?? "");
    const key = `${entry.server}\0${name}`;
    // One reading per tool: the rules' result, the sentences and every reading (also those below the threshold).
    const { result, parts, readings, lexical } = screenToolDetailed(entry.tool, { server: entry.server, tools: neighbours, threshold, lexical: options.lexical });
    results.set(key, result);
    // A tool whose words read as plainly honest is not flagged by the encoder either (the judge, the user's own, may).
    pending.push({ key, entry, parts, readings, honest: lexical !== undefined && lexical < LEXICAL_VETO });
  }

  const pendingByKey = new Map(pending.map((p) => [p.key, p]));
  let encoder: ScreeningReport["encoder"] = { used: false, reason: "turned off (encoder: false)" };
  let embeddings: EmbeddingsInterface | undefined;
  if (options.encoder !== false) {
    try {
      const resolved = await resolveEncoder(options.encoder ?? "use-lite", { cacheDir: options.cacheDir });
      embeddings = resolved.embeddings;
      encoder = { used: true, model: resolved.modelId };
    } catch (err) {
      encoder = { used: false, reason: (err as Error).message.split("\n")[0] };
      options.onWarning?.(`tool screening: the encoder is unavailable (${encoder.reason}); tools were screened with rules and the sentence reader only`);
    }
  }

  // Candidate sentences: not already found by a rule or the reader, and touching a concept the categories are about.
  const candidates = new Map<string, { at: { key: string; server: string; tool: string; part: ToolSentence }[] }>();
  let total = 0;
  for (const p of pending) {
    const found = new Set(results.get(p.key)!.findings.map((f) => f.field + "\0" + f.sentence));
    for (const part of p.parts) {
      total++;
      if (p.honest) continue;
      if (found.has(part.field + "\0" + part.sentence)) continue;
      const unsure = p.readings.some((r) => r.sentence === part.sentence && r.field === part.field);
      if (!unsure && !CANDIDATE.test(part.sentence)) continue;
      const c = candidates.get(part.sentence) ?? { at: [] };
      c.at.push({ key: p.key, server: p.entry.server, tool: String(p.entry.tool.name), part });
      candidates.set(part.sentence, c);
    }
  }
  const add = (key: string, f: ScreeningFinding) => {
    const r = results.get(key)!;
    if (r.findings.some((x) => x.field === f.field && x.category === f.category)) return;
    r.findings.push(f);
    r.reasons.push({ rule: `${f.source}:${f.category}`, field: f.field, excerpt: f.sentence.length > 200 ? `${f.sentence.slice(0, 200)}…` : f.sentence, category: f.category, score: f.score });
    r.flagged = true;
  };
  let embedded = 0;
  if (embeddings && candidates.size > 0) {
    try {
      const protos = await prototypesOf(embeddings);
      const texts = [...candidates.keys()];
      embedded = texts.length;
      const vectors = (await embeddings.embedDocuments(texts)).map(unit);
      texts.forEach((text, i) => {
        const verdict = encoderVerdict(vectors[i], protos);
        for (const at of candidates.get(text)!.at) {
          const readings = pendingByKey.get(at.key)!.readings.filter((r) => r.sentence === text && r.field === at.part.field);
          // A reading below the threshold, confirmed by the encoder for the same category.
          for (const r of readings) {
            const margin = verdict.byCategory.get(r.category) ?? -1;
            if (margin >= ENCODER_CONFIRM_MARGIN && r.score + 0.1 + margin >= threshold)
              add(at.key, { server: at.server, tool: at.tool, field: at.part.field, sentence: text, category: r.category, score: Math.min(0.9, r.score + 0.1 + margin), source: "encoder", detail: `${r.cue}; near the ${r.category} prototypes (margin ${margin.toFixed(2)})` });
          }
          if (verdict.margin >= ENCODER_ALONE_MARGIN)
            add(at.key, { server: at.server, tool: at.tool, field: at.part.field, sentence: text, category: verdict.category, score: Math.min(0.9, 0.5 + verdict.margin - ENCODER_ALONE_MARGIN), source: "encoder", detail: `near the ${verdict.category} prototypes (margin ${verdict.margin.toFixed(2)})` });
        }
      });
    } catch (err) {
      encoder = { used: false, model: encoder.model, reason: `failed while embedding: ${(err as Error).message.split("\n")[0]}` };
      options.onWarning?.(`tool screening: the encoder failed (${encoder.reason}); tools were screened with rules and the sentence reader only`);
    }
  }

  // The judge (a model call, typically) is asked about every sentence no other stage filed: its cost is the user's choice.
  if (options.judge)
    for (const p of pending) {
      const name = String(p.entry.tool.name);
      for (const part of p.parts) {
        const result = results.get(p.key)!;
        if (result.findings.some((f) => f.field === part.field && f.sentence === part.sentence)) continue;
        const readings = p.readings.filter((r) => r.sentence === part.sentence && r.field === part.field).map((r) => ({ category: r.category, score: r.score }));
        const verdicts = (await options.judge({ server: p.entry.server, tool: name, field: part.field, sentence: part.sentence, readings })) ?? [];
        for (const v of verdicts)
          if (SCREENING_CATEGORIES.includes(v.category) && v.score >= threshold)
            add(p.key, { server: p.entry.server, tool: name, field: part.field, sentence: part.sentence, category: v.category, score: Math.min(1, v.score), source: "judge", detail: "user-supplied judge" });
      }
    }

  return { results, encoder, sentences: { total, embedded }, ms: performance.now() - started };
}
