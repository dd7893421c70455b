/**
 * What a tool name may be, decided in one place so the catalog, the gate and the middleware agree on it.
 *
 * A name is never trimmed, folded or otherwise rewritten on the way in: the string a tool was registered (or listed)
 * under is the string the catalog keys it by, the gate matches calls against and the middleware binds. A name that
 * would have to be rewritten to be usable is not taken in instead, because two lookups that normalize differently
 * are how a poisoned `"get_trivia "` slipped past its quarantined twin `"get_trivia"`.
 *
 * Two grammars apply, by where a tool comes from:
 * - **MCP servers** (third-party): MCP's naming guidance, 1–128 characters of ASCII letters, digits, `_`, `-`, `.`
 *   and `/` (`MCP_TOOL_NAME`). A listed tool whose name falls outside it is left out of the listing with a warning
 *   naming the server and the tool's position; nothing a hostile server puts in a name (line breaks, markup,
 *   look-alike letters, bidi controls) reaches the catalog, the prompt or the gate.
 * - **Tools from application code** (LangChain tools passed to the middleware, catalog files): only names that are not
 *   usable at all are left out (`usableToolName`: empty, surrounding whitespace, control or line-separator
 *   characters). Anything else is kept, with a warning when it is outside what providers accept
 *   (`toolNameProblem`). The application wrote those names and a provider tells it at once when one is refused
 *   (OpenAI accepts `^[a-zA-Z0-9_-]{1,64}$`, Anthropic `^[a-zA-Z0-9_-]{1,128}$` in their API references; some
 *   OpenAI-compatible endpoints accept more); refusing them here would break agents that work today.
 */

/** MCP's tool-name guidance: 1–128 characters of ASCII letters, digits, `_`, `-`, `.` and `/`. */
export const MCP_TOOL_NAME = /^[A-Za-z0-9_\-./]{1,128}$/;

/** Longest tool name providers accept (MCP recommends at most 128 characters). */
export const MAX_TOOL_NAME_CHARS = 128;

/** C0 and C1 controls, DEL, and the Unicode line and paragraph separators: each can start a new line for a model. */
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether a tool name can be bound and called at all: a non-empty string with no surrounding whitespace and no
 * control characters. Anything else is left out, never bound and never run: a name that only differs from another
 * by a space (a poisoned "get_trivia " next to its quarantined "get_trivia") would otherwise slip past the lookups
 * by name.
 */
export function usableToolName(name: unknown): name is string {
  return typeof name === "string" && name !== "" && name.trim() === name && !LINE_BREAKING.test(name);
}

/** Why a string is not a usable tool name (see `usableToolName`), or undefined when it is one. */
export function unusableNameReason(name: unknown): string | undefined {
  if (typeof name !== "string") return `it is ${name === null ? "null" : typeof name}, not a string`;
  if (name.trim() === "") return "it is empty; a tool needs a name to be called";
  if (usableToolName(name)) return undefined;
  return LINE_BREAKING.test(name) ? "it holds control or line-break characters" : "it has surrounding whitespace";
}

/**
 * Why a name an MCP server listed is not a valid MCP tool name, or undefined when it is one. The reason names what
 * is wrong (length, or the first character outside the grammar, escaped) so the operator can tell the server's
 * maintainers.
 */
export function mcpToolNameProblem(name: string): string | undefined {
  if (MCP_TOOL_NAME.test(name)) return undefined;
  if (name.length === 0) return "the name is empty";
  if (name.length > MAX_TOOL_NAME_CHARS) return `the name has ${name.length.toLocaleString("en-US")} characters (MCP tool names have 1–${MAX_TOOL_NAME_CHARS})`;
  const bad = [...name].find((c) => !/[A-Za-z0-9_\-./]/.test(c)) as string;
  return `the name holds ${JSON.stringify(bad)} (U+${(bad.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}); MCP tool names are letters, digits, "_", "-", "." and "/"`;
}

/**
 * A name for messages: quoted, escaped (a line break in it cannot break the message) and cut to 80 characters.
 */
export function quotedName(name: string): string {
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
}

/**
 * What is wrong with a tool name a model will have to call, if anything: control characters, invisible format
 * characters (bidi overrides, zero-width), surrounding whitespace, lone surrogates, or more than
 * MAX_TOOL_NAME_CHARS characters. For names the catalog keeps anyway (catalog files, application code): the warning
 * tells the operator why a provider may refuse it.
 */
export function toolNameProblem(name: string): string | undefined {
  const what: string[] = [];
  if (/\p{Cc}/u.test(name)) what.push("control characters");
  if (/\p{Cf}/u.test(name)) what.push("invisible format characters");
  if (name.trim() !== name) what.push("surrounding whitespace");
  if (LONE_SURROGATE.test(name)) what.push("lone surrogates");
  if (name.length > MAX_TOOL_NAME_CHARS) what.push(`${name.length.toLocaleString("en-US")} characters (at most ${MAX_TOOL_NAME_CHARS} are accepted)`);
  return what.length > 0 ? `the name has ${what.join(", ")}; model providers reject such tool names` : undefined;
}
