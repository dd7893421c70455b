/**
 * Tool names in a sentence, as the readers find them: a tool is named as tools are named (snake_case, two hyphens or
 * more), or by a plainer name the catalog lists on another server, long or hyphenated enough not to be an English
 * word ("sequentialthinking", "delete-many"; "add", "search", "echo" stay words). Shared by the sentence reader
 * (intent.ts), the structural reading (structure.ts) and the foreign-trigger reading (foreign-triggers.ts).
 */

const SHAPED = /(?<![$\w-])[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9]/g;
const PLAIN_TOOL_NAME = /(?<![$\w.\/-])[a-z][a-z0-9-]{4,}[a-z0-9](?![\w\/-])/g;

/** Snake_case names, and names of two or more hyphens (`API-post-page`): single hyphens are English words. */
export function toolShapedTokens(s: string): string[] {
  return (s.match(SHAPED) ?? []).filter((t) => /[A-Za-z0-9]_[A-Za-z0-9]/.test(t) || (t.match(/-/g)?.length ?? 0) >= 2);
}

/** Plainer names (one hyphen or none) that `knownForeignTool` says the catalog has on another server, each once. */
export function plainToolNames(s: string, knownForeignTool: ((token: string) => boolean) | undefined): string[] {
  if (!knownForeignTool) return [];
  const out: string[] = [];
  for (const t of s.match(PLAIN_TOOL_NAME) ?? []) if ((t.includes("-") || t.length >= 12) && knownForeignTool(t) && !out.includes(t)) out.push(t);
  return out;
}
