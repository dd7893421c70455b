/**
 * Does a call's arguments object fit its tool's input schema? The gate asks this of a call to a catalog tool that
 * was not delivered: one that fits runs at once (the miss costs no round trip), one that does not is answered with
 * what does not fit and the tool's schema attached for the next step. Validation is JSON Schema (draft 7), with the
 * validator `@langchain/core` itself uses for tool schemas; one compiled validator per schema object.
 */
import { Validator } from "@langchain/core/utils/json_schema";
import type { JsonSchema } from "../types.js";

const validators = new WeakMap<object, Validator>();

/** At most this many validation errors are named in an answer. */
const MAX_ERRORS = 3;

/**
 * `true` when `args` fits `schema`, else a short description of what does not fit. A schema that cannot be
 * compiled, or no schema, gives undefined: the gate cannot vouch for the call and keeps its usual answer.
 */
export function argumentFit(schema: JsonSchema | undefined, args: unknown): true | string | undefined {
  if (!schema || typeof schema !== "object") return undefined;
  let validator = validators.get(schema);
  if (!validator) {
    try {
      validator = new Validator(schema as never, "7", false);
    } catch {
      return undefined;
    }
    validators.set(schema, validator);
  }
  let result: ReturnType<Validator["validate"]>;
  try {
    result = validator.validate(args ?? {});
  } catch {
    return undefined;
  }
  if (result.valid) return true;
  // The innermost errors say what is wrong; the outer ones only repeat that a property failed.
  const errors = result.errors.filter((e) => e.keyword !== "properties" && e.keyword !== "allOf" && e.keyword !== "$ref");
  const shown = (errors.length ? errors : result.errors).slice(0, MAX_ERRORS).map((e) => `${e.instanceLocation.replace(/^#\/?/, "") || "arguments"}: ${e.error}`);
  return shown.join("; ");
}

/**
 * Whether a model that sees only a tool's required parameter names (the pool's `id(a, b, …)` lines, or the terse
 * pool) can fill them right without the schema: each is a plain string, number, integer or boolean with no enum,
 * pattern, format or const to match. Objects, arrays and constrained values need the schema. A tool without
 * required parameters always can. Delivery uses it to price a miss (such a call usually runs at once), and the
 * cost replay to model the model.
 */
export function callableFromNames(schema: JsonSchema | undefined): boolean {
  const required = Array.isArray(schema?.required) ? (schema.required as unknown[]) : [];
  const props = (schema?.properties ?? {}) as Record<string, Record<string, unknown> | undefined>;
  return required.every((name) => {
    const p = typeof name === "string" ? props[name] : undefined;
    if (!p || typeof p !== "object" || p.enum || p.pattern || p.format || p.const !== undefined) return false;
    return p.type === "string" || p.type === "number" || p.type === "integer" || p.type === "boolean";
  });
}
