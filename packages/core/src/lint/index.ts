/**
 * `@toolmark/core/lint` — the rules of a good tool manifest, as a function for tests and CI. The
 * `toolmark-lint` command (in `@toolmark/mcp`) runs the same rules on a JSON file or a live page.
 */
export { lintManifest, LintInputError } from './lintManifest'
export type { LintOptions, LintReport } from './lintManifest'
export { lintManifestOf } from './lintManifestOf'
export { RULES as LINT_RULES } from './rules'
export type {
  LintEntry,
  LintFinding,
  LintManifest,
  LintRule,
  LintRuleId,
  LintSeverity,
  RuleContext,
} from './rules'
