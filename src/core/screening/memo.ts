/**
 * Whether a pattern matches a sentence, remembered per sentence. The readers (intent.ts, structure.ts) test a
 * hundred word families against every sentence, and a catalog repeats its sentences across tools ("The ID of the
 * project.", a shared parameter's description): about a third of a real catalog's sentences are repeats. A test of
 * a non-global pattern is a pure function of the pattern and the text, so a remembered answer is the same answer.
 *
 * The memory is bounded: past MAX_SENTENCES distinct sentences it starts over, so a large catalog costs no more
 * than a small one in memory and no sentence is kept longer than the screening that read it needs.
 */
const MAX_SENTENCES = 4096;
let answers = new Map<string, Map<RegExp, boolean>>();
// The readers test one sentence against many patterns in a row: the last sentence's answers are kept at hand.
let lastSentence: string | undefined;
let lastAnswers: Map<RegExp, boolean> | undefined;

/** `re.test(s)`, remembered for `s` (global and sticky patterns, whose test depends on lastIndex, are not remembered). */
export function has(re: RegExp, s: string): boolean {
  if (re.global || re.sticky) return re.test(s);
  let bySentence = s === lastSentence ? lastAnswers : answers.get(s);
  if (bySentence === undefined) {
    if (answers.size >= MAX_SENTENCES) answers = new Map();
    bySentence = new Map();
    answers.set(s, bySentence);
  }
  lastSentence = s;
  lastAnswers = bySentence;
  let v = bySentence.get(re);
  if (v === undefined) {
    v = re.test(s);
    bySentence.set(re, v);
  }
  return v;
}
