/**
 * Whether a pattern matches a sentence, remembered per sentence. The readers (intent.ts, structure.ts) test a
 * hundred word families against every sentence, and a catalog repeats its sentences across tools ("The ID of the
 * project.", a shared parameter's description): about a third of a real catalog's sentences are repeats. A test of
 * a non-global pattern is a pure function of the pattern and the text, so a remembered answer is the same answer.
 *
 * The memory is bounded: past MAX_SENTENCES distinct sentences it starts over, so a large catalog costs no more
 * than a small one; and it is dropped once the event loop turns (a catalog is screened in one synchronous pass), so
 * a process that screened once does not keep the answers for its lifetime.
 */
const MAX_SENTENCES = 4096;
let answers = new Map<string, Map<RegExp, boolean>>();
// The readers test one sentence against many patterns in a row: the last sentence's answers are kept at hand.
let lastSentence: string | undefined;
let lastAnswers: Map<RegExp, boolean> | undefined;

let forgetScheduled = false;

function forget(): void {
  answers = new Map();
  lastSentence = undefined;
  lastAnswers = undefined;
  forgetScheduled = false;
}

/** `re.test(s)`, remembered for `s` (global and sticky patterns, whose test depends on lastIndex, are not remembered). */
export function has(re: RegExp, s: string): boolean {
  if (re.global || re.sticky) return re.test(s);
  if (!forgetScheduled) {
    forgetScheduled = true;
    // unref: a pending forget never keeps the host process alive.
    setImmediate(forget).unref();
  }
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

/** How many sentences' answers are kept right now (0 once the event loop has turned after a screening). */
export function rememberedSentences(): number {
  return answers.size;
}
