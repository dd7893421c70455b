/**
 * One live MCP server: started (stdio) or reached (streamable HTTP) with the MCP SDK client, with its stderr
 * tail kept for error reports. A connection never throws on start: a server that fails to start, or dies later,
 * is a `failed` connection carrying the reason and the last lines it wrote to stderr, so one broken server
 * never takes the others down. A server this connection started can be started again in place (`reconnect`):
 * the session restarts dead servers with backoff, and tools bound to the connection keep working.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { McpServerConfig } from "./config.js";
import { listMcpToolsTolerant, resolveListLimits, type McpListLimits, type McpListResult } from "./list-tools.js";
import { redactSecrets } from "../core/util/redact.js";

/** "restarting": died and waiting for (or in) a restart attempt; calls are refused meanwhile. */
export type McpServerState = "ready" | "restarting" | "failed" | "closed";

/** Why a server is unusable, for reports and for the error results its tools return. */
export interface McpServerFailure {
  server: string;
  /**
   * "start": could not start or initialize; "list": tools/list failed; "exited": died after starting;
   * "restart": died and every restart attempt failed.
   */
  phase: "start" | "list" | "exited" | "restart";
  /** What went wrong, with anything that looks like a credential redacted. */
  message: string;
  /**
   * The last lines the server wrote to stderr ("" for HTTP servers or when it wrote nothing), redacted. For the
   * operator (logs, `audit`): it never goes into text a model reads, since a failing server often echoes its
   * arguments and environment.
   */
  stderrTail: string;
}

export interface McpConnectOptions {
  /** Name and version announced to the server. */
  clientInfo?: { name: string; version: string };
  /** Timeout for initialize and each request (ms). Default 30,000. */
  timeoutMs?: number;
  /** Lines of stderr kept for reports. Default 20. */
  stderrLines?: number;
  /** Bounds on each `tools/list` (tools, bytes, time, pages); see `McpListLimits` for the defaults. */
  listLimits?: McpListLimits;
}

/** The parts of a `tools/call` answer this project reads; anything else the server sends is kept. */
export const PermissiveCallToolResult = z
  .object({
    content: z.array(z.unknown()).default([]),
    structuredContent: z.record(z.string(), z.unknown()).optional(),
    isError: z.boolean().optional(),
  })
  .passthrough();
export type McpCallToolResult = z.infer<typeof PermissiveCallToolResult>;

const DEFAULT_CLIENT_INFO = { name: "tool-attention", version: "0.1.0" };
const STDERR_KEEP_CHARS = 16_384;

export class McpServerConnection {
  state: McpServerState = "ready";
  failure?: McpServerFailure;
  /** Milliseconds from spawn/connect to a completed initialize. */
  startMs = 0;
  private stderrText = "";
  private closing = false;
  /** Set while a death is being recorded (stderr draining, listeners running); see `settled()`. */
  private exiting?: Promise<void>;
  /** Successful restarts so far. */
  restarts = 0;
  private readonly changeListeners = new Set<() => void>();
  private readonly exitListeners = new Set<(failure: McpServerFailure) => void>();

  private constructor(
    readonly name: string,
    readonly config: McpServerConfig | undefined,
    private client: Client | undefined,
    private readonly options: McpConnectOptions,
    /** True when this object started the server and must stop it on close. */
    private readonly owned: boolean,
  ) {}

  /** Starts or reaches one server. Never throws: check `state` / `failure`. */
  static async connect(name: string, config: McpServerConfig, options: McpConnectOptions = {}): Promise<McpServerConnection> {
    // A mistake in the bounds is the caller's: said before any server starts.
    resolveListLimits(options.listLimits);
    const conn = new McpServerConnection(name, config, undefined, options, true);
    const started = await conn.open();
    if (!started.ok) conn.fail("start", `failed to start: ${started.error}`);
    return conn;
  }

