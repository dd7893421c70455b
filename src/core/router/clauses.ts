/**
 * Multi-intent decomposition: a deterministic English clause splitter for requests that ask for several things
 * ("read the log, then open a ticket; next tell the team"). Routing each clause separately lets every request
 * get its own tools instead of one blended query vector that sits between them.
 *
 * The splitter is conservative, so a single-intent request is never split:
 * - it splits only at explicit sequencing connectives: ";", ", then" / "and then", "and also", "after that",
 *   "afterwards", "next", "finally", ", and" + one of a closed list of request verbs ("tell",
 *   "show", "create", …; a list "A, B, and C" stays whole) — and at a sentence end (". ! ?") only when the next
 *   sentence opens with such a connective or "Once that's done" / "When that's done" / "Also" / "Then";
 * - a bare "and" never splits ("search and replace", "find and open", "X and Y together");
 * - a bare "then" never splits ("if it fails then retry");
 * - every clause must keep at least `minWords` words (default 3): a list's last item ("X, Y, and Z") or a short
 *   tail ("…, and thanks") is merged back into the clause before it.
 */

/** Options of {@link splitClauses}. */
export interface ClauseOptions {
  /** A clause shorter than this (in words) is merged into the clause before it. Default 3. */
  minWords?: number;
  /** At most this many clauses (the rest stays in the last one). Default 6. */
  maxClauses?: number;
}

// Connectives that open a new request. Order matters: longer forms first.
const OPENERS =
  "once (?:that|this|it)(?:'s| is) (?:done|finished|complete)|when (?:that|this|it)(?:'s| is) (?:done|finished|complete)|" +
  "after (?:that|this)|afterwards|and then|then|and also|also|next|finally";
// After ", and", only these words start a new request (a closed list: "A, B, and C" lists must stay whole).
const VERBS =
  "tell|show|give|send|create|open|find|get|grab|make|add|update|delete|remove|run|read|write|let|notify|ping|book|" +
  "schedule|fetch|download|upload|reply|respond|announce|print|load|save|rename|copy|close|merge|start|restart|" +
  "deploy|mark|assign|summarize|translate|can you|could you|please";
// A boundary: "; ", a sentence end followed by an opener, ", then"-style connectives, " and also ", ", and ".
const BOUNDARY = new RegExp(
  [
    `\\s*;\\s+(?:(?:${OPENERS})\\b,?\\s*)?`,
    `\\s*[.!?]\\s+(?=(?:${OPENERS})\\b)(?:${OPENERS})\\b,?\\s*`,
    `\\s*,\\s*(?:and\\s+)?(?:then|after that|afterwards|next|finally|also)\\b,?\\s*`,
    `\\s+(?:and then|and also|and after that|and afterwards|and finally|and next)\\b,?\\s*`,
    `\\s*,\\s+and\\s+(?=(?:${VERBS})\\b)`,
  ].join("|"),
  "gi",
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'/_.#-]*/gu;

function wordCount(text: string): number {
  return text.match(WORD)?.length ?? 0;
}

/**
 * Splits a request into its clauses (see the module comment for the rules). A request with one intent comes back
 * as a one-element array holding the trimmed text; an empty text gives [].
 */
export function splitClauses(text: string, options: ClauseOptions = {}): string[] {
  const minWords = options.minWords ?? 3;
  const maxClauses = options.maxClauses ?? 6;
  const whole = text.trim();
  if (!whole) return [];
  const pieces: string[] = [];
  let last = 0;
  for (const m of whole.matchAll(BOUNDARY)) {
    pieces.push(whole.slice(last, m.index));
    last = (m.index ?? 0) + m[0].length;
  }
  pieces.push(whole.slice(last));
  const clauses: string[] = [];
  for (const raw of pieces) {
    const piece = raw.trim().replace(/^[,;:.\s]+|[,;:\s]+$/g, "");
    if (!piece) continue;
    if (clauses.length > 0 && (wordCount(piece) < minWords || clauses.length >= maxClauses))
      clauses[clauses.length - 1] = `${clauses[clauses.length - 1]}, ${piece}`;
    else clauses.push(piece);
  }
  // A short first clause ("Hey, and also …" leftovers) joins the next one.
  if (clauses.length > 1 && wordCount(clauses[0]) < minWords) clauses.splice(0, 2, `${clauses[0]} ${clauses[1]}`);
  return clauses.length > 1 ? clauses : [whole];
}
