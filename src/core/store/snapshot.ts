/**
 * Catalog snapshots: a `ToolCatalog` as JSON (the shared catalog file format) that another process can rebuild the
 * same catalog from, and the digest that says whether two catalogs are the same.
 *
 * What is left out, and why: function preconditions (code cannot be stored; a following process passes them again
 * through `catalogOptions.preconditions`) and the framework objects behind tools (`catalog.sourceOf`: each process
 * has its own live MCP or LangChain tools; a rebuilt catalog takes them over from the process's current catalog by
 * server and name).
 */
import { createHash } from "node:crypto";
import { ToolCatalog, type CatalogEntry, type CatalogOptions } from "../catalog/catalog.js";
import type { DeclarativePreconditions, ToolRecord, ToolSpec } from "../types.js";
import { TimeSlices } from "../util/time-slices.js";
import type { CatalogSnapshot } from "./types.js";

/** JSON with object keys sorted at every level, so equal values give equal text (and digest). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, sortedKeys);
}

/**
 * The replacer of `canonicalJson`: an object whose keys are out of order is copied in sorted order; one already in
 * order (most schema nodes) is returned as it is, which spares a copy per node on large catalogs.
 */
function sortedKeys(_key: string, v: unknown): unknown {
  if (!v || typeof v !== "object" || Array.isArray(v)) return v;
  const keys = Object.keys(v);
  let ordered = true;
  for (let i = 1; i < keys.length && ordered; i++) ordered = keys[i - 1]! <= keys[i]!;
  if (ordered) return v;
  keys.sort();
  const copy: Record<string, unknown> = {};
  for (const k of keys) copy[k] = (v as Record<string, unknown>)[k];
  return copy;
}

/** sha256 (hex) of a snapshot's canonical JSON. */
export function snapshotDigest(snapshot: CatalogSnapshot): string {
  return createHash("sha256").update(canonicalJson(snapshot)).digest("hex");
}

const catalogDigests = new WeakMap<ToolCatalog, string>();
const pendingDigests = new WeakMap<ToolCatalog, Promise<string>>();
const catalogFingerprints = new WeakMap<ToolCatalog, string>();
const pendingFingerprints = new WeakMap<ToolCatalog, Promise<string>>();

/**
 * The text of `canonicalJson(catalogSnapshotOf(catalog))` in pieces, tool by tool: { servers: [{ description?,
 * name, tools }] } with its keys in sorted order.
 */
function* canonicalPieces(catalog: ToolCatalog): Generator<string> {
  yield '{"servers":[';
  let i = 0;
  for (const server of catalogSnapshotOf(catalog).servers) {
    const description = server.description === undefined ? "" : `"description":${JSON.stringify(server.description)},`;
    yield `${i++ > 0 ? "," : ""}{${description}"name":${JSON.stringify(server.name)},"tools":[`;
    let j = 0;
    for (const tool of server.tools) yield j++ > 0 ? `,${canonicalJson(tool)}` : canonicalJson(tool);
    yield "]}";
  }
  yield "]}";
}

/**
 * The pieces of `catalogFingerprint`: per server its name and description as a JSON array, then each tool's spec
 * as JSON with its keys in the order they are. JSON values are self-delimiting, so the sequence reads back one way.
 */
function* plainPieces(catalog: ToolCatalog): Generator<string> {
  yield "fingerprint-1";
  for (const server of catalogSnapshotOf(catalog).servers) {
    yield JSON.stringify([server.name, server.description ?? null, server.tools.length]);
    for (const tool of server.tools) yield JSON.stringify(tool);
  }
}

/**
 * sha256 (hex) of the pieces in slices of about 10 ms with the event loop served between them, kept in `done` per
 * catalog object: one computation however many callers ask.
 */
function hashInSlices(
  catalog: ToolCatalog,
  done: WeakMap<ToolCatalog, string>,
  pending: WeakMap<ToolCatalog, Promise<string>>,
  pieces: (catalog: ToolCatalog) => Iterable<string>,
): Promise<string> {
  const known = done.get(catalog);
  if (known !== undefined) return Promise.resolve(known);
  let running = pending.get(catalog);
  if (!running) {
    running = (async () => {
      const h = createHash("sha256");
      const slices = new TimeSlices();
      for (const piece of pieces(catalog)) {
        h.update(piece);
        if (slices.due) await slices.pause();
      }
      const digest = h.digest("hex");
      done.set(catalog, digest);
      return digest;
    })();
    pending.set(catalog, running);
    void running.finally(() => pending.delete(catalog)).catch(() => undefined);
  }
  return running;
}

