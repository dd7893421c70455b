export {
  screenTool,
  familyOf,
  SCREENING_RULES,
  type ScreenableTool,
  type ScreenContext,
  type ScreeningFamily,
  type ScreeningReason,
  type ScreeningResult,
  type ScreeningRule,
} from "./screen.js";
