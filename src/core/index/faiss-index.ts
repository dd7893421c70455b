/**
 * faiss `IndexFlatIP` through the optional native module faiss-node. The module is loaded lazily (createRequire,
 * inside try/catch) and the outcome is cached, so importing this file never throws when faiss-node is absent.
 */
import { createRequire } from "node:module";
import { assertRowDims, copyNormalized, type SearchHit, type VectorIndex } from "./vector-index.js";

/** The part of faiss-node's API used here (it only accepts plain JS arrays, not typed arrays). */
interface FaissNativeIndex {
  ntotal(): number;
  getDimension(): number;
  add(x: number[]): void;
  search(x: number[], k: number): { distances: number[]; labels: number[] };
}

export interface FaissModule {
  IndexFlatIP: new (d: number) => FaissNativeIndex;
}

export type FaissLoadResult = { ok: true; module: FaissModule } | { ok: false; reason: string };

let cached: FaissLoadResult | undefined;

function shortReason(err: unknown): string {
  const e = err as { code?: string; message?: string } | undefined;
  const msg = String(e?.message ?? err);
  if (e?.code === "MODULE_NOT_FOUND" && /['"]faiss-node['"]/.test(msg)) {
    return "faiss-node is not installed; `npx tool-attention setup-faiss` builds it";
  }
  if (/Could not locate the bindings file/.test(msg)) {
    return "faiss-node native binary not built; `npx tool-attention setup-faiss` builds it";
  }
  const first = msg.split("\n")[0]!.trim();
  return first.length > 160 ? `${first.slice(0, 157)}...` : first;
}

/** Loads faiss-node once (and checks that a tiny IndexFlatIP works); later calls return the cached result. */
export function loadFaiss(): FaissLoadResult {
  if (cached) return cached;
  try {
    const require = createRequire(import.meta.url);
    const mod = require("faiss-node") as Partial<FaissModule>;
    if (typeof mod?.IndexFlatIP !== "function") throw new Error("faiss-node has no IndexFlatIP export");
    const probe = new mod.IndexFlatIP(2);
    probe.add([1, 0, 0, 1]);
    const r = probe.search([0.2, 0.9], 1);
    if (r.labels[0] !== 1) throw new Error(`faiss-node self-test returned ${JSON.stringify(r)}`);
    cached = { ok: true, module: mod as FaissModule };
  } catch (err) {
    cached = { ok: false, reason: shortReason(err) };
  }
  return cached;
}

/** Ranks (score desc, id asc). */
function byScoreThenId(a: SearchHit, b: SearchHit): number {
  return b.score - a.score || a.id - b.id;
}

export class FaissIndex implements VectorIndex {
  readonly kind = "faiss" as const;
  readonly dim: number;
  private readonly native: FaissNativeIndex;
  private count = 0;
  private readonly row: Float32Array;

  constructor(dim: number, faiss?: FaissModule) {
    if (!Number.isInteger(dim) || dim <= 0) throw new Error(`vector index: dim must be a positive integer, got ${dim}`);
    let mod = faiss;
    if (!mod) {
      const loaded = loadFaiss();
      if (!loaded.ok) throw new Error(`vector index: faiss-node is not loadable (${loaded.reason})`);
      mod = loaded.module;
    }
    this.dim = dim;
    this.native = new mod.IndexFlatIP(dim);
    this.row = new Float32Array(dim);
  }

  get size(): number {
    return this.count;
  }

  add(vectors: ArrayLike<number>[]): void {
    const dim = this.dim;
    assertRowDims(vectors, dim);
    if (vectors.length === 0) return;
    const flat: number[] = new Array(vectors.length * dim);
    for (let r = 0; r < vectors.length; r++) {
      copyNormalized(vectors[r]!, dim, this.row, `row ${r}`);
      const off = r * dim;
      for (let j = 0; j < dim; j++) flat[off + j] = this.row[j]!;
    }
    this.native.add(flat);
    this.count += vectors.length;
  }

  search(query: ArrayLike<number>, k: number): SearchHit[] {
    const q = this.prepareQuery(query);
    const n = this.count;
    const kk = Math.min(Math.floor(k), n);
    if (!(kk > 0)) return [];
    // faiss breaks ties arbitrarily. Ask for one more than k and widen until the last returned score is strictly
    // below the k-th one (or everything is returned): then every row tied with the k-th is present and the
    // (score desc, id asc) order is exact.
    let want = Math.min(n, kk + 1);
    for (;;) {
      const { distances, labels } = this.native.search(q, want);
      if (want === n || distances[want - 1]! < distances[kk - 1]!) {
        const hits: SearchHit[] = new Array(want);
        for (let i = 0; i < want; i++) hits[i] = { id: labels[i]!, score: distances[i]! };
        hits.sort(byScoreThenId);
        hits.length = kk;
        return hits;
      }
      want = Math.min(n, want * 2);
    }
  }

  scoreAll(query: ArrayLike<number>): Float32Array {
    const q = this.prepareQuery(query);
    const n = this.count;
    const out = new Float32Array(n);
    if (n === 0) return out;
    const { distances, labels } = this.native.search(q, n);
    for (let i = 0; i < n; i++) out[labels[i]!] = distances[i]!;
    return out;
  }

  private prepareQuery(query: ArrayLike<number>): number[] {
    copyNormalized(query, this.dim, this.row, "query");
    return Array.from(this.row);
  }
}