/**
 * `snapshotDigest(catalogSnapshotOf(catalog))` without building the snapshot's whole text: the same canonical JSON
 * goes into the hash tool by tool (the text of a 100,000-tool catalog is about 200 MB). Kept per catalog object,
 * so publishing the same catalog again costs nothing.
 */
export function catalogDigest(catalog: ToolCatalog): string {
  let digest = catalogDigests.get(catalog);
  if (digest !== undefined) return digest;
  const h = createHash("sha256");
  for (const piece of canonicalPieces(catalog)) h.update(piece);
  digest = h.digest("hex");
  catalogDigests.set(catalog, digest);
  return digest;
}

/**
 * `catalogDigest` in slices of about 10 ms with the event loop served between them: on a large catalog the digest
 * takes seconds, which the router overlaps with reading its index snapshots instead of blocking the host's thread.
 * One computation per catalog object however many callers ask.
 */
export function catalogDigestAsync(catalog: ToolCatalog): Promise<string> {
  return hashInSlices(catalog, catalogDigests, pendingDigests, canonicalPieces);
}

/**
 * A cheaper identity of a catalog's snapshot than its digest: sha256 of each tool's JSON with object keys in the
 * order they are, where the digest sorts them (a `JSON.stringify` replacer, about half of the digest's time on
 * large catalogs). Equal fingerprints mean equal snapshots, hence equal digests; the converse does not hold (the
 * same schemas with keys in another order give another fingerprint). It names the store's memo of a catalog's
 * digest (`digestMemoKey`), so the processes of a deployment, which build the same catalog the same way, compute
 * the canonical digest once. Sliced like `catalogDigestAsync` and kept per catalog object.
 */
export function catalogFingerprintAsync(catalog: ToolCatalog): Promise<string> {
  return hashInSlices(catalog, catalogFingerprints, pendingFingerprints, plainPieces);
}

/** The blob key under which a store keeps the digest of the catalogs with this fingerprint. */
export function digestMemoKey(fingerprint: string): string {
  return `catalog-digest-${fingerprint}`;
}

/** Where a catalog's digest can be remembered between processes (a store's blobs). */
export interface DigestMemo {
  get(key: string): Promise<Uint8Array | undefined>;
  put(key: string, bytes: Uint8Array): Promise<void>;
}

const DIGEST_HEX = /^[0-9a-f]{64}$/;

/**
 * `catalogDigestAsync`, read from `memo` when a process already computed it for a catalog with the same
 * fingerprint, and written there otherwise. A memo that fails or holds something else than a digest is reported
 * through `onMemoError` and the digest is computed; nothing else depends on the memo.
 */
export async function catalogDigestThrough(catalog: ToolCatalog, memo: DigestMemo | undefined, onMemoError: (message: string) => void = () => {}): Promise<string> {
  const known = catalogDigests.get(catalog);
  if (known !== undefined || !memo) return known ?? catalogDigestAsync(catalog);
  const key = digestMemoKey(await catalogFingerprintAsync(catalog));
  try {
    const bytes = await memo.get(key);
    if (bytes) {
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
      if (DIGEST_HEX.test(text)) {
        if (!catalogDigests.has(catalog)) catalogDigests.set(catalog, text);
        return catalogDigests.get(catalog)!;
      }
      onMemoError(`the catalog digest memo ${key} holds ${bytes.byteLength} bytes that are not a sha256 in hex; computing the digest`);
    }
  } catch (err) {
    onMemoError(`could not read the catalog digest memo ${key} (${(err as Error).message}); computing the digest`);
  }
  const digest = await catalogDigestAsync(catalog);
  try {
    await memo.put(key, Buffer.from(digest, "latin1"));
  } catch (err) {
    onMemoError(`could not keep the catalog digest memo ${key} (${(err as Error).message})`);
  }
  return digest;
}

