/**
 * Building a catalog's scoring channels, all at once: lexical BM25, and with a dense encoder the whole-text index,
 * the multi-vector rows and the server centroids. They are built together and swapped together (one `Channels`
 * object), so a route never scores one catalog's index against another catalog's BM25.
 *
 * All dense texts go to the encoder in one call (only texts not embedded before); a large catalog's HNSW and BM25
 * indexes come from their snapshots when there are some (store/router-snapshots.ts).
 */
import type { ToolCatalog } from "../../catalog/catalog.js";
import type { ToolTextOptions } from "../../catalog/text.js";
import type { Bm25Index, Bm25Options } from "../../encoders/bm25.js";
import { denseTextsOf, textContextOf } from "../../encoders/dense-texts.js";
import type { RouterEncoder } from "../../encoders/router-encoder.js";
import type { HnswIndex } from "../../index/hnsw-index.js";
import { createVectorIndex, type IndexPreference, type VectorIndex } from "../../index/vector-index.js";
import type { RouterSnapshots } from "../../store/router-snapshots.js";
import type { RoutingChannel } from "../../types.js";
import type { RouterSettings } from "../options.js";
import { buildLexicalIndex } from "./lexical.js";
import { MultiVectorChannel, multiVectorRows } from "./multi-vector.js";
import { ServerChannel } from "./server.js";

/** The scoring channels of one catalog (see ./), built together and swapped together. */
export interface Channels {
  /** Whole-text dense rows, one per tool, in catalog order. */
  dense?: VectorIndex;
  multi?: MultiVectorChannel;
  server?: ServerChannel;
  lexical?: Bm25Index;
  /**
   * Set while `dense` holds static vectors of the tool texts (encoders/static-table.ts), the bridge of a progressive
   * build: scored like the dense channel against the encoder's query vector, but named "static", and on the lexical θ.
   * `texts`: the tool texts of the rows, in catalog order (a route reorders its best tools by their real vectors).
   */
  static?: { texts: readonly string[] };
}

/** What a channel build uses from its router. */
export interface ChannelBuildContext {
  settings: Pick<RouterSettings, "lexicalOnly" | "lexicalOptions" | "multiVector" | "serverWeight" | "ann">;
  encoder: RouterEncoder;
  snapshots: RouterSnapshots;
  /** `RouterOptions.toolText`. */
  toolText: ToolTextOptions | undefined;
  /** `RouterOptions.index`. */
  prefer: IndexPreference;
  /** The dimension of the channels in use (read when needed), for an empty catalog: no row tells it. */
  currentDim: () => number | undefined;
}

/** BM25 over a catalog's weighted tool fields. */
export function catalogLexicalIndex(catalog: ToolCatalog, options: Bm25Options, toolText: ToolTextOptions | undefined): Bm25Index {
  return buildLexicalIndex(catalog, options, toolText, (server) => textContextOf(catalog, server));
}

/** What one channel build may reuse and report (a progressive start's second half). */
export interface ChannelBuildRun {
  /** The catalog's BM25 index, built already (the lexical phase of a progressive start): not built again. */
  lexical?: Bm25Index;
  /** Hears how many dense texts have a vector so far, of how many; the missing texts are embedded in chunks. */
  progress?: (ready: number, total: number) => void;
}

/** The lexical channel of a catalog alone (what a progressive start routes on first), or undefined without one. */
export function buildLexicalChannel(catalog: ToolCatalog, cx: ChannelBuildContext): Promise<Bm25Index | undefined> {
  const lexicalOptions = cx.settings.lexicalOptions;
  if (!lexicalOptions) return Promise.resolve(undefined);
  return cx.snapshots.lexicalIndex(catalog, lexicalOptions, () => catalogLexicalIndex(catalog, lexicalOptions, cx.toolText));
}

/** The names of the channels a route scores on with `ch` (fusion order: dense ones first). */
export function channelNamesOf(ch: Channels): RoutingChannel[] {
  const out: RoutingChannel[] = [];
  if (ch.dense) out.push(ch.static ? "static" : "dense");
  if (ch.multi) out.push("multiVector");
  if (ch.server) out.push("server");
  if (ch.lexical) out.push("lexical");
  return out;
}

