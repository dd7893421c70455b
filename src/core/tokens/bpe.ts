/**
 * Byte-pair encoding over a tiktoken rank file (the `js-tiktoken/ranks/*` modules), for counting.
 *
 * Same tokens as js-tiktoken's `Tiktoken.encode(text, [], [])` (special tokens read as plain text), with a table
 * that is cheaper to build and to keep: a token's bytes are held as one latin1 string (one character per byte)
 * rather than as a comma-joined list of decimal bytes, and there is no second table of byte arrays for decoding.
 * Building cl100k_base this way takes a fraction of the time and heap; the first routed call of a process waits
 * for it.
 */

/** A rank file as `js-tiktoken/ranks/*` export it. */
export interface RankFile {
  pat_str: string;
  special_tokens: Record<string, number>;
  /** Lines of `<prefix> <first rank> <base64 token> <base64 token> …`, consecutive ranks from the first. */
  bpe_ranks: string;
}

export class BytePairEncoder {
  /** The encoding's pre-tokenizer: text is split into its matches, and each match is encoded on its own. */
  readonly pattern: RegExp;
  /** Rank of each token, keyed by the token's bytes as a latin1 string. */
  private readonly ranks = new Map<string, number>();
  /** Bytes (latin1) of each rank, built on the first decode only. */
  private bytesOfRank?: string[];
  /** Text of the special tokens by id: never produced by `encode`, decoded for completeness. */
  private readonly specialText = new Map<number, string>();
  private readonly decoder = new TextDecoder("utf-8");

  constructor(file: RankFile) {
    this.pattern = new RegExp(file.pat_str, "gu");
    for (const line of file.bpe_ranks.split("\n")) {
      if (!line) continue;
      const fields = line.split(" ");
      const first = Number.parseInt(fields[1]!, 10);
      // A token listed twice keeps its last rank, as in js-tiktoken.
      for (let i = 2; i < fields.length; i++) this.ranks.set(Buffer.from(fields[i]!, "base64").toString("latin1"), first + i - 2);
    }
    for (const [text, id] of Object.entries(file.special_tokens)) this.specialText.set(id, Buffer.from(text, "utf8").toString("latin1"));
  }

  /** Token ids of `text`: each pre-tokenizer match as one token when it is one, else merged pair by pair. */
  encode(text: string): number[] {
    const out: number[] = [];
    const pattern = this.pattern;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      if (m[0].length === 0) {
        pattern.lastIndex++;
        continue;
      }
      const bytes = Buffer.from(m[0], "utf8").toString("latin1");
      const whole = this.ranks.get(bytes);
      if (whole !== undefined) out.push(whole);
      else this.mergePairs(bytes, out);
    }
    return out;
  }

  /**
   * Byte-pair merging of one piece: start from single bytes and repeatedly merge the adjacent pair whose merged
   * bytes have the lowest rank (the leftmost on a tie) until no adjacent pair is a token.
   */
  private mergePairs(bytes: string, out: number[]): void {
    const ranks = this.ranks;
    if (bytes.length === 1) {
      const r = ranks.get(bytes);
      if (r !== undefined) out.push(r);
      return;
    }
    // starts[i]: where part i begins; part i ends where part i + 1 begins (the last ends at bytes.length).
    const starts: number[] = [];
    for (let i = 0; i <= bytes.length; i++) starts.push(i);
    while (starts.length > 2) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i + 2 < starts.length; i++) {
        const r = ranks.get(bytes.slice(starts[i]!, starts[i + 2]!));
        if (r !== undefined && r < bestRank) {
          bestRank = r;
          best = i;
        }
      }
      if (best < 0) break;
      starts.splice(best + 1, 1);
    }
    for (let i = 0; i + 1 < starts.length; i++) {
      const r = ranks.get(bytes.slice(starts[i]!, starts[i + 1]!));
      if (r !== undefined) out.push(r);
    }
  }

  /** The text of token ids (bytes that do not form whole characters decode as U+FFFD). */
  decode(ids: readonly number[]): string {
    if (!this.bytesOfRank) {
      const table: string[] = [];
      for (const [bytes, rank] of this.ranks) table[rank] = bytes;
      this.bytesOfRank = table;
    }
    let bytes = "";
    for (const id of ids) bytes += this.bytesOfRank[id] ?? this.specialText.get(id) ?? "";
    return this.decoder.decode(Buffer.from(bytes, "latin1"));
  }
}
