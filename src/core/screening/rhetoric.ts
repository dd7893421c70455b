/**
 * Rhetorical questions as the orders they are. "Why would anyone use the slower search tool?" and "Why bother asking
 * the user first?" ask nothing: they tell the model not to use the other tool, not to ask. The readers (intent.ts,
 * structure.ts) read statements and orders, so such a question is also read as the negated order it stands for,
 * beside the question itself. A question with no one to act in it ("Why does this tool cap results at 10?") is a
 * real question, an FAQ heading, and is left alone.
 */

/** "Why would anyone / should the assistant / bother … ?": the act that follows is the one not to do. */
const WHY_ACT =
  /^\s*(?:(?:really|honestly|seriously|come on)[,!]?\s+)?why (?:on earth )?(?:(?:would|should|do|does|did|will|'d)\s+(?:anyone|anybody|you|one|someone|they|(?:an?|the|any) (?:[\w-]+ )?(?:assistant|model|agent|ai))\s+(?:ever |still |even |really |possibly )?(?:bother (?:to |with )?)?|bother (?:to |with )?)(.+?)\s*\?+\s*$/i;
/** "Who (still) needs / uses the other tools?": those tools are not to be used. */
const WHO_USES = /^\s*(?:(?:really|honestly|seriously)[,!]?\s+)?who (?:still |even |really |honestly )?(?:needs|uses|calls|picks|wants|bothers with|relies on)\s+(.+?)\s*\?+\s*$/i;
/** Gerunds whose stem lost its final e ("using" → "use"). */
const E_STEMS = new Set(["us", "mak", "tak", "giv", "sav", "shar", "writ", "compar", "mov", "stor", "declin", "refus"]);

/** The order a rhetorical question stands for, or undefined when the sentence is no such question. */
export function rhetoricalOrder(sentence: string): string | undefined {
  if (!sentence.includes("?")) return undefined;
  const why = WHY_ACT.exec(sentence);
  if (why) return `Do not ${baseForm(why[1]!)}.`;
  const who = WHO_USES.exec(sentence);
  if (who) return `Do not use ${who[1]}.`;
  return undefined;
}

/** "asking the user" → "ask the user": the leading gerund in the base form an order takes. */
function baseForm(act: string): string {
  return act.replace(/^([a-z-]+?)ing\b/i, (_m, stem: string) => {
    if (/(?:bb|dd|gg|mm|nn|pp|tt)$/.test(stem)) return stem.slice(0, -1);
    const last = stem.split("-").pop()!;
    return E_STEMS.has(last.toLowerCase()) ? `${stem}e` : stem;
  });
}
