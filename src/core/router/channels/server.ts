/**
 * Server channel: routes to servers and to tools together. A server is scored by the cosine of the query with
 * its centroid (the normalized mean of its tools' whole-text vectors: no extra embedding), and each tool gets its
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
import { createVectorIndex, type IndexPreference, type VectorIndex } from "../../index/vector-index.js";

/** Options of the server channel. */
export interface ServerChannelOptions {
  /** Weight of the server score (see the module comment). Default 0.15 (measured on the dev sets, see the README). 0 turns it off. */
  weight?: number;
}

export const DEFAULT_SERVER_WEIGHT = 0.15;

/** The built channel: one centroid row per server and the server row of each tool. */
export class ServerChannel {
  private constructor(
    readonly index: VectorIndex,
    /** Row of each tool's server in `index`. */
    readonly serverOf: Int32Array,
    readonly servers: readonly string[],
  ) {}

  /**
   * Builds the centroids from the tools' dense rows (same order as `tools`); undefined for a catalog with fewer
   * than two servers, where the channel cannot tell tools apart.
   */
  static async build(
    tools: readonly ToolRecord[],
    rows: readonly ArrayLike<number>[],
    dim: number,
    prefer: IndexPreference,
  ): Promise<ServerChannel | undefined> {
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
    const sums = servers.map(() => new Float32Array(dim));
    rows.forEach((v, i) => {
      const sum = sums[serverOf[i]];
      for (let d = 0; d < dim; d++) sum[d] += v[d];
    });
    // The index normalizes each row: the centroid's direction is what is compared.
    const index = await createVectorIndex(dim, prefer);
    index.add(sums);
    return new ServerChannel(index, serverOf, servers);
  }

  /** Adds `weight · (server score − best server score)` to every tool's score. */
  addTo(scores: Float32Array, query: ArrayLike<number>, weight: number): void {
    const byServer = this.index.scoreAll(query);
    let best = Number.NEGATIVE_INFINITY;
    for (let s = 0; s < byServer.length; s++) if (byServer[s] > best) best = byServer[s];
    const serverOf = this.serverOf;
    for (let i = 0; i < scores.length; i++) scores[i] += weight * (byServer[serverOf[i]] - best);
  }
}
