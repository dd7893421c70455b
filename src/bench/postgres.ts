/**
 * A throwaway PostgreSQL cluster for tests and the bench: initdb in a temporary directory, started on a free port (TCP on
 * 127.0.0.1 and a socket in the same directory), stopped and deleted by `stop()`. The real Debian server, never a
 * mock. initdb refuses to run as root, so as root the cluster runs as the `postgres` user the Debian package
 * creates (through runuser). fsync is off: the data is thrown away anyway.
 *
 * Missing binaries fail loudly with the install command (CI installs them in .ci/run).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, chownSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";

export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication). */
  url: string;
  port: number;
  /** The cluster's data directory (also holds the socket and the server log). */
  dir: string;
  /** Stops the server (immediate mode) and deletes the directory. Idempotent. */
  stop(): Promise<void>;
}

export const POSTGRES_INSTALL_COMMAND = "apt-get install -y postgresql";

/** The directory holding initdb / pg_ctl: Debian's /usr/lib/postgresql/<major>/bin (newest), else PATH. */
export function postgresBinDir(): string {
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .filter((d) => existsSync(path.join(root, d, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (majors.length > 0) return path.join(root, majors[0], "bin");
  }
  const which = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim()) return path.dirname(which.stdout.trim());
  throw new Error(
    `PostgreSQL server binaries (initdb, pg_ctl) not found under /usr/lib/postgresql/*/bin or on PATH. ` +
      `These tests run a real throwaway server; install it with: ${POSTGRES_INSTALL_COMMAND}`,
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts a fresh cluster. Call `stop()` in an `after` hook. */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), "ta-pg-"));
  let run = (cmd: string, args: string[]) => execFileSync(path.join(bin, cmd), args, { stdio: "pipe" });
  if (asRoot) {
    const id = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    if (id.status !== 0)
      throw new Error(`running as root, and there is no "postgres" user to run the test cluster as; install the server: ${POSTGRES_INSTALL_COMMAND}`);
    const uid = Number(id.stdout.trim());
    const gid = Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim());
    chownSync(dir, uid, gid);
    run = (cmd, args) => execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, cmd), ...args], { stdio: "pipe" });
  }
  const data = path.join(dir, "data");
  const log = path.join(dir, "server.log");
  let started = false;
  const stop = async () => {
    process.removeListener("exit", onExit);
    if (started) {
      started = false;
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // Already gone: nothing to stop.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // A test file whose after() hook never runs (a crash, a cancelled run) must not leave a server behind: stop it
  // synchronously when the test process exits. (A test helper, not library code: the library installs no handlers.)
  const onExit = () => {
    if (started) {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // Already gone.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", onExit);
  try {
    run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
    // A port can be taken between freePort() and the server's bind: retry a few times.
    for (let attempt = 0; ; attempt++) {
      const port = await freePort();
      const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
      try {
        run("pg_ctl", ["-D", data, "-l", log, "-o", opts, "-w", "-t", "60", "start"]);
        started = true;
        return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dir, stop };
      } catch (err) {
        if (attempt >= 3) throw new Error(`pg_ctl start failed: ${(err as Error).message}\n${existsSync(log) ? readFileSync(log, "utf8").slice(-2000) : ""}`);
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
}
