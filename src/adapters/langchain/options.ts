/**
 * The adapters' options as checked tables (see `core/util/options.ts`): the createAgent middleware and the LangGraph
 * hooks refuse, at construction, a key they do not know and an enum value they cannot act on, naming the closest
 * valid one. `satisfies OptionKeys<…>` keeps each table equal to its options type.
 */
import { EXPECTED_COST_DEFAULTS, type ExpectedCostOptions } from "../../core/delivery/expected-cost.js";
import { DEFAULT_INTENT } from "../../core/router/intent.js";
import { checkRouterOptions, ROUTER_OPTION_KEYS } from "../../core/router/option-keys.js";
import { checkEnum, checkNested, type OptionKeys } from "../../core/util/options.js";
import type { DeferredOptions, StableOptions } from "../../core/delivery/plan.js";
import type { TagFilter } from "../../core/router/router.js";
import type { DeliveryOptions } from "./delivery.js";
import type { AdapterRouterOptions } from "./turn.js";

/** Every delivery option value (`DeliveryOption`). */
export const DELIVERY_OPTIONS = ["auto", "rebind", "stable", "deferred", "all"] as const;

const DELIVERY_OPTION_KEYS = {
  delivery: true,
  provider: true,
  stable: true,
  deferred: true,
  cacheBreakpoints: true,
  searchTool: true,
  guarantee: true,
  capabilities: true,
} as const satisfies OptionKeys<DeliveryOptions>;

export const ADAPTER_ROUTER_OPTION_KEYS = {
  ...ROUTER_OPTION_KEYS,
  tools: true,
  catalog: true,
  router: true,
  preconditions: true,
  onEvent: true,
  intent: true,
  sticky: true,
  promoteOnRequest: true,
  runValidCalls: true,
  tags: true,
  screening: true,
} as const satisfies OptionKeys<AdapterRouterOptions>;

/** Keys both adapters take (router, routing-turn and delivery options). */
export const SHARED_ADAPTER_KEYS = { ...ADAPTER_ROUTER_OPTION_KEYS, ...DELIVERY_OPTION_KEYS } as const;

const STABLE_KEYS = { addRank: true, maxBound: true } as const satisfies OptionKeys<StableOptions>;
const DEFERRED_KEYS = { perCall: true, select: true, cost: true } as const satisfies OptionKeys<DeferredOptions>;
const EXPECTED_COST_KEYS = Object.fromEntries(Object.keys(EXPECTED_COST_DEFAULTS).map((k) => [k, true])) as Record<keyof ExpectedCostOptions, true>;
const STICKY_KEYS = { turns: true, max: true } as const;
const TAG_KEYS = { only: true, boost: true } as const satisfies OptionKeys<TagFilter>;
const INTENT_KEYS = Object.fromEntries(Object.keys(DEFAULT_INTENT).map((k) => [k, true])) as Record<string, true>;

/** Checks an adapter's options: unknown keys (`known`), enums and the nested option objects. Throws naming the option. */
export function checkAdapterOptions(where: string, options: object, known: Readonly<Record<string, true>>): void {
  if (!options || typeof options !== "object") throw new Error(`${where}: expected an options object (got ${JSON.stringify(options)})`);
  checkRouterOptions(where, options, known);
  const o = options as AdapterRouterOptions & DeliveryOptions;
  checkEnum(where, "delivery", o.delivery, DELIVERY_OPTIONS);
  if (typeof o.provider === "string") checkEnum(where, "provider", o.provider, ["anthropic", "openai", "other"]);
  checkNested(where, "stable", o.stable, STABLE_KEYS);
  checkNested(where, "deferred", o.deferred, DEFERRED_KEYS);
  checkEnum(where, "deferred.select", o.deferred?.select, ["expected-cost", "top"]);
  checkNested(where, "deferred.cost", o.deferred?.cost, EXPECTED_COST_KEYS);
  for (const [key, value] of Object.entries(o.deferred?.cost ?? {}))
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || (key === "temperature" && value === 0) || (key === "poolRetryShare" && value > 1))
      throw new Error(`${where}: option "deferred.cost.${key}" must be a ${key === "poolRetryShare" ? "number from 0 to 1" : key === "temperature" ? "positive number" : "number ≥ 0"} (got ${JSON.stringify(value)})`);
  checkNested(where, "sticky", o.sticky, STICKY_KEYS, true);
  checkNested(where, "intent", o.intent, INTENT_KEYS, true);
  checkNested(where, "tags", o.tags, TAG_KEYS);
}

/** The router options among an adapter's options (the router refuses the adapter's own keys). */
export function routerOptionsOf<T extends object>(options: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(options)) if (Object.prototype.hasOwnProperty.call(ROUTER_OPTION_KEYS, key)) out[key] = (options as Record<string, unknown>)[key];
  return out as Partial<T>;
}