/** Builds every scoring channel of a catalog (see the module comment). */
export async function buildChannels(catalog: ToolCatalog, cx: ChannelBuildContext, run: ChannelBuildRun = {}): Promise<Channels> {
  const { settings, encoder, snapshots, toolText, prefer } = cx;
  const embeddings = encoder.embeddings;
  const dense = !settings.lexicalOnly && embeddings !== undefined;
  // A large catalog's BM25 and HNSW snapshots are read at the same time (a store reads large ones in a thread).
  const [lexical, snapshot] = await Promise.all([
    run.lexical ?? buildLexicalChannel(catalog, cx),
    // The HNSW index comes with its rows: nothing to embed, and the tool texts are not even made (the key hashes
    // their sources).
    dense && catalog.size > 0 ? snapshots.loadHnsw(catalog, prefer) : undefined,
  ]);
  if (!dense) return { lexical };
  const tools = catalog.tools;
  const mv = settings.multiVector;
  const rowsOfMv = mv && mv.weight > 0 && tools.length > 0 && tools.length <= mv.maxTools
    ? multiVectorRows(tools, toolText, (server) => textContextOf(catalog, server), mv.maxSentences)
    : undefined;
  let index: VectorIndex;
  let rows: ArrayLike<number>[] | ((i: number) => ArrayLike<number>);
  let extra: Float32Array[] = [];
  if (snapshot) {
    index = snapshot;
    // Read once each for the server centroids, without decoding a half-precision snapshot's rows into the index
    // (searches decode the rows they reach; see HnswIndex.fromBytes).
    const scratch = new Float32Array(snapshot.dim);
    rows = (i: number) => snapshot.readRow(i, scratch);
    if (rowsOfMv) extra = await encoder.embedTexts(rowsOfMv.texts);
    // The snapshot's rows serve a later catalog change as the encoder's vectors would (views: no copy), keyed by
    // their texts when that change comes (see RouterEncoder.embedTexts).
    if (!toolText?.fieldWeights) encoder.keepUnkeyedRows(catalog, (i) => snapshot.rowView(i));
  } else {
    const texts = denseTextsOf(catalog, toolText);
    const vectors = tools.length > 0 ? await encoder.embedTexts([...texts.texts, ...(rowsOfMv?.texts ?? [])], run.progress) : [];
    rows = texts.rowsOf(vectors.slice(0, texts.texts.length));
    extra = vectors.slice(texts.texts.length);
    if (rows.length !== tools.length) throw new Error(`Encoder ${encoder.denseModelId} returned ${rows.length} vectors for ${tools.length} tools`);
    const dim = rows[0]?.length || cx.currentDim() || (await embeddings.embedQuery("tool")).length;
    index = await createVectorIndex(dim, prefer, { rows: rows.length, ann: settings.ann });
    if (rows.length > 0) index.add(rows);
    if (index.kind === "hnsw") {
      const hnsw = index as HnswIndex;
      // The server centroids come from the rows as the index keeps them (half precision by default), as they do
      // in a process that loads this snapshot: every process scores alike.
      rows = tools.map((_, i) => hnsw.rowView(i));
      await snapshots.saveHnsw(catalog, hnsw);
    }
  }
  const dim = index.dim;
  let multi: MultiVectorChannel | undefined;
  if (rowsOfMv && rowsOfMv.texts.length > 0) {
    // Exact whatever its size (max-sim reads every row's score); faiss only when the rows are many enough to pay.
    const rowIndex = await createVectorIndex(dim, prefer, { rows: extra.length, ann: false });
    rowIndex.add(extra);
    multi = new MultiVectorChannel(rowIndex, rowsOfMv.owners, tools.length);
  }
  const server = settings.serverWeight > 0 ? ServerChannel.build(tools, rows, dim) : undefined;
  return { dense: index, multi, server, lexical };
}
