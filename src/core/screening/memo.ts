/**
 * What the screen remembers while it screens a catalog, so the catalog's repeats cost once: a catalog repeats its
 * sentences across tools ("The ID of the project.", a shared parameter's description, a server's boilerplate). About
 * a quarter of a real catalog's sentences are repeats, and nearly all of an expanded synthetic one's.
 *
 * Three memories, each a pure function of what it is keyed by, so a remembered value is the value itself:
 *   - `has`: whether a pattern matches a sentence (the readers test a hundred word families against every sentence);
 *   - `once`: values computed from a text alone (a field's pattern hits, its steering candidates, its sentences);
 *   - `recall` / `remember`: a sentence's readings, with the context answers they depended on (context-queries.ts).
 *
 * The memory is bounded: past MAX_SENTENCES distinct sentences (four times that for texts) it starts over, so a
 * large catalog costs no more than a small one; and it is dropped once the event loop turns (a catalog is screened
 * in one synchronous pass), so a process that screened once does not keep any of it for its lifetime.
 */
const MAX_SENTENCES = 4096;
/**
 * Each pattern gets a small number, and a sentence's answers are a row of bytes, one per pattern (0 not asked, 1 no,
 * 2 yes), in one table for the whole screening: a map per sentence (or a typed array per sentence, whose buffer
 * lives outside the heap) cost more in garbage collection than the tests it saved. Patterns past MAX_PATTERNS (only
 * patterns built on the fly would get there) are tested without being remembered.
 */
const MAX_PATTERNS = 512;
const patternIds = new WeakMap<RegExp, number>();
let nextPatternId = 0;
/** MAX_SENTENCES rows of MAX_PATTERNS bytes, allocated when a screening starts and dropped with the rest. */
let table: Uint8Array | undefined;
let rowOf = new Map<string, number>();
// The readers test one sentence against many patterns in a row: the last sentence's row is kept at hand.
let lastSentence: string | undefined;
let lastRow = 0;

/**
 * A cheap pattern a sentence must match for an expensive one to match at all (every alternative of the expensive
 * pattern contains one of the guard's words): the expensive one is only tried where the guard matches.
 */
const guards = new WeakMap<RegExp, RegExp>();

/** Registers `guard` as a necessary condition of `re` (see `guards`); returns `re`. */
export function requires(re: RegExp, guard: RegExp): RegExp {
  guards.set(re, guard);
  infos.delete(re);
  return re;
}

/** What `has` needs of a pattern, looked up once: its row offset and its guard (null: a pattern that is not remembered). */
interface PatternInfo {
  id: number;
  guard: RegExp | undefined;
}
// One lookup per call instead of three (the flags' getters, the id, the guard): `has` runs for every concept of every sentence.
const infos = new WeakMap<RegExp, PatternInfo | null>();

function infoOf(re: RegExp): PatternInfo | null {
  let info = infos.get(re);
  if (info === undefined) {
    const id = re.global || re.sticky ? -1 : patternId(re);
    info = id < 0 ? null : { id, guard: guards.get(re) };
    infos.set(re, info);
  }
  return info;
}

function patternId(re: RegExp): number {
  let id = patternIds.get(re);
  if (id === undefined) {
    id = nextPatternId < MAX_PATTERNS ? nextPatternId++ : -1;
    patternIds.set(re, id);
  }
  return id;
}

let readings = new Map<string, Map<string, { asked: readonly unknown[]; value: unknown }[]>>();
let readingsSize = 0;
/** Different contexts may read one sentence differently: a few readings are kept per sentence and place. */
const MAX_VARIANTS = 8;

let byText = new Map<string, Map<string, unknown>>();
let byTextSize = 0;

let forgetScheduled = false;

function forget(): void {
  table = undefined;
  rowOf = new Map();
  lastSentence = undefined;
  readings = new Map();
  readingsSize = 0;
  byText = new Map();
  byTextSize = 0;
  forgetScheduled = false;
}

function scheduleForget(): void {
  if (forgetScheduled) return;
  forgetScheduled = true;
  // unref: a pending forget never keeps the host process alive.
  setImmediate(forget).unref();
}

/** `re.test(s)`, remembered for `s` (global and sticky patterns, whose test depends on lastIndex, are not remembered). */
export function has(re: RegExp, s: string): boolean {
  const info = infoOf(re);
  if (info === null) return re.test(s);
  if (!forgetScheduled) scheduleForget();
  let row = s === lastSentence ? lastRow : rowOf.get(s);
  if (row === undefined) {
    if (table === undefined) table = new Uint8Array(MAX_SENTENCES * MAX_PATTERNS);
    if (rowOf.size >= MAX_SENTENCES) {
      table.fill(0);
      rowOf = new Map();
    }
    row = rowOf.size * MAX_PATTERNS;
    rowOf.set(s, row);
  }
  lastSentence = s;
  lastRow = row;
  const at = row + info.id;
  const known = table![at];
  if (known !== 0) return known === 2;
  const guard = info.guard;
  const v = guard !== undefined && !guard.test(s) ? false : re.test(s);
  table![at] = v ? 2 : 1;
  return v;
}

/** How many sentences' answers are kept right now (0 once the event loop has turned after a screening). */
export function rememberedSentences(): number {
  return rowOf.size;
}

/** A remembered value of `sentence` read at `place` whose recorded answers `fits` accepts, or undefined. */
export function recall<A, V>(sentence: string, place: string, fits: (asked: A) => boolean): V | undefined {
  const variants = readings.get(sentence)?.get(place);
  if (!variants) return undefined;
  for (const v of variants) if (fits(v.asked as A)) return v.value as V;
  return undefined;
}

/** Remembers `value` for `sentence` read at `place`, with the answers it depended on. */
export function remember<A, V>(sentence: string, place: string, asked: A, value: V): void {
  scheduleForget();
  let places = readings.get(sentence);
  if (!places) {
    if (readingsSize >= MAX_SENTENCES) {
      readings = new Map();
      readingsSize = 0;
    }
    places = new Map();
    readings.set(sentence, places);
    readingsSize++;
  }
  let variants = places.get(place);
  if (!variants) {
    variants = [];
    places.set(place, variants);
  }
  if (variants.length >= MAX_VARIANTS) variants.shift();
  variants.push({ asked: asked as unknown as unknown[], value });
}

/**
 * `compute()` for `text` in `table`, remembered until the event loop turns; the table and the text must hold
 * everything the value depends on. Keys are the texts themselves, not strings built from them: hashing a long
 * description again for every lookup cost more than the lookup saved.
 */
export function once<V>(table: string, text: string, compute: () => V): V {
  let values = byText.get(table);
  if (values === undefined) {
    values = new Map();
    byText.set(table, values);
  }
  const known = values.get(text);
  if (known !== undefined) return known as V;
  scheduleForget();
  const value = compute();
  if (byTextSize >= MAX_SENTENCES * 4) {
    values = new Map();
    byText = new Map([[table, values]]);
    byTextSize = 0;
  }
  values.set(text, value);
  byTextSize++;
  return value;
}
