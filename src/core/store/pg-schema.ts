/**
 * The tables of `PostgresRoutingStore` (see the module comment of postgres.ts for what each holds and why), created
 * in one transaction on first use. Processes starting together serialize on an advisory lock, since concurrent
 * `CREATE … IF NOT EXISTS` can still collide in PostgreSQL's catalogs.
 */
import { lockKeyOf, type PgPoolLike } from "./pg-driver.js";

/** A schema name the store accepts: lower-case letters, digits and `_` (it is quoted into query text). */
export const SCHEMA_IDENT = /^[a-z_][a-z0-9_]{0,40}$/;

/** Creates the schema and its tables when missing; the error names the schema and says what failed. */
export async function createSchema(pool: PgPoolLike, schema: string): Promise<void> {
  const q = `"${schema}"`;
  const client = await pool.connect();
  let failed: unknown;
  try {
    // Concurrent CREATE … IF NOT EXISTS can still collide in the catalogs; one process creates, the others wait.
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [lockKeyOf(`tool-attention schema ${schema}`)]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${q}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${q}.embeddings (
         model_id text NOT NULL,
         text_hash text NOT NULL,
         text text NOT NULL,
         dim int NOT NULL,
         vector bytea NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (model_id, text_hash))`,
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${q}.catalog_versions (
         catalog text NOT NULL,
         version bigint NOT NULL,
         digest text NOT NULL,
         tools int NOT NULL,
         snapshot json NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (catalog, version))`,
    );
    // SET STORAGE only when creating: ALTER TABLE takes an exclusive lock, which every process start would
    // otherwise queue behind running blob reads.
    const chunksExist = await client.query(`SELECT to_regclass($1) AS t`, [`${q}.blob_chunks`]);
    if (!chunksExist.rows[0]?.t) {
      await client.query(
        `CREATE TABLE ${q}.blob_chunks (
           key text NOT NULL,
           seq int NOT NULL,
           data bytea NOT NULL,
           PRIMARY KEY (key, seq))`,
      );
      await client.query(`ALTER TABLE ${q}.blob_chunks ALTER COLUMN data SET STORAGE EXTERNAL`);
    }
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${q}.blob_heads (
         key text PRIMARY KEY,
         chunks int NOT NULL,
         chunk_bytes int NOT NULL,
         bytes bigint NOT NULL,
         sha256 text NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now())`,
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${q}.blob_uses (
         key text PRIMARY KEY,
         used_at timestamptz NOT NULL DEFAULT now())`,
    );
    await client.query("COMMIT");
  } catch (err) {
    failed = err;
    await client.query("ROLLBACK").catch(() => undefined);
    throw new Error(`PostgresRoutingStore: cannot create the tables in schema "${schema}": ${(err as Error)?.message ?? err}`, { cause: err });
  } finally {
    client.release(failed ? true : undefined);
  }
}
