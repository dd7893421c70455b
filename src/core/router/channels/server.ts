/**
 * Server channel: routes to servers and to tools together. A server is scored by the cosine of the query with
 * its centroid (the normalized mean of its tools' unit whole-text vectors: no extra embedding), and each tool gets its
 * server's score, relative to the best server's, added with a weight:
 *
 *   server(tool) = weight · (cos(q, centroid(tool.server)) − max_s cos(q, centroid(s)))
 *
 * so the best server's tools keep their score (θ keeps its meaning) and a tool of a server the query is not about
 * needs more evidence of its own. A catalog with one server is unaffected. Why: many MCP tools are short and
 * generic ("list_items", "create_record"); which service the request is about is often clearer from the whole
 * server than from the one tool.
 */
import type { ToolRecord } from "../../types.js";

/** Options of the server channel. */
export interface ServerChannelOptions {
  /** Weight of the server score (see the module comment). Default 0.15 (measured on the dev sets, see docs/routing.md, Round 2). 0 turns it off. */
  weight?: number;
}

export const DEFAULT_SERVER_WEIGHT = 0.15;

/** The built channel: one normalized centroid row per server and the server row of each tool. */
export class ServerChannel {
  /** Per-server scores of one query (scratch, reused). */
  private readonly byServer: Float32Array;

  private constructor(
    /** servers × dim, row-major, each row unit length (a zero row for a server whose tools have no vector). */
    private readonly centroids: Float32Array,
    private readonly dim: number,
    /** Row of each tool's server in `centroids`. */
    readonly serverOf: Int32Array,
    readonly servers: readonly string[],
  ) {
    this.byServer = new Float32Array(servers.length);
  }

  /**
   * Builds the centroids from the tools' dense rows (same order as `tools`): an array, or a reader of row i (a loaded
   * index's rows, read once each without being kept); undefined for a catalog with fewer than two servers, where
   * the channel cannot tell tools apart.
   */
  static build(tools: readonly ToolRecord[], rows: readonly ArrayLike<number>[] | ((i: number) => ArrayLike<number>), dim: number): ServerChannel | undefined {
    const servers: string[] = [];
    const row = new Map<string, number>();
    const serverOf = new Int32Array(tools.length);
    tools.forEach((t, i) => {
      let r = row.get(t.server);
      if (r === undefined) {
        r = servers.length;
        row.set(t.server, r);
        servers.push(t.server);
      }
      serverOf[i] = r;
    });
    if (servers.length < 2) return undefined;
    const centroids = new Float32Array(servers.length * dim);
    // Each row counts at unit length, as the index stores it: a process that loaded the index from a snapshot
    // (normalized rows only) builds the same centroids as one that embedded the catalog.
    const rowAt = typeof rows === "function" ? rows : (i: number) => rows[i]!;
    for (let i = 0; i < tools.length; i++) {
      const v = rowAt(i);
      const off = serverOf[i]! * dim;
      let norm = 0;
      for (let d = 0; d < dim; d++) norm += v[d]! * v[d]!;
      const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
      for (let d = 0; d < dim; d++) centroids[off + d] += v[d]! * inv;
    }
    // The centroid's direction is what is compared.
    for (let s = 0, off = 0; s < servers.length; s++, off += dim) {
      let norm = 0;
      for (let d = 0; d < dim; d++) norm += centroids[off + d]! * centroids[off + d]!;
      const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
      for (let d = 0; d < dim; d++) centroids[off + d] *= inv;
    }
    return new ServerChannel(centroids, dim, serverOf, servers);
  }

  /** Cosine of the query (any length) with server s's centroid, given the query's inverse norm. */
  private score(query: ArrayLike<number>, inv: number, s: number): number {
    const c = this.centroids;
    const dim = this.dim;
    let dot = 0;
    for (let d = 0, off = s * dim; d < dim; d++) dot += c[off + d]! * query[d]!;
    return dot * inv;
  }

  private static inverseNorm(query: ArrayLike<number>): number {
    let norm = 0;
    for (let d = 0; d < query.length; d++) norm += query[d]! * query[d]!;
    return norm > 0 ? 1 / Math.sqrt(norm) : 0;
  }

  /** Adds `weight · (server score − best server score)` to every tool's score. */
  addTo(scores: Float32Array, query: ArrayLike<number>, weight: number): void {
    const inv = ServerChannel.inverseNorm(query);
    const byServer = this.byServer;
    let best = Number.NEGATIVE_INFINITY;
    for (let s = 0; s < byServer.length; s++) if ((byServer[s] = this.score(query, inv, s)) > best) best = byServer[s]!;
    const serverOf = this.serverOf;
    for (let i = 0; i < scores.length; i++) scores[i] += weight * (byServer[serverOf[i]!]! - best);
  }

  /**
   * The approximate path's `addTo`: only the candidate tools `ids` get the term, and only their servers are
   * scored, the best of those being the reference. A 100,000-tool catalog has thousands of servers; scoring them
   * all would cost more than the HNSW search. The best server is the one of the best tools, and those are
   * candidates, so the reference is the same in practice.
   */
  addToCandidates(scores: Float32Array, query: ArrayLike<number>, weight: number, ids: ArrayLike<number>): void {
    const inv = ServerChannel.inverseNorm(query);
    const serverOf = this.serverOf;
    const byServer = this.byServer;
    // NaN marks a server not scored yet for this query.
    for (let j = 0; j < ids.length; j++) byServer[serverOf[ids[j]!]!] = Number.NaN;
    let best = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < ids.length; j++) {
      const s = serverOf[ids[j]!]!;
      if (!Number.isNaN(byServer[s]!)) continue;
      const sc = (byServer[s] = this.score(query, inv, s));
      if (sc > best) best = sc;
    }
    for (let j = 0; j < ids.length; j++) {
      const i = ids[j]!;
      scores[i] += weight * (byServer[serverOf[i]!]! - best);
    }
  }
}
