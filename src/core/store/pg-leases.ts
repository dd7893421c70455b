/**
 * Exactly-once embedding through PostgreSQL (`PostgresRoutingStore.embedThrough`; see the module comment of
 * postgres.ts): the rows a process needs are read; the missing texts are leased with session-level advisory locks,
 * `lockBatch` at a time, embedded and inserted under them; texts another process holds are waited for and taken over
 * when their lease frees without a row (the holder died).
 */
import { advisoryKey, bytesToVector, checkVectors, textKey, vectorToBytes } from "./codec.js";
import type { PgClientLike, PgPoolLike, PgStoreAccess } from "./pg-driver.js";
import type { EmbedFn, EmbedThroughResult } from "./types.js";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const chunks = <T>(xs: readonly T[], n: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
};

/** Settings of the embedding leases (see `PostgresRoutingStoreOptions`). */
export interface PgLeaseOptions {
  lockBatch: number;
  waitPollMs: number;
  waitTimeoutMs: number;
}

/** The embeddings table of a store, read and written under leases. */
export class PgEmbeddings {
  private readonly lockBatch: number;
  private readonly waitPollMs: number;
  private readonly waitTimeoutMs: number;

  constructor(
    private readonly store: PgStoreAccess,
    options: PgLeaseOptions,
  ) {
    ({ lockBatch: this.lockBatch, waitPollMs: this.waitPollMs, waitTimeoutMs: this.waitTimeoutMs } = options);
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

  private async fetch(db: PgPoolLike | PgClientLike, modelId: string, keys: readonly string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    for (const part of chunks(keys, 5000)) {
      const r = await db.query(`SELECT text_hash, vector FROM ${this.q}.embeddings WHERE model_id = $1 AND text_hash = ANY($2::text[])`, [modelId, part]);
      for (const row of r.rows) out.set(row.text_hash as string, bytesToVector(row.vector as Buffer, `vector of ${row.text_hash}`));
    }
    return out;
  }

  async getEmbeddings(modelId: string, texts: readonly string[]): Promise<Map<string, Float32Array>> {
    checkModelId("getEmbeddings", modelId);
    const pool = await this.connect();
    const keys = new Map(texts.map((t) => [textKey(modelId, t), t]));
    const rows = await this.fetch(pool, modelId, [...keys.keys()]);
    return new Map([...rows].map(([k, v]) => [keys.get(k)!, v]));
  }

  async embedThrough(modelId: string, texts: readonly string[], embed: EmbedFn): Promise<EmbedThroughResult> {
    checkModelId("embedThrough", modelId);
    const pool = await this.connect();
    const keyOf = texts.map((t) => textKey(modelId, t));
    const textOf = new Map<string, string>();
    keyOf.forEach((k, i) => textOf.set(k, texts[i]));
    const have = await this.fetch(pool, modelId, [...textOf.keys()]);
    let embedded = 0;
    let waited = 0;
    const missing = [...textOf.keys()].filter((k) => !have.has(k));
    if (missing.length > 0) {
      // One connection for the whole call: session advisory locks belong to it.
      const client = await pool.connect();
      let broken: unknown;
      try {
        let pending: string[] = [];
        for (const part of chunks(missing, this.lockBatch)) {
          const mine = await this.tryLock(client, part);
          pending.push(...part.filter((k) => !mine.has(k)));
          if (mine.size > 0) embedded += await this.embedLocked(client, modelId, [...mine], textOf, embed, have);
        }
        // Texts another process holds: wait for its rows; take over those whose lock frees without a row.
        const deadline = Date.now() + this.waitTimeoutMs;
        while (pending.length > 0) {
          const rows = await this.fetch(client, modelId, pending);
          for (const [k, v] of rows) have.set(k, v);
          waited += rows.size;
          pending = pending.filter((k) => !have.has(k));
          for (const part of chunks(pending, this.lockBatch)) {
            const mine = await this.tryLock(client, part);
            if (mine.size > 0) embedded += await this.embedLocked(client, modelId, [...mine], textOf, embed, have);
          }
          pending = pending.filter((k) => !have.has(k));
          if (pending.length === 0) break;
          if (this.closed) throw new Error("PostgresRoutingStore: the store was closed while waiting for another process's embeddings");
          if (Date.now() > deadline)
            throw new Error(
              `PostgresRoutingStore: waited ${this.waitTimeoutMs} ms (options.waitTimeoutMs) for ${pending.length} texts another process is embedding under model ${modelId}`,
            );
          await sleep(this.waitPollMs);
        }
      } catch (err) {
        broken = err;
        throw err;
      } finally {
        // Never hand a pooled connection back holding locks (embedLocked unlocks; this covers its failures).
        await client.query("SELECT pg_advisory_unlock_all()").catch((e) => (broken ??= e));
        client.release(broken ? true : undefined);
      }
    }
    return { vectors: keyOf.map((k) => have.get(k)!), embedded, waited };
  }

  /** Takes the advisory locks of these text hashes that are free; returns the hashes locked. */
  private async tryLock(client: PgClientLike, keys: readonly string[]): Promise<Set<string>> {
    const r = await client.query(
      "SELECT h FROM unnest($1::text[], $2::bigint[]) AS u(h, lk) WHERE pg_try_advisory_lock(lk)",
      [keys, keys.map(advisoryKey)],
    );
    return new Set(r.rows.map((row) => row.h as string));
  }

  /** Under the locks of `keys`: re-read, embed what is still missing, insert, unlock. Returns the texts embedded. */
  private async embedLocked(
    client: PgClientLike,
    modelId: string,
    keys: string[],
    textOf: Map<string, string>,
    embed: EmbedFn,
    have: Map<string, Float32Array>,
  ): Promise<number> {
    try {
      // The previous holder may have inserted between our read and our lock.
      const rows = await this.fetch(client, modelId, keys);
      for (const [k, v] of rows) have.set(k, v);
      const todo = keys.filter((k) => !rows.has(k));
      if (todo.length === 0) return 0;
      const vectors = checkVectors(modelId, await embed(todo.map((k) => textOf.get(k)!)), todo.length);
      const bytes = vectors.map((v) => vectorToBytes(v));
      await client.query(
        `INSERT INTO ${this.q}.embeddings (model_id, text_hash, text, dim, vector)
         SELECT $1, h, t, $4, v FROM unnest($2::text[], $3::text[], $5::bytea[]) AS u(h, t, v)
         ON CONFLICT (model_id, text_hash) DO NOTHING`,
        // The text column is for people reading the table; PostgreSQL refuses NUL in text, and one NUL would fail
        // the whole batch. The key (text_hash) is the hash of the text as given, so lookups are unchanged.
        [modelId, todo, todo.map((k) => textOf.get(k)!.replace(/\u0000/g, "")), vectors[0].length, bytes],
      );
      todo.forEach((k, i) => have.set(k, bytesToVector(bytes[i])));
      return todo.length;
    } finally {
      await client.query("SELECT pg_advisory_unlock(lk) FROM unnest($1::bigint[]) AS lk", [keys.map(advisoryKey)]);
    }
  }
}

function checkModelId(where: string, modelId: unknown): void {
  if (typeof modelId !== "string" || modelId === "") throw new Error(`PostgresRoutingStore.${where}: modelId must be a non-empty string`);
}
