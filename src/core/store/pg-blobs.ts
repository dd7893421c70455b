/**
 * Blobs of `PostgresRoutingStore` (index snapshots and other large values; see the module comment of postgres.ts):
 * written in chunks under a per-key advisory lock with their head last, read through the head (large ones in a
 * worker thread, pg-blob-thread.ts; others by COPY or as base64, pg-blob-read.ts), their use marked, and the unused
 * ones pruned.
 */
import { BLOB_USE_MARK_MS, blobDigest, checkBlobBytes, checkBlobKey, checkUnusedForMs } from "./codec.js";
import { BlobAssembly, BlobDamagedError, readBlobAsBase64, readBlobByCopy } from "./pg-blob-read.js";
import { readBlobInThread } from "./pg-blob-thread.js";
import { lockKeyOf, type PgPoolLike, type PgStoreAccess } from "./pg-driver.js";
import type { PruneBlobsOptions, PruneBlobsResult } from "./types.js";

/** Settings of a store's blobs (see `PostgresRoutingStoreOptions`). */
export interface PgBlobOptions {
  /** Set when the store opens its own pool: a reader thread can open one from it too. */
  connectionString?: string;
  blobChunkBytes: number;
  blobThreadMinBytes: number;
  /** Blobs read in a reader thread and on the calling thread (the store's diagnostics object, counted here). */
  blobReads: { thread: number; calling: number };
}

export class PgBlobs {
  private readonly blobChunkBytes: number;
  private readonly blobThreadMinBytes: number;
  private readonly blobReads: { thread: number; calling: number };
  /** Large blobs are read in a thread until that fails once for want of support (see `getBlob`). */
  private blobThreads: boolean;
  /** Reader threads running, terminated by `close()`. */
  readonly readerThreads = new Set<{ terminate(): Promise<number> }>();
  /** Blobs are read by COPY until that fails once for want of support (see `getBlob`). */
  private copyBlobs = true;

  constructor(
    private readonly store: PgStoreAccess,
    private readonly options: PgBlobOptions,
  ) {
    this.blobChunkBytes = options.blobChunkBytes;
    this.blobThreadMinBytes = options.blobThreadMinBytes;
    this.blobReads = options.blobReads;
    this.blobThreads = this.blobThreadMinBytes > 0;
  }

  private get q(): string {
    return this.store.q;
  }

  private get closed(): boolean {
    return this.store.isClosed();
  }

  private connect(): Promise<PgPoolLike> {
    return this.store.connect();
  }

  private get schema(): string {
    return this.store.schema;
  }

  private warn(message: string): void {
    this.store.warn(message);
  }

  async getBlob(key: string): Promise<Uint8Array | undefined> {
    checkBlobKey("PostgresRoutingStore.getBlob", key);
    const pool = await this.connect();
    const r = await pool.query(`SELECT chunks, chunk_bytes, bytes, sha256 FROM ${this.q}.blob_heads WHERE key = $1`, [key]);
    const head = r.rows[0];
    if (!head) return undefined;
    // Runs beside the read; it never fails the read.
    void this.markBlobUsed(pool, key);
    const [chunks, chunkBytes, bytes] = [Number(head.chunks), Number(head.chunk_bytes), Number(head.bytes)];
    if (this.copyBlobs && this.blobThreads && this.options.connectionString !== undefined && bytes >= this.blobThreadMinBytes) {
      const request = { connectionString: this.options.connectionString, table: `${this.q}.blob_chunks`, key, chunks, chunkBytes, bytes, sha256: head.sha256 as string };
      try {
        const out = await readBlobInThread(request, this.readerThreads);
        this.blobReads.thread++;
        return out;
      } catch (err) {
        if (err instanceof BlobDamagedError || this.closed) throw err;
        // No thread here (a bundler that dropped the worker module, a sandbox without worker_threads): read on
        // this thread from now on. A database error shows again there, with its own message.
        this.blobThreads = false;
        this.warn(`[tool-attention] postgres store: ${(err as Error)?.message ?? err}; reading blobs on the calling thread`);
      }
    }
    this.blobReads.calling++;
    const blob = new BlobAssembly(key, chunks, chunkBytes, bytes);
    if (this.copyBlobs) {
      try {
        await readBlobByCopy(pool, `${this.q}.blob_chunks`, blob);
        return blob.finish(head.sha256 as string);
      } catch (err) {
        if (err instanceof BlobDamagedError) throw err;
        // COPY through pg's Submittable interface is unavailable (pg-native, pipeline mode, a pool that is not
        // pg's): the portable path from now on. A database error shows again there, with its own message.
        this.copyBlobs = false;
        this.warn(`[tool-attention] postgres store: blob read by COPY failed (${(err as Error)?.message ?? err}); reading blobs as base64 text`);
        blob.reset();
      }
    }
    await readBlobAsBase64(pool, `${this.q}.blob_chunks`, blob);
    return blob.finish(head.sha256 as string);
  }

