/**
 * The shapes the screen reads and returns: the tool it screens, the context it screens it in, and the reasons and
 * findings it reports. They sit apart from screen.ts so the rule modules, the sentence reader (meaning.ts) and the
 * catalog stage (screen-tools.ts) can share them without importing the screen, which imports them; screen.ts
 * re-exports every one of them.
 */
import type { ScreeningCategory } from "./categories.js";

/** The parts of a tool the screen reads (an MCP `tools/list` entry, a ToolSpec, or a ToolRecord). */
export interface ScreenableTool {
  name: string;
  title?: unknown;
  description?: unknown;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

export type ScreeningFamily = "injection" | "hidden_unicode" | "exfiltration" | "tool_steering" | "imperative";

export interface ScreeningRule {
  id: string;
  family: ScreeningFamily;
  description: string;
}

/**
 * One reason a tool was flagged: which rule (a pattern rule id, or `reading:<category>` for a sentence the reader
 * filed under a category, `encoder:<category>` / `judge:<category>` for the optional stages), in which field (a
 * path such as `inputSchema.properties.code.description`), and an excerpt.
 */
export interface ScreeningReason {
  rule: string;
  field: string;
  excerpt: string;
  /** The category the reason is filed under. */
  category?: ScreeningCategory;
  /** Confidence in [0, 1] (pattern rules: 1). */
  score?: number;
}

/** A finding with everything needed to act on it: where it is, what the sentence asks, how sure the screen is. */
export interface ScreeningFinding {
  server: string;
  tool: string;
  field: string;
  /** The sentence (or, for hidden characters, the excerpt) the finding is about. */
  sentence: string;
  category: ScreeningCategory;
  /** Confidence in [0, 1]; a finding counts when it reaches the threshold (default `DEFAULT_SCREENING_THRESHOLD`). */
  score: number;
  /** Which stage found it: a pattern rule, the sentence reader, the encoder, a user-supplied judge, or the lexical model. */
  source: "rule" | "reading" | "encoder" | "judge" | "lexical";
  /** Pattern rule id, or the reader's / encoder's explanation. */
  detail: string;
}

export interface ScreeningResult {
  flagged: boolean;
  reasons: ScreeningReason[];
  /** The findings at or above the threshold, by category (what `reasons` says, with server, tool, sentence and score). */
  findings: ScreeningFinding[];
  /**
   * Findings of the rules and the reader that the lexical model set aside (lexical.ts): the tool's words as a whole
   * read as plainly honest. They do not flag the tool; they are kept so an audit can show them.
   */
  setAside?: ScreeningFinding[];
}

/** Score at which a finding counts (fit on the development half of data/screening/dev-set.jsonl). */
export const DEFAULT_SCREENING_THRESHOLD = 0.5;

/** What the screen knows about the tool's neighbours, to tell a server's own cross-references from steering. */
export interface ScreenContext {
  /** The server the tool comes from. */
  server?: string;
  /**
   * The other tools of the catalog, with their servers. A tool named in "call X first" / "use X instead" that
   * lives on the same server is the server's own guidance and is not flagged; one on another server (or one the
   * catalog does not have) is. Without it, every named tool counts as foreign.
   */
  tools?: readonly { name: string; server?: string }[];
  /** Score at which a sentence reading counts. Default `DEFAULT_SCREENING_THRESHOLD`. */
  threshold?: number;
  /** Read each sentence for what it asks (intent.ts) besides the pattern rules. Default true. */
  reading?: boolean;
  /** Weigh the whole tool's words with the lexical model (lexical.ts) besides the rules and the reader. Default true. */
  lexical?: boolean;
}
