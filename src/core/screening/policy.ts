/**
 * What a finding does: quarantine the tool (left out of the catalog), warn (kept and reported), or allow (dropped).
 * Configurable per category and per server (a trusted server's findings are allowed). Validated when the catalog
 * is built, so a typo in a category or an action fails at start-up with the accepted values, not silently later.
 */
import { isScreeningCategory, SCREENING_CATEGORIES, type ScreeningCategory } from "./categories.js";
import { DEFAULT_SCREENING_THRESHOLD } from "./screen.js";

export type ScreeningAction = "quarantine" | "warn" | "allow";
export const SCREENING_ACTIONS: readonly ScreeningAction[] = ["quarantine", "warn", "allow"];

export type CategoryPolicy = Partial<Record<ScreeningCategory, ScreeningAction>>;

export interface ScreeningPolicy {
  /** Action per category; categories not listed quarantine. Example: `{ "tool-choice": "warn" }`. */
  categories?: CategoryPolicy;
  /**
   * Per server: `"trusted"` allows every finding of that server's tools (they are still screened and listed in
   * `catalog.findings` with action "allow"), or a category policy that overrides `categories` for that server.
   */
  servers?: Record<string, "trusted" | CategoryPolicy>;
  /** Score in (0, 1] at which a finding counts. Default `DEFAULT_SCREENING_THRESHOLD`. */
  threshold?: number;
}

export interface ResolvedScreeningPolicy {
  threshold: number;
  actionFor(server: string, category: ScreeningCategory): ScreeningAction;
}

const list = (xs: readonly string[]) => xs.map((x) => `"${x}"`).join(", ");

function checkCategoryPolicy(value: unknown, where: string): CategoryPolicy {
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new Error(`Option "${where}" must be an object mapping categories to actions, e.g. { "tool-choice": "warn" }`);
  for (const [category, action] of Object.entries(value)) {
    if (!isScreeningCategory(category)) throw new Error(`Option "${where}" names category "${category}", which does not exist; the categories are ${list(SCREENING_CATEGORIES)}`);
    if (!SCREENING_ACTIONS.includes(action as ScreeningAction))
      throw new Error(`Option "${where}.${category}" is ${JSON.stringify(action)}; use one of ${list(SCREENING_ACTIONS)}`);
  }
  return value as CategoryPolicy;
}

/** Validates a policy and returns its lookup. Errors name the option and list what is accepted. */
export function resolveScreeningPolicy(policy: ScreeningPolicy | undefined, where = "screening"): ResolvedScreeningPolicy {
  const p = policy ?? {};
  const categories = p.categories === undefined ? {} : checkCategoryPolicy(p.categories, `${where}.categories`);
  const servers = new Map<string, "trusted" | CategoryPolicy>();
  if (p.servers !== undefined) {
    if (!p.servers || typeof p.servers !== "object" || Array.isArray(p.servers))
      throw new Error(`Option "${where}.servers" must be an object keyed by server name, e.g. { "my-server": "trusted" }`);
    for (const [server, value] of Object.entries(p.servers)) {
      if (value === "trusted") servers.set(server, value);
      else if (typeof value === "string") throw new Error(`Option "${where}.servers.${server}" is "${value}"; use "trusted" or an object mapping categories to actions`);
      else servers.set(server, checkCategoryPolicy(value, `${where}.servers.${server}`));
    }
  }
  const threshold = p.threshold ?? DEFAULT_SCREENING_THRESHOLD;
  if (typeof threshold !== "number" || !(threshold > 0 && threshold <= 1))
    throw new Error(`Option "${where}.threshold" is ${JSON.stringify(p.threshold)}; use a number in (0, 1] (default ${DEFAULT_SCREENING_THRESHOLD})`);
  return {
    threshold,
    actionFor(server, category) {
      const own = servers.get(server);
      if (own === "trusted") return "allow";
      return own?.[category] ?? categories[category] ?? "quarantine";
    },
  };
}

/** The servers a policy names, to check them against the catalog. */
export function policyServers(policy: ScreeningPolicy | undefined): string[] {
  return policy?.servers && typeof policy.servers === "object" ? Object.keys(policy.servers) : [];
}