  async putBlob(key: string, bytes: Uint8Array): Promise<void> {
    checkBlobKey("PostgresRoutingStore.putBlob", key);
    checkBlobBytes("PostgresRoutingStore.putBlob", key, bytes);
    const pool = await this.connect();
    // Already there: no transaction, no lock.
    if ((await pool.query(`SELECT 1 FROM ${this.q}.blob_heads WHERE key = $1`, [key])).rows.length > 0) {
      await this.markBlobUsed(pool, key);
      return;
    }
    const sha256 = blobDigest(bytes);
    const chunkBytes = this.blobChunkBytes;
    const chunks = Math.ceil(bytes.byteLength / chunkBytes);
    const client = await pool.connect();
    let broken: unknown;
    try {
      await client.query("BEGIN");
      // Serializes writers of one key: the second waits for the first to commit, then finds its head.
      await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [lockKeyOf(`tool-attention blob ${this.schema} ${key}`)]);
      if ((await client.query(`SELECT 1 FROM ${this.q}.blob_heads WHERE key = $1`, [key])).rows.length > 0) {
        await client.query("COMMIT");
        return;
      }
      // Chunks without a head are no blob (see the module comment): replace them.
      await client.query(`DELETE FROM ${this.q}.blob_chunks WHERE key = $1`, [key]);
      for (let seq = 0; seq < chunks; seq++) {
        const off = seq * chunkBytes;
        // A Buffer view, no copy: pg sends Buffer parameters as binary.
        const part = Buffer.from(bytes.buffer, bytes.byteOffset + off, Math.min(chunkBytes, bytes.byteLength - off));
        await client.query(`INSERT INTO ${this.q}.blob_chunks (key, seq, data) VALUES ($1, $2, $3)`, [key, seq, part]);
      }
      await client.query(
        `INSERT INTO ${this.q}.blob_heads (key, chunks, chunk_bytes, bytes, sha256) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key) DO NOTHING`,
        [key, chunks, chunkBytes, bytes.byteLength, sha256],
      );
      await client.query(
        `INSERT INTO ${this.q}.blob_uses (key, used_at) VALUES ($1, now()) ON CONFLICT (key) DO UPDATE SET used_at = now()`,
        [key],
      );
      await client.query("COMMIT");
    } catch (err) {
      broken = err;
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    } finally {
      client.release(broken ? true : undefined);
    }
  }

  /**
   * Records that a blob was used, unless that was recorded within the last hour. Failing to record it only makes
   * the blob look older to `pruneBlobs`: reported, never thrown.
   */
  private async markBlobUsed(pool: PgPoolLike, key: string): Promise<void> {
    try {
      await pool.query(
        `INSERT INTO ${this.q}.blob_uses (key, used_at) VALUES ($1, now())
         ON CONFLICT (key) DO UPDATE SET used_at = now()
         WHERE ${this.q}.blob_uses.used_at < now() - $2::double precision * interval '1 millisecond'`,
        [key, BLOB_USE_MARK_MS],
      );
    } catch (err) {
      if (!this.closed) this.warn(`[tool-attention] postgres store: could not mark blob "${key}" as used (${(err as Error)?.message ?? err})`);
    }
  }

  /**
   * Deletes the blobs unused for at least `unusedForMs` (see `RoutingStore.pruneBlobs`): each one's head, chunks and
   * use mark in one transaction, under the lock writers of that key take, and only if it is still unused then.
   */
  async pruneBlobs(options: PruneBlobsOptions): Promise<PruneBlobsResult> {
    // Past a century nothing is old enough; the cap keeps PostgreSQL's interval in range.
    const unusedForMs = Math.min(checkUnusedForMs("PostgresRoutingStore.pruneBlobs", options), 100 * 365.25 * 86_400_000);
    const pool = await this.connect();
    const stale = `COALESCE((SELECT u.used_at FROM ${this.q}.blob_uses u WHERE u.key = h.key), h.created_at) < now() - $1::double precision * interval '1 millisecond'`;
    const candidates = await pool.query(`SELECT h.key FROM ${this.q}.blob_heads h WHERE ${stale} ORDER BY h.key`, [unusedForMs]);
    const deleted: string[] = [];
    let bytes = 0;
    for (const row of candidates.rows) {
      const key = String(row.key);
      const client = await pool.connect();
      let broken: unknown;
      try {
        await client.query("BEGIN");
        await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [lockKeyOf(`tool-attention blob ${this.schema} ${key}`)]);
        // Checked again under the lock: a process may have used it since the list was made.
        const gone = await client.query(`DELETE FROM ${this.q}.blob_heads h WHERE h.key = $2 AND ${stale} RETURNING h.bytes`, [unusedForMs, key]);
        if (gone.rows.length > 0) {
          await client.query(`DELETE FROM ${this.q}.blob_chunks WHERE key = $1`, [key]);
          await client.query(`DELETE FROM ${this.q}.blob_uses WHERE key = $1`, [key]);
          deleted.push(key);
          bytes += Number(gone.rows[0]!.bytes);
        }
        await client.query("COMMIT");
      } catch (err) {
        broken = err;
        await client.query("ROLLBACK").catch(() => undefined);
        throw new Error(`PostgresRoutingStore.pruneBlobs: could not delete blob "${key}" (${(err as Error)?.message ?? err}); ${deleted.length} deleted before it`, { cause: err });
      } finally {
        client.release(broken ? true : undefined);
      }
    }
    return { deleted, bytes };
  }

  /** Stops the reader threads (the store is closing). */
  async close(): Promise<void> {
    for (const thread of this.readerThreads) await thread.terminate().catch(() => undefined);
  }
}
