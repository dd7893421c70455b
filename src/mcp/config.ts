/**
 * MCP config files as Claude Desktop, Cursor and most MCP clients write them:
 *
 * ```json
 * { "mcpServers": {
 *     "files":  { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {}, "cwd": "." },
 *     "remote": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer ${env:TOKEN}" } } } }
 * ```
 *
 * Strings may use placeholders, so one file works on every machine:
 * `${env:NAME}` or `${NAME}` (an environment variable), `${configDir}` (the directory holding the config file),
 * `${TMPDIR}` (the environment's TMPDIR, else the OS temp directory). An unknown variable is an error that
 * names the server and field, never a silent empty string.
 */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, resolve } from "node:path";
import { redactSecrets } from "../core/util/redact.js";

/** A server started as a child process speaking MCP over stdin/stdout. */
export interface McpStdioServerConfig {
  transport: "stdio";
  command: string;
  args: string[];
  /** Added to the safe default environment the MCP SDK passes to children (PATH, HOME…). */
  env: Record<string, string>;
  /** Working directory (resolved against the config file's directory). */
  cwd?: string;
}

/** A remote server speaking MCP over streamable HTTP. */
export interface McpHttpServerConfig {
  transport: "http";
  url: string;
  headers: Record<string, string>;
}

export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** A parsed config: servers by name, in file order (disabled servers left out). */
export interface McpConfig {
  servers: Record<string, McpServerConfig>;
  /** Where the config came from (a path, or "inline"): used in error messages and capture keys. */
  source: string;
}

export interface ParseMcpConfigOptions {
  /** Where the config came from, for messages. Default "inline". */
  source?: string;
  /** Base directory for `${configDir}` and relative `cwd`. Default: the process's working directory. */
  baseDir?: string;
  /** Environment for `${env:NAME}` placeholders. Default: process.env. */
  env?: Record<string, string | undefined>;
}

/** An error in a config file; the message names the file, the server and the field. */
export class McpConfigError extends Error {
  constructor(
    message: string,
    readonly server?: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "McpConfigError";
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const PLACEHOLDER = /\$\{([^}]*)\}/g;

/** Replaces `${…}` placeholders in one string; `where` names the server and field for errors. */
export function expandPlaceholders(
  text: string,
  vars: { configDir: string; env: Record<string, string | undefined> },
  where: () => string,
): string {
  return text.replace(PLACEHOLDER, (_m, raw: string) => {
    const name = raw.trim();
    if (name === "configDir" || name === "workspaceFolder") return vars.configDir;
    if (name === "TMPDIR" && !vars.env.TMPDIR) return tmpdir();
    const key = name.startsWith("env:") ? name.slice(4) : name;
    const value = vars.env[key];
    if (value === undefined)
      throw new McpConfigError(`${where()}: placeholder \${${raw}} names environment variable "${key}", which is not set`);
    return value;
  });
}

/** Parses an already-loaded config object. Throws McpConfigError naming the server and field. */
export function parseMcpConfig(data: unknown, options: ParseMcpConfigOptions = {}): McpConfig {
  const source = options.source ?? "inline";
  const configDir = options.baseDir ?? process.cwd();
  const vars = { configDir, env: options.env ?? process.env };
  if (!isPlainObject(data)) throw new McpConfigError(`${source}: expected a JSON object with "mcpServers"`);
  // "servers" is what VS Code writes; "mcpServers" what Claude Desktop and Cursor write.
  const block = data.mcpServers ?? data.servers;
  if (!isPlainObject(block))
    throw new McpConfigError(`${source}: expected "mcpServers": { "<name>": { "command": … } | { "url": … } }`);
  const servers: Record<string, McpServerConfig> = {};
  for (const [name, raw] of Object.entries(block)) {
    const at = (field?: string) => `${source}: server "${name}"${field ? `, field "${field}"` : ""}`;
    if (!isPlainObject(raw)) throw new McpConfigError(`${at()}: expected an object`, name);
    if (raw.disabled === true) continue;
    const str = (field: string, value: unknown): string => {
      if (typeof value !== "string") throw new McpConfigError(`${at(field)}: expected a string, got ${describe(value)}`, name, field);
      return expandPlaceholders(value, vars, () => at(field));
    };
    const strMap = (field: string, value: unknown): Record<string, string> => {
      if (value === undefined || value === null) return {};
      if (!isPlainObject(value)) throw new McpConfigError(`${at(field)}: expected an object of strings, got ${describe(value)}`, name, field);
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(value)) out[k] = str(`${field}.${k}`, typeof v === "number" || typeof v === "boolean" ? String(v) : v);
      return out;
    };
    const type = raw.type ?? raw.transport;
    if (raw.command !== undefined || type === "stdio") {
      if (raw.url !== undefined) throw new McpConfigError(`${at()}: has both "command" and "url"; keep one`, name);
      const command = str("command", raw.command);
      if (!command.trim()) throw new McpConfigError(`${at("command")}: is empty`, name, "command");
      let args: string[] = [];
      if (raw.args !== undefined) {
        if (!Array.isArray(raw.args)) throw new McpConfigError(`${at("args")}: expected an array of strings, got ${describe(raw.args)}`, name, "args");
        args = raw.args.map((a, i) => str(`args[${i}]`, typeof a === "number" ? String(a) : a));
      }
      const server: McpStdioServerConfig = { transport: "stdio", command, args, env: strMap("env", raw.env) };
      if (raw.cwd !== undefined) {
        const cwd = str("cwd", raw.cwd);
        server.cwd = isAbsolute(cwd) ? cwd : resolve(configDir, cwd);
      }
      servers[name] = server;
    } else if (raw.url !== undefined) {
      if (type !== undefined && !["http", "streamable-http", "streamableHttp"].includes(String(type)))
        throw new McpConfigError(`${at("type")}: "${String(type)}" is not supported; use stdio ("command") or streamable HTTP ("url")`, name, "type");
      const url = str("url", raw.url);
      try {
        new URL(url);
      } catch {
        // Shown as written in the file, before placeholders are expanded: the expanded value may hold a key from
        // the environment (`?key=${env:API_KEY}`). Whatever the file itself holds in the query is redacted too.
        throw new McpConfigError(`${at("url")}: "${redactSecrets(String(raw.url))}" is not a valid URL`, name, "url");
      }
      servers[name] = { transport: "http", url, headers: strMap("headers", raw.headers) };
    } else {
      throw new McpConfigError(`${at()}: needs "command" (stdio) or "url" (streamable HTTP)`, name);
    }
  }
  return { servers, source };
}

/** Reads and parses a config file; `${configDir}` is the file's directory. */
export function loadMcpConfig(path: string, options: Omit<ParseMcpConfigOptions, "source" | "baseDir"> = {}): McpConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new McpConfigError(`Cannot read MCP config ${path}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new McpConfigError(`Cannot read MCP config ${path}: ${jsonSyntaxError(err as Error, text)}`);
  }
  return parseMcpConfig(data, { ...options, source: path, baseDir: dirname(resolve(path)) });
}

/**
 * Where a config file stops being JSON, without quoting it: the runtime's message quotes the text around the error,
 * and a config file holds keys and tokens.
 */
export function jsonSyntaxError(err: Error, text: string): string {
  const at = /at position (\d+)/.exec(err.message);
  if (!at) return "not valid JSON (check it with a JSON validator; the text is not quoted here because config files hold secrets)";
  const position = Number(at[1]);
  const before = text.slice(0, position);
  const line = before.split("\n").length;
  const column = position - before.lastIndexOf("\n");
  return `not valid JSON at line ${line}, column ${column}`;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}
