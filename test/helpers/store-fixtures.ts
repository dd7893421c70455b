/** Shared by the store tests: a counting wrapper over the real USE-lite encoder, a hash encoder for store-only tests, catalogs. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Embeddings } from "@langchain/core/embeddings";
import { UseLiteEmbeddings } from "../../src/core/encoders/use-lite.js";
import { ToolCatalog } from "../../src/core/catalog/catalog.js";
import type { ToolSpec } from "../../src/core/types.js";
import { catalogSnapshotOf } from "../../src/core/store/snapshot.js";
import type { RoutingStore } from "../../src/core/store/types.js";

/** The real USE-lite encoder, counting the document texts it is asked to embed. */
export class CountingEmbeddings extends Embeddings {
  readonly inner = new UseLiteEmbeddings();
  texts: string[] = [];
  constructor(private readonly onEmbed?: (texts: string[]) => void) {
    super({});
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.texts.push(...texts);
    this.onEmbed?.(texts);
    return this.inner.embedDocuments(texts);
  }
  embedQuery(text: string): Promise<number[]> {
    return this.inner.embedQuery(text);
  }
}

/**
 * For store-only tests (no routing quality involved): an 8-d vector from a text's hash, with a call log. The
 * store's behaviour does not depend on what the vectors mean, and this keeps those tests fast.
 */
export function hashEmbed(log: string[][] = [], delayMs = 0) {
  const fn = async (texts: string[]): Promise<number[][]> => {
    log.push([...texts]);
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    return texts.map((t) => [...createHash("sha256").update(t).digest()].slice(0, 8).map((b) => b / 255 - 0.5));
  };
  return Object.assign(fn, { log });
}

export const tool = (name: string, description: string, properties: Record<string, unknown> = {}): ToolSpec => ({
  name,
  description,
  inputSchema: { type: "object", properties },
});

/** A small two-server catalog used by the router store tests. */
export function smallCatalog(extra: ToolSpec[] = []): ToolCatalog {
  return ToolCatalog.fromMcpTools({
    weather: [tool("get_forecast", "Get the weather forecast for a city.", { city: { type: "string" }, days: { type: "number" } }), tool("get_alerts", "Get severe weather alerts for a region.")],
    mail: [tool("send_email", "Send an email message to a recipient."), tool("list_inbox", "List the messages in the inbox."), ...extra],
  });
}

/** A synthetic catalog of `n` tools over `servers` servers with distinct descriptions. */
export function syntheticCatalogSpecs(n: number, servers = 10, salt = ""): Record<string, ToolSpec[]> {
  const verbs = ["get", "list", "create", "update", "delete", "search", "export", "sync", "archive", "share"];
  const nouns = ["invoice", "ticket", "customer", "order", "report", "repository", "calendar event", "message", "document", "deployment", "alert", "user", "project", "payment", "shipment"];
  const out: Record<string, ToolSpec[]> = {};
  for (let i = 0; i < n; i++) {
    const server = `svc${i % servers}`;
    const verb = verbs[i % verbs.length];
    const noun = nouns[Math.floor(i / verbs.length) % nouns.length];
    (out[server] ??= []).push(
      tool(`${verb}_${noun.replace(/ /g, "_")}_${i}`, `${verb[0].toUpperCase()}${verb.slice(1)} a ${noun} record number ${i} in the ${server} system${salt}.`, {
        id: { type: "string" },
      }),
    );
  }
  return out;
}

/**
 * What every store's `pruneCatalogVersions` does: keeps the latest `keep` versions of one catalog, numbering goes on
 * from the latest, other catalogs are untouched, a bad `keep` names the field.
 */
export async function pruneVersionsContract(store: RoutingStore): Promise<void> {
  const prune = store.pruneCatalogVersions!.bind(store);
  const snapshot = (i: number) => catalogSnapshotOf(smallCatalog([tool(`extra_${i}`, `Extra tool ${i}.`)]));
  for (let i = 1; i <= 4; i++) assert.equal((await store.publishCatalog("p", snapshot(i))).version, i);
  await store.publishCatalog("other", snapshot(1));
  assert.deepEqual(await prune("p", { keep: 2 }), { deleted: [1, 2] });
  assert.equal(await store.getCatalog("p", 1), undefined);
  assert.equal(await store.getCatalog("p", 2), undefined);
  assert.deepEqual((await store.getCatalog("p", 3))?.snapshot, snapshot(3));
  assert.equal((await store.latestCatalog("p"))?.version, 4);
  assert.deepEqual(await prune("p", { keep: 2 }), { deleted: [] }, "nothing more to delete");
  assert.equal((await store.publishCatalog("p", snapshot(5))).version, 5, "numbering goes on from the latest");
  assert.deepEqual(await prune("p", { keep: 1 }), { deleted: [3, 4] });
  assert.deepEqual((await store.latestCatalog("p"))?.snapshot, snapshot(5));
  assert.equal((await store.publishCatalog("p", snapshot(5))).created, false, "the kept latest version still dedupes");
  assert.ok(await store.getCatalog("other", 1), "another catalog is untouched");
  assert.deepEqual(await prune("none", { keep: 1 }), { deleted: [] });
  await assert.rejects(prune("p", { keep: 0 }), /pruneCatalogVersions: options\.keep must be an integer ≥ 1, the number of latest versions to keep \(got 0\)/);
  await assert.rejects(prune("p", { keep: 1.5 }), /options\.keep must be an integer ≥ 1/);
}
