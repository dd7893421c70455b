/**
 * Task files in the shared format: one JSON object a line,
 * `{"id", "query", "gold": [tool names], "steps"?: [plan steps], "state"?: {scopes, milestones, toolOutputs}}`.
 */
import { readFileSync } from "node:fs";

export interface EvalTask {
  id: string;
  query: string;
  gold: string[];
  steps?: string[];
  state?: { scopes?: string[]; milestones?: string[]; toolOutputs?: string[]; [key: string]: unknown };
  kind?: string;
}

/** Reads a tasks.jsonl file; errors name the file, the line and the field. */
export function loadTasks(path: string): EvalTask[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new Error(`Cannot read tasks ${path}: ${(err as Error).message}`);
  }
  const tasks: EvalTask[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${path}:${i + 1}`;
    let obj: Record<string, unknown>;
    try {
      obj = JSON.parse(line);
    } catch (err) {
      throw new Error(`${where}: invalid JSON: ${(err as Error).message}`);
    }
    if (typeof obj.query !== "string") throw new Error(`${where}: "query" must be a string`);
    if (!Array.isArray(obj.gold) || !obj.gold.every((g) => typeof g === "string"))
      throw new Error(`${where}: "gold" must be an array of tool names`);
    if (obj.steps !== undefined && (!Array.isArray(obj.steps) || !obj.steps.every((s) => typeof s === "string")))
      throw new Error(`${where}: "steps" must be an array of strings`);
    if (obj.state !== undefined && (typeof obj.state !== "object" || obj.state === null || Array.isArray(obj.state)))
      throw new Error(`${where}: "state" must be an object`);
    tasks.push({
      id: typeof obj.id === "string" ? obj.id : `line-${i + 1}`,
      query: obj.query,
      gold: obj.gold as string[],
      steps: obj.steps as string[] | undefined,
      state: obj.state as EvalTask["state"],
      kind: typeof obj.kind === "string" ? obj.kind : undefined,
    });
  });
  return tasks;
}