/** A digest a caller passes to `publishCatalog`, checked; computed from the snapshot when none is given. */
export function digestFor(where: string, snapshot: CatalogSnapshot, digest: string | undefined): string {
  if (digest === undefined) return snapshotDigest(snapshot);
  if (typeof digest !== "string" || !/^[0-9a-f]{64}$/.test(digest))
    throw new Error(`${where}: digest must be the snapshot's sha256 as 64 lowercase hex digits (snapshotDigest(snapshot)); got ${JSON.stringify(digest)}`);
  return digest;
}

/**
 * The declarative preconditions of a tool as one object. Several objects all have to hold: their scopes and
 * milestones are unions (all required either way); `afterTool` is kept from the first object that has one.
 */
function declarativeOf(tool: ToolRecord): DeclarativePreconditions | undefined {
  const objects = tool.preconditions.filter((p): p is DeclarativePreconditions => typeof p === "object" && p !== null);
  if (objects.length === 0) return undefined;
  if (objects.length === 1) return objects[0];
  const scopes = new Set<string>();
  const milestones = new Set<string>();
  let afterTool: DeclarativePreconditions["afterTool"];
  for (const p of objects) {
    for (const s of p.requiresScopes ?? []) scopes.add(s);
    for (const m of p.milestone === undefined ? [] : Array.isArray(p.milestone) ? p.milestone : [p.milestone]) milestones.add(m);
    afterTool ??= p.afterTool;
  }
  return {
    ...(scopes.size ? { requiresScopes: [...scopes] } : {}),
    ...(afterTool !== undefined ? { afterTool } : {}),
    ...(milestones.size ? { milestone: [...milestones] } : {}),
  };
}

/** The snapshot of a catalog: servers in catalog order with their descriptions, each with its tools in order. */
export function catalogSnapshotOf(catalog: ToolCatalog): CatalogSnapshot {
  const byServer = new Map<string, ToolSpec[]>();
  for (const server of catalog.servers.keys()) byServer.set(server, []);
  for (const t of catalog.tools) {
    const spec: ToolSpec = { name: t.name, description: t.description };
    if (t.inputSchema) spec.inputSchema = t.inputSchema;
    if (t.outputSchema) spec.outputSchema = t.outputSchema;
    if (t.annotations) spec.annotations = t.annotations;
    if (t.tags.length) spec.tags = [...t.tags];
    const pre = declarativeOf(t);
    if (pre) spec.preconditions = pre;
    let list = byServer.get(t.server);
    if (!list) byServer.set(t.server, (list = []));
    list.push(spec);
  }
  return {
    servers: [...byServer].map(([name, tools]) => {
      const description = catalog.servers.get(name);
      return description === undefined ? { name, tools } : { name, description, tools };
    }),
  };
}

/**
 * Rebuilds a catalog from a snapshot. Tools that `previous` has under the same server and name keep its framework
 * object (`sourceOf`), so a process following another's catalog change can still bind the tools it already has.
 */
export function catalogFromSnapshot(snapshot: CatalogSnapshot, options: CatalogOptions = {}, previous?: ToolCatalog): ToolCatalog {
  if (!snapshot || typeof snapshot !== "object" || !Array.isArray(snapshot.servers))
    throw new Error(`Invalid catalog snapshot: field "servers" must be an array of {"name", "tools"}`);
  const sources = new Map<string, unknown>();
  if (previous) for (const t of previous.tools) sources.set(`${t.server}\0${t.name}`, previous.sourceOf(t.id));
  const entries: CatalogEntry[] = [];
  const descriptions = new Map<string, string | undefined>();
  snapshot.servers.forEach((server, i) => {
    if (!server || typeof server.name !== "string" || !Array.isArray(server.tools))
      throw new Error(`Invalid catalog snapshot: servers[${i}] needs a string "name" and a "tools" array`);
    descriptions.set(server.name, typeof server.description === "string" ? server.description : undefined);
    for (const spec of server.tools) {
      const source = sources.get(`${server.name}\0${spec?.name}`);
      entries.push(source === undefined ? { server: server.name, spec } : { server: server.name, spec, source });
    }
  });
  return new ToolCatalog(entries, options, descriptions);
}