  /** Starts the configured server with a new client; on success it becomes this connection's client. */
  private async open(): Promise<{ ok: true } | { ok: false; error: string }> {
    const config = this.config as McpServerConfig;
    const client = new Client(this.options.clientInfo ?? DEFAULT_CLIENT_INFO, { capabilities: {} });
    const t0 = performance.now();
    try {
      const transport =
        config.transport === "stdio"
          ? new StdioClientTransport({ command: config.command, args: config.args, env: config.env, cwd: config.cwd, stderr: "pipe" })
          : new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
      if (transport instanceof StdioClientTransport) {
        transport.stderr?.on("data", (chunk: Buffer | string) => this.keepStderr(String(chunk)));
      }
      await client.connect(transport, { timeout: this.options.timeoutMs ?? 30_000 });
    } catch (err) {
      // Give the child a moment to flush stderr: its last words usually say why it stopped.
      await new Promise((r) => setTimeout(r, 50));
      await client.close().catch(() => undefined);
      return { ok: false, error: messageOf(err) };
    }
    if (this.closing) {
      await client.close().catch(() => undefined);
      return { ok: false, error: "the connection was closed" };
    }
    this.client = client;
    this.startMs = performance.now() - t0;
    this.watch(client);
    return { ok: true };
  }

  /** Whether `reconnect` can start this server again (it was started from a config by this connection). */
  get canRestart(): boolean {
    return this.owned && this.config !== undefined && !this.closing;
  }

  /**
   * Starts the server again after it died (a new process or HTTP session, the same connection object). When it
   * is ready again, calls go to the new server; otherwise the state and failure report stay as they were.
   */
  async reconnect(): Promise<{ ok: true } | { ok: false; error: string }> {
    if (this.state === "ready") return { ok: true };
    if (!this.canRestart) return { ok: false, error: this.closing ? "the connection was closed" : "this connection did not start the server" };
    const started = await this.open();
    if (!started.ok) return started;
    this.state = "ready";
    this.failure = undefined;
    this.exiting = undefined;
    this.restarts++;
    return { ok: true };
  }

  /** Stops the current client after a restart that came up unusable (e.g. its tools/list failed). */
  async abandon(): Promise<void> {
    const client = this.client;
    if (this.state === "ready") this.state = "restarting";
    if (this.owned) await client?.close().catch(() => undefined);
  }

  /** Marks the server as waiting for a restart; `message` says why and which attempt comes when. */
  markRestarting(message: string): void {
    if (this.closing) return;
    this.state = "restarting";
    this.setFailure("exited", message);
  }

  /** Gives up restarting: the server stays failed, with the reason. */
  giveUp(message: string): void {
    if (this.closing) return;
    this.fail("restart", message);
  }

  /** Resolves once a death in progress has been recorded (state, failure and exit listeners); at once otherwise. */
  settled(): Promise<void> {
    return this.exiting ?? Promise.resolve();
  }

  /**
   * Wraps a client someone else connected (e.g. one of a `MultiServerMCPClient`'s). It is not closed by
   * `close()`; its owner closes it.
   */
  static fromClient(name: string, client: Client, options: McpConnectOptions = {}): McpServerConnection {
    const conn = new McpServerConnection(name, undefined, client, options, false);
    conn.watch(client);
    return conn;
  }

  /** A placeholder for a server that could not be reached at all (keeps reports uniform). */
  static failed(name: string, message: string, config?: McpServerConfig): McpServerConnection {
    const conn = new McpServerConnection(name, config, undefined, {}, false);
    conn.fail("start", message);
    return conn;
  }

  /** The MCP SDK client (undefined for a server that never connected), e.g. for `loadMcpTools`. */
  get sdkClient(): Client | undefined {
    return this.client;
  }

  /** The last lines the server wrote to stderr, with what looks like a credential redacted (for the operator only). */
  stderrTail(lines = this.options.stderrLines ?? 20): string {
    const all = this.stderrText.trimEnd().split("\n");
    return redactSecrets(all.slice(-lines).join("\n"));
  }

