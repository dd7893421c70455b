/**
 * Reading one blob of `PostgresRoutingStore` into one buffer, on the store's thread or in its blob reader thread
 * (pg-blob-worker.ts): the chunks arrive in any order and are checked against the blob's head (`BlobAssembly`); they
 * come by `COPY … TO STDOUT (FORMAT binary)` (raw bytes, `readBlobByCopy`) or, where the driver cannot run COPY, as
 * base64 text (`readBlobAsBase64`). See the module comment of postgres.ts for the measured difference.
 */
import { createHash } from "node:crypto";
import type { PgPoolLike } from "./pg-driver.js";

/** Chunks a `getBlob` fetches at once (each on its own pooled connection): PostgreSQL reads one while Node takes in another. */
export const BLOB_READ_PARALLEL = 2;

/**
 * Bytes per row of a `COPY` read (`readBlobByCopy`): a stored chunk (8 MiB by default) comes as slices of this size.
 * The driver assembles each protocol message in a buffer it grows by doubling: a whole chunk per message means tens
 * of MiB of fresh buffers per chunk, whose first writes cost more than the copy on some machines (a 110 MB blob read
 * in 1.0–1.4 s as 256 KiB–1 MiB slices against 1.5–2.0 s as 8 MiB rows, dev runs on one machine). PostgreSQL fetches
 * only the part of a value a `substring` needs when the column is stored uncompressed (`STORAGE EXTERNAL`, as the
 * store creates it).
 */
export const COPY_SLICE_BYTES = 1024 * 1024;

/** A stored blob that fails a check against its head: reported, never returned, and no reason to change read path. */
export class BlobDamagedError extends Error {}

/**
 * Waits for every fetch of a blob, then throws the first failure (damage before anything else). Unlike Promise.all,
 * no fetch is still writing into the blob's buffer when the caller retries on another path.
 */
async function settleAll(fetches: Promise<void>[]): Promise<void> {
  const failures = (await Promise.allSettled(fetches)).filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as unknown);
  if (failures.length > 0) throw failures.find((e) => e instanceof BlobDamagedError) ?? failures[0];
}

/**
 * One blob being read: chunks arrive in any order and are copied to their place in one buffer of the head's length,
 * each checked against the head (position, length, once); the sha256 runs over them in order as they complete.
 */
export class BlobAssembly {
  /** allocUnsafeSlow: a buffer of its own (never a slice of the shared pool), so byteOffset 0 and typed views align. */
  readonly out: Buffer;
  private done: boolean[] = [];
  /** Per chunk being read in slices: the offset its next slice must start at. */
  private sliceAt = new Map<number, number>();
  private hashed = 0;
  private hash = createHash("sha256");

  constructor(
    readonly key: string,
    readonly chunks: number,
    readonly chunkBytes: number,
    readonly total: number,
  ) {
    if (!(chunkBytes > 0) || !(total >= 0) || !Number.isInteger(chunks) || chunks !== Math.ceil(total / chunkBytes))
      throw this.damaged(`its head says ${chunks} chunks of ${chunkBytes} bytes for ${total} bytes`);
    this.out = Buffer.allocUnsafeSlow(total);
    this.reset();
  }

  damaged(what: string): BlobDamagedError {
    return new BlobDamagedError(`PostgresRoutingStore.getBlob: blob "${this.key}" is damaged (${what})`);
  }

  reset(): void {
    this.done = new Array<boolean>(this.chunks).fill(false);
    this.sliceAt.clear();
    this.hashed = 0;
    this.hash = createHash("sha256");
  }

  /** Offset of chunk `seq` holding `length` bytes; throws unless that is where the head puts it. */
  private slot(seq: number, length: number): number {
    if (!Number.isInteger(seq) || seq < 0 || seq >= this.chunks) throw this.damaged(`a chunk numbered ${seq}, of ${this.chunks}`);
    if (this.done[seq]) throw this.damaged(`chunk ${seq} came twice`);
    const off = seq * this.chunkBytes;
    const expected = Math.min(this.chunkBytes, this.total - off);
    if (length !== expected) throw this.damaged(`chunk ${seq} holds ${length} bytes, expected ${expected}`);
    return off;
  }

