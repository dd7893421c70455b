/**
 * Where the scaling sweep's N-tool catalogs come from: for the synthetic testbed, the generator's expansion
 * (`expandCatalog(n, seed)`: the testbed plus rebranded servers of the same kinds); for any other catalog given
 * to the bench, copies of it with renamed servers (`<server>_2`, …), which keeps schema sizes realistic but makes
 * routing harder than a real catalog (copies are near-duplicates). The report names which one was used.
 */
import { readFileSync } from "node:fs";
import type { CatalogFile } from "../core/catalog/catalog.js";
import { expandCatalog } from "./synthetic/expand.js";

export interface Expansion {
  expand: (n: number) => CatalogFile;
  description: string;
}

export const EXPANSION_SEED = 42;


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

export function loadExpansion(catalogPath: string, synthetic: boolean): Expansion {
  if (synthetic) return { expand: (n) => expandCatalog(n, EXPANSION_SEED), description: `synthetic expansion expandCatalog(N, ${EXPANSION_SEED})` };
  const base = JSON.parse(readFileSync(catalogPath, "utf8")) as CatalogFile;
  return { expand: (n) => replicateCatalog(base, n), description: `renamed copies of ${catalogPath}` };
}
