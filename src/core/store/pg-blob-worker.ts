/**
 * The blob reader thread of `PostgresRoutingStore` (started by `pg-blob-thread.ts`, one per large blob read): opens
 * its own small pool from the connection string, reads the blob's chunks by COPY into one buffer, checks them
 * against the head (positions, lengths, sha256) and hands the buffer back without a copy (transferred).
 */
import { parentPort, workerData } from "node:worker_threads";
import { BLOB_READ_PARALLEL, BlobAssembly, BlobDamagedError, readBlobByCopy } from "./pg-blob-read.js";
import { loadPg } from "./pg-driver.js";
import type { BlobReadRequest, BlobReadReply } from "./pg-blob-thread.js";

async function read(request: BlobReadRequest): Promise<ArrayBuffer> {
  const pg = await loadPg();
  const pool = new pg.Pool({ connectionString: request.connectionString, max: BLOB_READ_PARALLEL, allowExitOnIdle: true });
  // An idle connection's error would otherwise be an unhandled 'error' event in this thread.
  pool.on?.("error", () => undefined);
  try {
    const blob = new BlobAssembly(request.key, request.chunks, request.chunkBytes, request.bytes);
    await readBlobByCopy(pool, request.table, blob);
    const out = blob.finish(request.sha256);
    // allocUnsafeSlow: the buffer owns its ArrayBuffer whole, so it can be transferred as it is.
    return out.buffer as ArrayBuffer;
  } finally {
    await pool.end().catch(() => undefined);
  }
}

const port = parentPort;
if (port) {
  read(workerData as BlobReadRequest).then(
    (buffer) => port.postMessage({ ok: true, buffer } satisfies BlobReadReply, [buffer]),
    (err: unknown) =>
      port.postMessage({ ok: false, message: (err as Error)?.message ?? String(err), damaged: err instanceof BlobDamagedError } satisfies BlobReadReply),
  );
}
