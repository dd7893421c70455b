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
