/**
 * Where the scaling sweep's N-tool catalogs come from: the synthetic generator's expansion
 * (`expandCatalog(n, seed)`) when this build has it, else copies of the benchmarked catalog with renamed
 * servers (`<server>_2`, …), which keeps schema sizes realistic but makes routing harder than a real catalog
 * (copies are near-duplicates). The report names which one was used.
 */
import { readFileSync } from "node:fs";
import type { CatalogFile } from "../core/catalog/catalog.js";

export interface Expansion {
  expand: (n: number) => CatalogFile;
  description: string;
}

export const EXPANSION_SEED = 42;

type ExpandFn = (n: number, seed?: number) => CatalogFile;

async function syntheticExpansion(): Promise<ExpandFn | undefined> {
  // Resolved at run time so the bench also runs in builds without the generator.
  for (const spec of ["./synthetic/expand.js", "./synthetic/index.js", "./synthetic/generate.js"]) {
    try {
      const mod = (await import(spec)) as { expandCatalog?: ExpandFn };
      if (typeof mod.expandCatalog === "function") return mod.expandCatalog;
    } catch {
      // not in this build
    }
  }
  return undefined;
}

/** Copies of a catalog's servers until it has n tools (the last copy cut short), in declared order. */
export function replicateCatalog(base: CatalogFile, n: number): CatalogFile {
  if (base.servers.every((s) => s.tools.length === 0)) throw new Error("replicateCatalog: the base catalog has no tools");
  const servers: CatalogFile["servers"] = [];
  let left = n;
  for (let copy = 1; left > 0; copy++) {
    for (const s of base.servers) {
      if (left <= 0) break;
      const tools = s.tools.slice(0, left);
      servers.push({ ...s, name: copy === 1 ? s.name : `${s.name}_${copy}`, tools });
      left -= tools.length;
    }
  }
  return { servers };
}

export async function loadExpansion(catalogPath: string): Promise<Expansion> {
  const expandCatalog = await syntheticExpansion();
  if (expandCatalog) return { expand: (n) => expandCatalog(n, EXPANSION_SEED), description: `synthetic expansion expandCatalog(N, ${EXPANSION_SEED})` };
  const base = JSON.parse(readFileSync(catalogPath, "utf8")) as CatalogFile;
  return { expand: (n) => replicateCatalog(base, n), description: `renamed copies of ${catalogPath} (the synthetic expansion is not in this build)` };
}
