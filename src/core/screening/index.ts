export {
  screenTool,
  familyOf,
  SCREENING_RULES,
  DEFAULT_SCREENING_THRESHOLD,
  type ScreenableTool,
  type ScreenContext,
  type ScreeningFamily,
  type ScreeningFinding,
  type ScreeningReason,
  type ScreeningResult,
  type ScreeningRule,
} from "./screen.js";
export { SCREENING_CATEGORIES, CATEGORY_DESCRIPTIONS, RULE_CATEGORY, isScreeningCategory, type ScreeningCategory } from "./categories.js";
export { resolveScreeningPolicy, SCREENING_ACTIONS, type ScreeningAction, type ScreeningPolicy, type CategoryPolicy, type ResolvedScreeningPolicy } from "./policy.js";
export { readSentence, type SentenceContext, type SentenceReading } from "./intent.js";
export {
  screenTools,
  ENCODER_ALONE_MARGIN,
  ENCODER_CONFIRM_MARGIN,
  type ScreenToolsOptions,
  type ScreenToolsEntry,
  type ScreeningReport,
  type ScreeningJudge,
} from "./screen-tools.js";
