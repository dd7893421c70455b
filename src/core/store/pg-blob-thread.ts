/**
 * Reading a large blob of `PostgresRoutingStore` in a worker thread (`pg-blob-worker.ts`). The index snapshots of a
 * 100,000-tool catalog are 116 MB (HNSW) and 42 MB (BM25); receiving them through the protocol parser, copying the
 * chunks into place and hashing them takes most of a second of CPU, which on the calling thread would block the host's
 * event loop and delay the router's own start-up work (its catalog digest, the channels) instead of running beside it.
 */
import { BlobDamagedError } from "./pg-blob-read.js";
import { startModuleWorker } from "../util/module-worker.js";

/** What the reader thread gets (`workerData`): where the blob is and what its head says. */
export interface BlobReadRequest {
  connectionString: string;
  /** The quoted `schema.blob_chunks`. */
  table: string;
  key: string;
  chunks: number;
  chunkBytes: number;
  bytes: number;
  sha256: string;
}

/** The reader thread's one message: the blob's bytes (transferred), or why it failed. */
export type BlobReadReply = { ok: true; buffer: ArrayBuffer } | { ok: false; message: string; damaged: boolean };

const LABEL = "PostgresRoutingStore (blob reader thread)";

/**
 * The blob's bytes, read and checked in a worker thread. Rejects with a `BlobDamagedError` when the chunks do not
 * match the head, and with another error when the thread or its connections fail (callers can read on their own
 * thread then). `live` holds the thread while it runs, so that closing the store can stop it.
 */
export function readBlobInThread(request: BlobReadRequest, live: Set<{ terminate(): Promise<number> }>): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    let worker: ReturnType<typeof startModuleWorker>;
    try {
      worker = startModuleWorker(import.meta.url, "pg-blob-worker", LABEL, { workerData: request });
    } catch (err) {
      reject(err);
      return;
    }
    live.add(worker);
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      live.delete(worker);
      fn();
      void worker.terminate().catch(() => undefined);
    };
    worker.once("message", (reply: BlobReadReply) =>
      settle(() => {
        if (reply.ok) resolve(Buffer.from(reply.buffer));
        else reject(reply.damaged ? new BlobDamagedError(reply.message) : new Error(`${LABEL}: ${reply.message}`));
      }),
    );
    worker.once("error", (err: Error) => settle(() => reject(new Error(`${LABEL}: ${err?.message ?? err}`, { cause: err }))));
    worker.once("exit", (code) => settle(() => reject(new Error(`${LABEL}: the thread stopped (exit code ${code}) before the blob "${request.key}" was read`))));
  });
}