  /**
   * A slice of chunk `seq`, a chunk holding `length` bytes, starting at `at` within it. A chunk's slices arrive in
   * order and each starts where the previous one ended; the chunk counts once its last byte arrived.
   */
  putSlice(seq: number, length: number, at: number, bytes: Uint8Array): void {
    let off: number;
    if (at === 0) off = this.slot(seq, length);
    else {
      if (this.sliceAt.get(seq) !== at) throw this.damaged(`chunk ${seq} came with a slice at byte ${at}, expected ${this.sliceAt.get(seq) ?? 0}`);
      off = seq * this.chunkBytes;
    }
    const end = at + bytes.byteLength;
    if (end > length || (bytes.byteLength === 0 && length > 0)) throw this.damaged(`chunk ${seq} came with a slice of ${bytes.byteLength} bytes at byte ${at} of ${length}`);
    this.out.set(bytes, off + at);
    if (end < length) this.sliceAt.set(seq, end);
    else {
      this.sliceAt.delete(seq);
      this.filled(seq);
    }
  }

  putBase64(seq: number, length: number, b64: string): void {
    const off = this.slot(seq, length);
    // Decodes in place; the decoder skips the newlines PostgreSQL puts in base64.
    const wrote = this.out.write(b64, off, length, "base64");
    if (wrote !== length) throw this.damaged(`chunk ${seq} decoded to ${wrote} bytes, expected ${length}`);
    this.filled(seq);
  }

  private filled(seq: number): void {
    this.done[seq] = true;
    // Hash in order as the chunks complete, while other fetches are on the wire.
    for (; this.hashed < this.chunks && this.done[this.hashed]; this.hashed++) {
      const off = this.hashed * this.chunkBytes;
      this.hash.update(this.out.subarray(off, Math.min(this.total, off + this.chunkBytes)));
    }
  }

  /** The blob, once every chunk arrived and the digest matches the head's. */
  finish(sha256: string): Buffer {
    const missing = this.done.indexOf(false);
    if (missing >= 0) throw this.damaged(`chunk ${missing} of ${this.chunks} is missing`);
    const digest = this.hash.digest("hex");
    if (digest !== sha256) throw this.damaged(`sha256 ${digest}, its head says ${sha256}`);
    return this.out;
  }
}

/**
 * The portable path of reading a blob: each chunk as base64 text (`encode(data, 'base64')`), decoded into place.
 * `table` is the quoted `schema.blob_chunks`.
 */
export async function readBlobAsBase64(pool: PgPoolLike, table: string, blob: BlobAssembly): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < blob.chunks) {
      const seq = next++;
      const c = await pool.query(
        `SELECT octet_length(data) AS n, encode(data, 'base64') AS b64 FROM ${table} WHERE key = $1 AND seq = $2`,
        [blob.key, seq],
      );
      const row = c.rows[0];
      // A missing row is reported by finish().
      if (row) blob.putBase64(seq, Number(row.n), row.b64 as string);
    }
  };
  const stopOnError = (err: unknown) => {
    next = blob.chunks;
    throw err;
  };
  await settleAll(Array.from({ length: Math.min(BLOB_READ_PARALLEL, blob.chunks) }, () => worker().catch(stopOnError)));
}

/**
 * The fast path of reading a blob: each chunk by `COPY … TO STDOUT (FORMAT binary)`, its bytes copied straight into
 * the blob. `table` is the quoted `schema.blob_chunks`. Runs on the store's thread or in its blob reader thread.
 */
