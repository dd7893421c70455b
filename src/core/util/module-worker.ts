/**
 * Starting a worker thread on a module that sits next to the caller's.
 *
 * From compiled output (`dist/…/x.js`) the worker is `<name>.js` and starts directly. From TypeScript sources run
 * under tsx (`…/x.ts`, as in tests), a worker thread does not get tsx's hooks from `--import tsx` (tsx registers
 * itself on the main thread only on Node 20), so a one-line bootstrap registers tsx through its API (`tsx/esm/api`,
 * resolved from the caller) and then imports `<name>.ts`.
 */
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * A worker thread running module `name` (no extension) from the directory of `base` (the caller's
 * `import.meta.url`). `label` names the component in the error thrown when tsx is needed and missing.
 */
export function startModuleWorker(base: string, name: string, label: string, options: Omit<WorkerOptions, "eval" | "execArgv"> = {}): Worker {
  const sourceExt = /\.([cm]?ts)$/.exec(new URL(base).pathname)?.[0] ?? "";
  if (!sourceExt) return new Worker(new URL(`./${name}.js`, base), options);
  let tsxApi: string;
  try {
    tsxApi = import.meta.resolve("tsx/esm/api");
  } catch (err) {
    throw new Error(
      `${label}: running from TypeScript sources (${new URL(base).pathname}) needs the "tsx" package ` +
        `to start the worker thread, and it could not be resolved (${(err as Error)?.message ?? err}). Use the compiled package, or install tsx.`,
      { cause: err },
    );
  }
  const entry = new URL(`./${name}${sourceExt}`, base).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  // No inherited flags: an inherited `--import tsx` would register tsx a second time on Node versions where it
  // does hook worker threads itself.
  return new Worker(bootstrap, { ...options, eval: true, execArgv: [] });
}
