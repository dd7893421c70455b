/**
 * Pinned tool definitions in the shared PostgreSQL store (`McpSessionOptions.pins.store`), for deployments where
 * several processes or hosts connect to the same MCP servers: an approval made by one of them (or by
 * `tool-attention audit --approve --pins-postgres URL`) holds for all.
 *
 * One table in the store's schema, `mcp_pins`: a row per (server key, tool) with the definition's hash and the
 * definition itself (JSON text: `\u0000` escapes survive, which `jsonb` would refuse). A server seen with no tools to
 * pin is recorded by a row with an empty tool name (no valid tool name is empty), so its later tools count as new.
 * Writes are upserts per tool, so two processes pinning different tools of one server never lose each other's pins.
 */
import type { Pin, PinBackend, PinnedDefinition } from "./pins.js";

/** What the pin backend needs of a `PostgresRoutingStore`: its pool and its schema. */
export interface PinPostgresStore {
  readonly kind: "postgres";
  readonly schema: string;
  connect(): Promise<{ query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }> }>;
}

/** Row name of "this server was seen" (no tool name is empty). */
const SEEN = "";

export class PostgresPins implements PinBackend {
  readonly where: string;
  private readonly table: string;
  private created?: Promise<void>;

  constructor(private readonly store: PinPostgresStore) {
    this.table = `"${store.schema}".mcp_pins`;
    this.where = `PostgreSQL ${store.schema}.mcp_pins`;
  }

  private async pool() {
    const pool = await this.store.connect().catch((err: Error) => {
      throw new Error(`Cannot reach the MCP pins in ${this.where}: ${err.message}`);
    });
    this.created ??= pool
      .query(
        `CREATE TABLE IF NOT EXISTS ${this.table} (
           server_key text NOT NULL,
           tool text NOT NULL,
           hash text NOT NULL,
           definition text NOT NULL,
           approved_at timestamptz NOT NULL DEFAULT now(),
           PRIMARY KEY (server_key, tool))`,
      )
      .then(
        () => undefined,
        (err: Error) => {
          this.created = undefined;
          throw new Error(`Cannot create the MCP pin table ${this.where}: ${err.message}`);
        },
      );
    await this.created;
    return pool;
  }

  async load(): Promise<Map<string, Map<string, Pin>>> {
    const pool = await this.pool();
    let rows: Record<string, unknown>[];
    try {
      ({ rows } = await pool.query(`SELECT server_key, tool, hash, definition FROM ${this.table}`));
    } catch (err) {
      throw new Error(`Cannot read the MCP pins in ${this.where}: ${(err as Error).message}`);
    }
    const out = new Map<string, Map<string, Pin>>();
    for (const r of rows) {
      const server = String(r.server_key);
      const pins = out.get(server) ?? new Map<string, Pin>();
      out.set(server, pins);
      if (r.tool === SEEN) continue;
      let definition: PinnedDefinition;
      try {
        definition = JSON.parse(String(r.definition)) as PinnedDefinition;
      } catch {
        // Pins are not guessed: a row that does not parse is an error naming it.
        throw new Error(`MCP pin of server key "${server}", tool "${String(r.tool)}" in ${this.where} is not valid JSON`);
      }
      pins.set(String(r.tool), { hash: String(r.hash), definition });
    }
    return out;
  }

  async save(entries: readonly (readonly [string, readonly Pin[]])[]): Promise<void> {
    const keys: string[] = [];
    const tools: string[] = [];
    const hashes: string[] = [];
    const definitions: string[] = [];
    const add = (key: string, tool: string, hash: string, definition: string) => {
      keys.push(key);
      tools.push(tool);
      hashes.push(hash);
      definitions.push(definition);
    };
    for (const [server, pins] of entries) {
      add(server, SEEN, "", "{}");
      for (const p of pins) add(server, p.definition.name, p.hash, JSON.stringify(p.definition));
    }
    const pool = await this.pool();
    try {
      // One statement: the rows of a rebuild land together or not at all. A later row for the same tool wins.
      await pool.query(
        `INSERT INTO ${this.table} AS p (server_key, tool, hash, definition)
         SELECT DISTINCT ON (k, t) k, t, h, d FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(k, t, h, d, n)
         ORDER BY k, t, n DESC
         ON CONFLICT (server_key, tool) DO UPDATE
           SET hash = EXCLUDED.hash, definition = EXCLUDED.definition, approved_at = now()
           WHERE p.tool <> ''`,
        [keys, tools, hashes, definitions],
      );
    } catch (err) {
      throw new Error(`Cannot write the MCP pins in ${this.where}: ${(err as Error).message}`);
    }
  }
}
