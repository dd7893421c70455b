/**
 * A small seeded PRNG (mulberry32) so generated data (the synthetic testbed, the cost replay's tool results) is
 * byte-for-byte reproducible on any Node version: Math.random cannot be seeded, and the generator must not depend
 * on a library's algorithm changing.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The generator's whole state (a uint32): `setState` of it continues the same sequence. */
  getState(): number {
    return this.state;
  }

  /** Restores a state read with `getState` (e.g. from a serialized index whose later draws must not change). */
  setState(state: number): void {
    if (!Number.isInteger(state) || state < 0 || state > 0xffffffff) throw new Error(`Rng.setState: state must be a uint32, got ${state}`);
    this.state = state;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("Rng.pick: empty list");
    return items[Math.floor(this.next() * items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** `n` distinct items in random order (all of them when n ≥ length). */
  sample<T>(items: readonly T[], n: number): T[] {
    return this.shuffle(items).slice(0, n);
  }
}

/** Derives an independent seed for a named sub-stream, so adding draws in one part leaves the others unchanged. */
export function subSeed(seed: number, label: string): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
