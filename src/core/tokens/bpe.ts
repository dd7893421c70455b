/**
 * Byte-pair encoding over a tiktoken rank file (the `js-tiktoken/ranks/*` modules), for counting.
 *
 * Same tokens as js-tiktoken's `Tiktoken.encode(text, [], [])` (special tokens read as plain text), with a table
 * that is cheaper to build and to keep: every token's bytes back to back in one byte array, found through an
 * open-addressing hash table of typed arrays, rather than a map keyed by a string per token (cl100k_base: 1.9 MiB
 * of heap instead of 5.8, measured) or js-tiktoken's comma-joined decimal bytes and second table of byte arrays for
 * decoding. Building cl100k_base this way takes a fraction of the time and heap; the first routed call of a process
 * waits for it. The text being encoded is held as a latin1 string (one character per UTF-8 byte), so a part of it
 * is looked up without making a string of its own.
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
  /** Every token's bytes, back to back, in rank-file order (entry `e` spans `starts[e]` to `starts[e + 1]`). */
  private readonly bytes: Uint8Array;
  private readonly starts: Uint32Array;
  /** Rank of each entry. */
  private readonly ranks: Uint32Array;
  /** Hash table over the entries: entry + 1 per slot, 0 when empty; a power-of-two size of at least twice the entries. */
  private readonly slots: Uint32Array;
  private readonly mask: number;
  /** Entry of each rank, built on the first decode only. */
  private entryOfRank?: Int32Array;
  /** Text of the special tokens by id: never produced by `encode`, decoded for completeness. */
  private readonly specialText = new Map<number, string>();
  private readonly decoder = new TextDecoder("utf-8");

  constructor(file: RankFile) {
    this.pattern = new RegExp(file.pat_str, "gu");
    const lines = file.bpe_ranks.split("\n");
    // Base64 gives at most 3 bytes per 4 characters: room for every token, decoded in place (no buffer per token).
    let room = 0;
    let count = 0;
    for (const line of lines) {
      room += Math.ceil((line.length * 3) / 4);
      for (let i = line.indexOf(" "); i >= 0; i = line.indexOf(" ", i + 1)) count++;
    }
    const bytes = Buffer.alloc(room);
    const starts = new Uint32Array(count + 1);
    const ranks = new Uint32Array(count);
    let size = 1;
    while (size < 2 * count) size *= 2;
    this.slots = new Uint32Array(size);
    this.mask = size - 1;
    this.bytes = bytes;
    this.starts = starts;
    this.ranks = ranks;
    let at = 0;
    let entries = 0;
    for (const line of lines) {
      if (!line) continue;
      const fields = line.split(" ");
      const first = Number.parseInt(fields[1]!, 10);
      for (let i = 2; i < fields.length; i++) {
        const length = bytes.write(fields[i]!, at, "base64");
        starts[entries] = at;
        starts[entries + 1] = at + length;
        const slot = this.findSlot(bytes, at, at + length);
        const found = this.slots[slot]!;
        // A token listed twice keeps its last rank, as in js-tiktoken: the entry found is updated, the copy dropped.
        if (found !== 0) ranks[found - 1] = first + i - 2;
        else {
          ranks[entries] = first + i - 2;
          this.slots[slot] = ++entries;
          at += length;
        }
      }
    }
    // Trimmed copies: the room estimate and any repeated tokens are not kept.
    this.bytes = new Uint8Array(bytes.subarray(0, at));
    this.starts = starts.slice(0, entries + 1);
    this.ranks = ranks.slice(0, entries);
    for (const [text, id] of Object.entries(file.special_tokens)) this.specialText.set(id, Buffer.from(text, "utf8").toString("latin1"));
  }

  /**
   * The slot of the bytes `key[from..to)` (a byte array, or a latin1 string: one character per byte): the slot
   * holding their entry, or the empty slot where it would go. FNV-1a hash, linear probing.
   */
  private findSlot(key: Uint8Array | string, from: number, to: number): number {
    const text = typeof key === "string";
    let h = 0x811c9dc5;
    for (let i = from; i < to; i++) h = Math.imul(h ^ (text ? (key as string).charCodeAt(i) : (key as Uint8Array)[i]!), 0x01000193);
    const { slots, starts, bytes, mask } = this;
    const len = to - from;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const found = slots[slot]!;
      if (found === 0) return slot;
      const s = starts[found - 1]!;
      if (starts[found]! - s !== len) continue;
      let same = true;
      for (let i = 0; i < len && same; i++) same = bytes[s + i] === (text ? (key as string).charCodeAt(from + i) : (key as Uint8Array)[from + i]);
      if (same) return slot;
    }
  }

  /** Rank of the token whose bytes are `bytes[from..to)` (a latin1 string), or undefined when they are not a token. */
  private rankOf(bytes: string, from: number, to: number): number | undefined {
    const found = this.slots[this.findSlot(bytes, from, to)]!;
    return found === 0 ? undefined : this.ranks[found - 1];
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
      const whole = this.rankOf(bytes, 0, bytes.length);
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
    if (bytes.length === 1) {
      const r = this.rankOf(bytes, 0, 1);
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
        const r = this.rankOf(bytes, starts[i]!, starts[i + 2]!);
        if (r !== undefined && r < bestRank) {
          bestRank = r;
          best = i;
        }
      }
      if (best < 0) break;
      starts.splice(best + 1, 1);
    }
    for (let i = 0; i + 1 < starts.length; i++) {
      const r = this.rankOf(bytes, starts[i]!, starts[i + 1]!);
      if (r !== undefined) out.push(r);
    }
  }

  /** The text of token ids (bytes that do not form whole characters decode as U+FFFD). */
  decode(ids: readonly number[]): string {
    if (!this.entryOfRank) {
      let max = 0;
      for (const r of this.ranks) max = Math.max(max, r);
      const table = new Int32Array(max + 1).fill(-1);
      this.ranks.forEach((r, e) => (table[r] = e));
      this.entryOfRank = table;
    }
    const parts: Uint8Array[] = [];
    for (const id of ids) {
      const e = Number.isInteger(id) && id >= 0 && id < this.entryOfRank.length ? this.entryOfRank[id]! : -1;
      if (e >= 0) parts.push(this.bytes.subarray(this.starts[e]!, this.starts[e + 1]!));
      else {
        const special = this.specialText.get(id);
        if (special !== undefined) parts.push(Buffer.from(special, "latin1"));
      }
    }
    return this.decoder.decode(Buffer.concat(parts));
  }
}
