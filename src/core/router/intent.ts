/**
 * How an agent turn's routed intent is weighted. Shared by the adapters (which build the intent from the
 * conversation) and by the evaluation's multi-turn simulation, so what `eval --simulate` measures is what an
 * agent built with the adapters gets.
 */

/** How the turn's intent is built from the conversation (see `turnIntent` in the LangChain adapter). */
export interface IntentOptions {
  /** Earlier user messages added as context, most recent first. Default 2. */
  history?: number;
  /** Weight of the most recent earlier user message; each older one gets half the previous weight. Default 0.3. */
  historyWeight?: number;
  /**
   * Weight of the latest tool results (the observations since the model's last call). Default 0.3. Added only
   * when the model stated no plan, unless `resultsWithPlan`: a result pulls toward the tool that just ran (which
   * stays bound as a sticky tool), while a stated plan names the next step.
   */
  toolResultWeight?: number;
  /** Add the tool results even when the model stated a plan. Default false. */
  resultsWithPlan?: boolean;
  /**
   * Embed the tool results for the dense channel too. Default true. False matches them lexically only (BM25
   * still reads their identifiers, paths and keys): a result is known only once its tool ran, so its embedding
   * sits on the next model call's path, and a 300-character JSON result takes several times a short sentence to
   * embed. Measured on the synthetic set with no stated plan, embedding the results is worth about 5 points of
   * recall, and nothing on the real catalog (docs/deployment.md).
   */
  embedResults?: boolean;
  /**
   * Weight of the model's stated plan (the text of its latest message after the latest user message), relative
   * to the latest user message (1). Default 6: after a tool call the current step, not the whole request, says
   * which tool is needed next; the request stays in the mix so a vague plan does not lose it.
   */
  planWeight?: number;
  /** Characters kept per part (tool results can be long; their start says what they are). Default 300. */
  maxChars?: number;
}

export const DEFAULT_INTENT: Required<IntentOptions> = {
  history: 2,
  historyWeight: 0.3,
  toolResultWeight: 0.3,
  resultsWithPlan: false,
  embedResults: true,
  planWeight: 6,
  maxChars: 300,
};


/**
 * Matches one `search_tools` call answers with (the adapters' search tool), and the evaluation's measure of what
 * that way back recovers (`searchRecovery`).
 */
export const SEARCH_K = 5;