export async function readBlobByCopy(pool: PgPoolLike, table: string, blob: BlobAssembly): Promise<void> {
  let next = 0;
  const reader = async () => {
    const client = await pool.connect();
    let broken: unknown;
    try {
      // pg's JavaScript Client hands a Submittable its protocol connection; pg-native runs Submittables differently
      // (and would fail outside this call), other drivers not at all.
      if (typeof (client as { connection?: { query?: unknown } }).connection?.query !== "function")
        throw new Error("the pool's clients are not pg's JavaScript Client");
      while (next < blob.chunks) {
        const seq = next++;
        // COPY takes no parameters: the key is inlined, safe because BLOB_KEY_PATTERN admits no quote or backslash.
        // One row per slice (see COPY_SLICE_BYTES), each with the chunk's length; an empty chunk still gives a row.
        const slice = COPY_SLICE_BYTES;
        const copy = new CopyOutQuery(
          `COPY (SELECT seq, octet_length(data), o, substring(data from o + 1 for ${slice}) FROM ${table}, ` +
            `generate_series(0, ${Math.max(0, blob.chunkBytes - 1)}, ${slice}) AS o ` +
            `WHERE key = '${blob.key}' AND seq = ${seq} AND o < greatest(octet_length(data), 1) ORDER BY o) TO STDOUT (FORMAT binary)`,
          (fields) => {
            if (fields.length !== 4 || fields[0]?.length !== 4 || fields[1]?.length !== 4 || fields[2]?.length !== 4 || !fields[3])
              throw blob.damaged(`chunk ${seq} came back as an unexpected COPY row`);
            blob.putSlice(fields[0].readInt32BE(0), fields[1].readInt32BE(0), fields[2].readInt32BE(0), fields[3]);
          },
        );
        const returned = (client.query as unknown as (query: CopyOutQuery) => unknown)(copy);
        // pg returns the submittable itself; anything else (a promise) is a client that does not run it.
        if (returned !== copy) {
          (returned as Promise<unknown> | undefined)?.catch?.(() => undefined);
          throw new Error("the pool's client does not run pg Submittable queries");
        }
        await copy.done;
      }
    } catch (err) {
      broken = err;
      next = blob.chunks; // the other reader takes no further chunk
      throw err;
    } finally {
      client.release(broken ? true : undefined);
    }
  };
  await settleAll(Array.from({ length: Math.min(BLOB_READ_PARALLEL, blob.chunks) }, reader));
}

/**
 * `COPY … TO STDOUT (FORMAT binary)` as a pg Submittable (the interface pg-cursor and pg-copy-streams use:
 * `client.query(submittable)` calls `submit(connection)` and then the `handle*` methods as messages arrive). The
 * protocol sends one CopyData message per row; the first also carries the binary format's header, the last one is
 * the trailer. Fields are handed over as views of pg's receive buffer, valid during the call only.
 */
class CopyOutQuery {
  readonly done: Promise<void>;
  private settle!: (err?: unknown) => void;
  private failed: unknown;
  private settled = false;
  private headerSeen = false;

  constructor(
    readonly text: string,
    private readonly onRow: (fields: (Buffer | null)[]) => void,
  ) {
    this.done = new Promise<void>((resolve, reject) => {
      this.settle = (err) => {
        if (this.settled) return;
        this.settled = true;
        if (err) reject(err);
        else resolve();
      };
    });
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyData(msg: { chunk: Buffer }): void {
    if (this.failed) return;
    try {
      const b = msg.chunk;
      let p = 0;
      if (!this.headerSeen) {
        // "PGCOPY\n\xff\r\n\0", int32 flags, int32 length of the header extension, the extension.
        if (b.length < 19 || b.toString("latin1", 0, 11) !== "PGCOPY\n\xff\r\n\0") throw new Error("COPY: not a binary COPY stream");
        p = 19 + b.readUInt32BE(15);
        this.headerSeen = true;
      }
      const n = b.readInt16BE(p);
      p += 2;
      if (n === -1) return; // the trailer
      const fields: (Buffer | null)[] = [];
      for (let i = 0; i < n; i++) {
        const len = b.readInt32BE(p);
        p += 4;
        if (len === -1) fields.push(null);
        else {
          if (p + len > b.length) throw new Error("COPY: a field runs past its row");
          fields.push(b.subarray(p, p + len));
          p += len;
        }
      }
      this.onRow(fields);
    } catch (err) {
      // Reported once the server is done with the statement (ReadyForQuery), so the connection stays usable.
      this.failed = err;
    }
  }

  handleError(err: unknown): void {
    // Immediately: a dropped connection sends no ReadyForQuery.
    this.settle(err);
  }

  handleReadyForQuery(): void {
    this.settle(this.failed);
  }

  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
}