  /** Called when the server sends `notifications/tools/list_changed`. Returns an unsubscribe function. */
  onToolsChanged(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Called once when a ready server dies. Returns an unsubscribe function. */
  onExit(listener: (failure: McpServerFailure) => void): () => void {
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /** Tolerant `tools/list` (all pages). Marks the server failed and rethrows when it cannot answer. */
  async listTools(): Promise<McpListResult> {
    const client = this.requireClient();
    try {
      return await listMcpToolsTolerant(client, this.name, { timeoutMs: this.options.timeoutMs ?? 30_000, limits: this.options.listLimits });
    } catch (err) {
      if (this.state === "ready") this.fail("list", `tools/list failed: ${messageOf(err)}`);
      throw new Error(this.describeForModel());
    }
  }

  /** Calls one tool on the server. Throws with the server's state when it is not ready. */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<McpCallToolResult> {
    const client = this.requireClient();
    return client.request({ method: "tools/call", params: { name: tool, arguments: args } }, PermissiveCallToolResult, {
      signal: options.signal,
      timeout: options.timeoutMs ?? this.options.timeoutMs ?? 60_000,
    });
  }

  /**
   * One paragraph saying why the server is unusable, for the operator: the reason and, unless `stderr: false`,
   * the server's last stderr lines (redacted). Text for a model uses `stderr: false` (see `describeForModel`).
   */
  describeFailure(options: { stderr?: boolean } = {}): string {
    if (!this.failure) return `server "${this.name}" is ${this.state}`;
    const tail = options.stderr !== false && this.failure.stderrTail ? `\nlast stderr lines:\n${this.failure.stderrTail}` : "";
    return `server "${this.name}" ${this.failure.message}${tail}`;
  }

  /**
   * Why the server is unusable, in text a model may read: the reason only. The server's stderr stays out: it is
   * the server's own output, may echo its arguments or environment, and could address the model.
   */
  describeForModel(): string {
    return this.describeFailure({ stderr: false });
  }

  /**
   * Stops the server (when this connection started it), whatever state it is in: a server that started but then
   * failed (its tools/list timed out, went past a bound, or it is between restarts) still has a live child process.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.state !== "failed") this.state = "closed";
    if (this.owned) await this.client?.close().catch(() => undefined);
  }

  private requireClient(): Client {
    if (this.state !== "ready" || !this.client) throw new Error(this.describeForModel());
    return this.client;
  }

  private watch(client: Client): void {
    // Registering replaces any earlier handler for the same method on a shared client; chain to it.
    const previous = (client as unknown as { _notificationHandlers?: Map<string, (n: unknown) => Promise<void>> })
      ._notificationHandlers?.get("notifications/tools/list_changed");
    client.setNotificationHandler(ToolListChangedNotificationSchema, async (n) => {
      if (previous) await previous(n);
      if (this.state === "ready" && this.client === client) for (const l of this.changeListeners) l();
    });
    const priorClose = client.onclose;
    client.onclose = () => {
      priorClose?.();
      // A client replaced by a restart, or one closed on purpose, does not speak for the server any more.
      if (this.closing || this.state !== "ready" || this.client !== client) return;
      // Let the stderr stream drain so the report carries the server's last words. Calls failing meanwhile wait
      // for this (settled()), so their error already says the server died.
      this.exiting = new Promise<void>((resolve) =>
        setTimeout(() => {
          if (this.client === client && this.state === "ready" && !this.closing) {
            this.fail("exited", "exited unexpectedly");
            for (const l of this.exitListeners) l(this.failure as McpServerFailure);
          }
          resolve();
        }, 50),
      );
    };
  }

  private keepStderr(text: string): void {
    this.stderrText += text;
    if (this.stderrText.length > STDERR_KEEP_CHARS) this.stderrText = this.stderrText.slice(-STDERR_KEEP_CHARS);
  }

  private fail(phase: McpServerFailure["phase"], message: string): void {
    this.state = "failed";
    this.setFailure(phase, message);
  }

  private setFailure(phase: McpServerFailure["phase"], message: string): void {
    this.failure = { server: this.name, phase, message: redactSecrets(message), stderrTail: this.stderrTail() };
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
