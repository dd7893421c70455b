/**
 * Lazy Phase-2 schema loading. Full schemas are only needed for the few tools active in a turn, so they are
 * fetched on demand and kept in a small LRU keyed by tool id. Sources are tried in order:
 * the catalog's inline schema, a registry directory of `<id>.json` files, then an async fetcher
 * (e.g. a live MCP server's `tools/list`).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ToolCatalog } from "../catalog/catalog.js";
import type { JsonSchema, ToolRecord } from "../types.js";

/** What the model is shown for one tool in Phase 2 (the MCP tool shape). */
export interface FullToolSchema {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/** Fetches full schemas for several tools at once; may return only some of them. */
export type SchemaFetcher = (tools: readonly ToolRecord[]) => Promise<Record<string, JsonSchema | undefined>>;

export interface SchemaLoaderOptions {
  /** Directory holding `<tool id>.json` (an input schema, or an object with `inputSchema`). */
  registryDir?: string;
  /** Async source tried last, keyed by tool id in its answer. */
  fetcher?: SchemaFetcher;
  /** LRU capacity (tools). Default 256. */
  capacity?: number;
}

const EMPTY_OBJECT_SCHEMA: JsonSchema = Object.freeze({ type: "object", properties: {} }) as JsonSchema;

export class LazySchemaLoader {
  readonly stats = { hits: 0, loads: 0 };
  private readonly lru = new Map<string, FullToolSchema>();
  private readonly capacity: number;

  constructor(
    private catalog: ToolCatalog,
    private readonly options: SchemaLoaderOptions = {},
  ) {
    this.capacity = Math.max(1, options.capacity ?? 256);
  }

  /** Full schema of one tool; throws an error naming the tool and the sources tried when none has it. */
  async get(id: string): Promise<FullToolSchema> {
    return (await this.getMany([id]))[0];
  }

  /** Full schemas of several tools, in the order asked, loading the misses in one batch per source. */
  async getMany(ids: readonly string[]): Promise<FullToolSchema[]> {
    const out = new Array<FullToolSchema | undefined>(ids.length);
    const missing: ToolRecord[] = [];
    ids.forEach((id, i) => {
      const hit = this.lru.get(id);
      if (hit) {
        this.stats.hits++;
        this.lru.delete(id);
        this.lru.set(id, hit); // refresh recency
        out[i] = hit;
        return;
      }
      const record = this.catalog.getById(id) ?? this.previous?.getById(id);
      if (!record) throw new Error(`Unknown tool id "${id}": not in the catalog`);
      missing.push(record);
    });
    if (missing.length > 0) {
      const loaded = await this.load(missing);
      ids.forEach((id, i) => {
        if (!out[i]) out[i] = loaded.get(id);
      });
    }
    return out as FullToolSchema[];
  }

  /** Drops cached schemas (all, or the given ids), e.g. when a server announces that its tools changed. */
  invalidate(ids?: readonly string[]): void {
    if (!ids) this.lru.clear();
    else for (const id of ids) this.lru.delete(id);
  }

  /** Serves a new catalog (after tools were added, changed or removed); drops the cached schemas of `stale` ids. */
  replaceCatalog(catalog: ToolCatalog, stale: readonly string[]): void {
    // A route that started before the swap may still ask for a tool that just left; it resolves one generation back.
    this.previous = this.catalog;
    this.catalog = catalog;
    this.invalidate(stale);
  }

  private previous?: ToolCatalog;

  private async load(records: ToolRecord[]): Promise<Map<string, FullToolSchema>> {
    const found = new Map<string, JsonSchema>();
    let pending = records.filter((r) => {
      if (r.inputSchema) found.set(r.id, r.inputSchema);
      return !r.inputSchema;
    });
    const tried = ["catalog"];
    if (pending.length > 0 && this.options.registryDir) {
      tried.push(`registry ${this.options.registryDir}`);
      await Promise.all(pending.map(async (r) => {
        const schema = await this.readRegistry(r.id);
        if (schema) found.set(r.id, schema);
      }));
      pending = pending.filter((r) => !found.has(r.id));
    }
    if (pending.length > 0 && this.options.fetcher) {
      tried.push("fetcher");
      const fetched = await this.options.fetcher(pending);
      for (const r of pending) {
        const s = fetched[r.id];
        if (s && typeof s === "object") found.set(r.id, s);
      }
      pending = pending.filter((r) => !found.has(r.id));
    }
    const result = new Map<string, FullToolSchema>();
    for (const r of records) {
      let schema = found.get(r.id);
      if (!schema) {
        // A tool declared without any schema takes no arguments; only a configured source that fails is an error.
        if (tried.length === 1) schema = EMPTY_OBJECT_SCHEMA;
        else throw new Error(`No schema for tool "${r.id}" (server "${r.server}"); tried ${tried.join(", ")}`);
      }
      // A schema the catalog holds gets the same object every time it is loaded again after the LRU dropped it, so
      // what is computed per schema object (a route's token count of its active tools) is computed once.
      const full: FullToolSchema = r.inputSchema === schema ? this.localFull(r) : { name: r.name, description: r.description, inputSchema: schema };
      this.stats.loads++;
      this.lru.set(r.id, full);
      if (this.lru.size > this.capacity) this.lru.delete(this.lru.keys().next().value as string);
      result.set(r.id, full);
    }
    return result;
  }

  private readonly localFulls = new WeakMap<ToolRecord, FullToolSchema>();
  /** The full schema of a tool whose schema the catalog holds, one object per catalog record. */
  private localFull(r: ToolRecord): FullToolSchema {
    let full = this.localFulls.get(r);
    if (!full) this.localFulls.set(r, (full = { name: r.name, description: r.description, inputSchema: r.inputSchema as JsonSchema }));
    return full;
  }

  private async readRegistry(id: string): Promise<JsonSchema | undefined> {
    const file = join(this.options.registryDir as string, `${encodeURIComponent(id)}.json`);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch {
      return undefined;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new Error(`Schema registry file ${file} for tool "${id}" is not valid JSON: ${(err as Error).message}`);
    }
    if (data && typeof data === "object" && !Array.isArray(data)) {
      const obj = data as Record<string, unknown>;
      const inner = obj.inputSchema;
      if (inner && typeof inner === "object" && !Array.isArray(inner)) return inner as JsonSchema;
      return obj as JsonSchema;
    }
    throw new Error(`Schema registry file ${file} for tool "${id}" must hold a JSON object`);
  }
}
