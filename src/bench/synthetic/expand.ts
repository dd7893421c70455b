/**
 * Larger catalogs for scaling runs: the Table 2 testbed plus more servers of the same six kinds, as a big
 * organization would connect them — other code hosts, chat tools, trackers, databases, drives and search
 * providers, and several deployments of each (regions, business units, staging). Each added server is a
 * rebranded copy of its domain's base server: distinct tool names (`gitlab_eu_create_issue`), descriptions
 * that name the product and deployment, schemas of the same size, and preconditions rewritten to the new
 * names (scopes are per server; `afterTool` points at the same server's tool).
 */
import type { CatalogFile } from "../../core/catalog/catalog.js";
import type { DeclarativePreconditions, ToolSpec } from "../../core/types.js";
import { DEFAULT_SEED, generateCatalog } from "./generate.js";
import { Rng, subSeed } from "./prng.js";

interface Product {
  slug: string;
  display: string;
}

interface DomainVariants {
  /** Brand words of the base server replaced by the product's display name. */
  brand: RegExp;
  /** Prefix the base server's tool names carry (stripped before the product prefix is added). */
  prefix: string;
  products: Product[];
}

const p = (slug: string, display: string): Product => ({ slug, display });

/** Keyed by base server name. */
const VARIANTS: Record<string, DomainVariants> = {
  github: { brand: /GitHub/g, prefix: "", products: [p("gitlab", "GitLab"), p("bitbucket", "Bitbucket"), p("gitea", "Gitea"), p("azure_repos", "Azure Repos"), p("codeberg", "Codeberg"), p("gerrit", "Gerrit"), p("sourcehut", "SourceHut")] },
  filesystem: { brand: /\ballowed directories\b/g, prefix: "", products: [p("shared_drive", "shared drive"), p("nas", "NAS volume"), p("gdrive", "Google Drive mirror"), p("onedrive", "OneDrive mirror"), p("dropbox", "Dropbox folder"), p("build_cache", "build cache volume"), p("home", "home directory")] },
  database: { brand: /PostgreSQL/g, prefix: "", products: [p("mysql", "MySQL"), p("mariadb", "MariaDB"), p("sqlserver", "SQL Server"), p("cockroach", "CockroachDB"), p("snowflake", "Snowflake"), p("redshift", "Redshift"), p("timescale", "TimescaleDB"), p("oracle", "Oracle")] },
  slack: { brand: /Slack/g, prefix: "slack_", products: [p("teams", "Microsoft Teams"), p("discord", "Discord"), p("mattermost", "Mattermost"), p("rocketchat", "Rocket.Chat"), p("zulip", "Zulip"), p("webex", "Webex"), p("gchat", "Google Chat")] },
  web: { brand: /\bthe web\b/g, prefix: "", products: [p("brave", "Brave Search"), p("bing", "Bing"), p("duckduckgo", "DuckDuckGo"), p("kagi", "Kagi"), p("tavily", "Tavily"), p("exa", "Exa"), p("searxng", "SearXNG")] },
  jira: { brand: /Jira/g, prefix: "jira_", products: [p("linear", "Linear"), p("youtrack", "YouTrack"), p("asana", "Asana"), p("clickup", "ClickUp"), p("shortcut", "Shortcut"), p("azure_boards", "Azure Boards"), p("redmine", "Redmine")] },
};

/** Deployments a product may be connected several times for. */
const DEPLOYMENTS = [
  "eu", "us", "apac", "staging", "internal", "legacy", "sandbox", "partner", "research", "finance", "platform", "mobile",
  "data", "security", "marketing", "support", "retail", "payments", "growth", "infra", "qa", "archive", "labs", "ops",
];

function rewritePreconditions(pre: DeclarativePreconditions | undefined, slug: string, rename: (n: string) => string): DeclarativePreconditions | undefined {
  if (!pre) return undefined;
  const out: DeclarativePreconditions = {};
  if (pre.requiresScopes) out.requiresScopes = pre.requiresScopes.map((s) => `${slug}/${s}`);
  if (pre.afterTool !== undefined) out.afterTool = Array.isArray(pre.afterTool) ? pre.afterTool.map(rename) : rename(pre.afterTool);
  if (pre.milestone !== undefined) out.milestone = pre.milestone;
  return out;
}

/**
 * A catalog of exactly `n` tools (n ≥ 1): the calibrated testbed first (so n = 120 is the testbed itself),
 * then one more server per domain per round, the last one cut to fit. Deterministic for (n, seed).
 */
export function expandCatalog(n: number, seed = DEFAULT_SEED): CatalogFile {
  if (!Number.isInteger(n) || n < 1) throw new Error(`expandCatalog: n must be a positive integer, got ${n}`);
  const base = generateCatalog(seed);
  const rng = new Rng(subSeed(seed, "expand"));
  const orders = new Map(Object.entries(VARIANTS).map(([k, v]) => [k, rng.shuffle(v.products)]));
  const deployments = rng.shuffle(DEPLOYMENTS);
  const servers: CatalogFile["servers"] = [];
  let remaining = n;
  for (let round = 0; remaining > 0; round++) {
    for (const server of base.servers) {
      if (remaining <= 0) break;
      if (round === 0) {
        const tools = server.tools.slice(0, remaining);
        servers.push({ ...server, tools });
        remaining -= tools.length;
        continue;
      }
      const variants = VARIANTS[server.name];
      if (!variants) throw new Error(`expandCatalog: no variants for server "${server.name}"`);
      const products = orders.get(server.name) as Product[];
      const product = products[(round - 1) % products.length];
      const d = Math.floor((round - 1) / products.length);
      // Past the product list, the same products come back as further deployments (eu, staging, …).
      const deployment = d === 0 ? "" : d <= deployments.length ? deployments[d - 1] : `site${d}`;
      const slug = deployment ? `${product.slug}_${deployment}` : product.slug;
      const display = deployment ? `${product.display} (${deployment})` : product.display;
      const rename = (name: string) => `${slug}_${name.startsWith(variants.prefix) ? name.slice(variants.prefix.length) : name}`;
      const brand = (text: string) => text.replace(variants.brand, product.display);
      const tools: ToolSpec[] = server.tools.slice(0, remaining).map((t) => {
        const tool: ToolSpec = {
          name: rename(t.name),
          description: `${brand(t.description ?? "")} Connected to ${display}.`,
          inputSchema: JSON.parse(JSON.stringify(t.inputSchema ?? {}).replace(variants.brand, product.display)),
        };
        if (t.annotations) tool.annotations = t.annotations;
        if (t.tags) tool.tags = [...t.tags, product.slug];
        const pre = rewritePreconditions(t.preconditions, slug, rename);
        if (pre) tool.preconditions = pre;
        return tool;
      });
      servers.push({ name: slug, description: `${brand(server.description ?? "")} — ${display}`, tools });
      remaining -= tools.length;
    }
  }
  return { servers };
}
