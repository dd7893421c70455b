/**
 * Option checking at construction: an options object is plain data that TypeScript cannot check once it comes from
 * JavaScript, a config file or a spread. A misspelled key (`kk`, `thetta`) or an enum value the code does not know
 * (`delivery: "bogus"`) would otherwise be ignored and the library would run on defaults the user never chose.
 */
import { closestName } from "../preconditions/preconditions.js";

/** The known keys of an options type, as a table TypeScript checks against the type (see `satisfies` at the uses). */
export type OptionKeys<T> = Record<keyof T, true>;

/** Throws on a key `options` has that `known` does not list, naming the closest known key. */
export function checkOptionKeys(where: string, options: object | undefined, known: Readonly<Record<string, true>>): void {
  if (!options || typeof options !== "object") return;
  for (const key of Object.keys(options)) {
    if (Object.prototype.hasOwnProperty.call(known, key)) continue;
    // An explicit undefined is how spreads and optional chains pass "not set": harmless.
    if ((options as Record<string, unknown>)[key] === undefined) continue;
    const near = closestName(key, Object.keys(known));
    throw new Error(
      `${where}: unknown option "${key}"${near ? ` (did you mean "${near}"?)` : ""}; ` +
        `valid options: ${Object.keys(known).sort().join(", ")}`,
    );
  }
}

/** Throws unless `value` is undefined or one of `allowed`, listing the valid values. */
export function checkEnum(where: string, field: string, value: unknown, allowed: readonly string[]): void {
  if (value === undefined || (typeof value === "string" && allowed.includes(value))) return;
  const near = typeof value === "string" ? closestName(value, allowed) : undefined;
  throw new Error(
    `${where}: invalid ${field} ${JSON.stringify(value)}${near ? ` (did you mean "${near}"?)` : ""}; ` +
      `valid values: ${allowed.map((a) => `"${a}"`).join(", ")}`,
  );
}

/** Checks a nested options object (`stable: { addRank }`): its type, then its keys. `false` / `true` are allowed where `flags`. */
export function checkNested(where: string, field: string, value: unknown, known: Readonly<Record<string, true>>, flags = false): void {
  if (value === undefined || (flags && typeof value === "boolean")) return;
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new Error(`${where}: option "${field}" must be an object${flags ? " or a boolean" : ""} (got ${Array.isArray(value) ? "an array" : JSON.stringify(value)})`);
  checkOptionKeys(`${where} ${field}`, value, known);
}

/** At most `max` names, quoted, then how many more: error messages stay readable with 60 tools missing. */
export function fewNames(names: readonly string[], max = 5): string {
  const shown = names.slice(0, max).map((n) => `"${n}"`).join(", ");
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}
