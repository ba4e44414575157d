import {
  LINT_RULE_IDS,
  RULES,
  type LintEntry,
  type LintFinding,
  type LintManifest,
  type LintRuleId,
  type LintSeverity,
} from './rules'

/** Options of `lintManifest`. */
export interface LintOptions {
  /** Per rule: a severity to report it with, or `'off'`. Unknown rule ids throw. */
  rules?: Partial<Record<LintRuleId, LintSeverity | 'off'>>
  /** The summary manifest's signature budget in characters (the registry's default, 240). */
  signatureBudget?: number
}

/** What `lintManifest` found. */
export interface LintReport {
  /** Findings in rule order, then tool order. */
  findings: LintFinding[]
  errors: number
  warnings: number
  /** How many tools were read. */
  tools: number
  /**
   * Rules that could not judge some tool because the manifest lacks a fact they need: a page
   * read through the bridge, or a plain `tm.manifest({ detail: 'full' })`, says neither which
   * tools have a `summary` (`summary-missing`) nor which fields they redact
   * (`sensitive-unmarked`). Empty for `lintManifestOf(tm)`, which carries both. The text rules
   * (`description-hidden-text`, `description-injection`) are listed for a tool whose schemas are
   * too deep or too large to read whole.
   */
  notChecked: LintRuleId[]
}

/** A manifest the linter cannot read, with where and how to fix it. */
export class LintInputError extends Error {
  override name = 'LintInputError'
  constructor(
    message: string,
    /** Where in the input (`tools[2].name`), when known. */
    readonly at?: string,
  ) {
    super(message)
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Checks the shape the rules rely on; anything else is the input's fault, not a finding. */
function readManifest(value: unknown): LintManifest {
  const hint =
    'Pass a full manifest: JSON.stringify(lintManifestOf(tm)), or tm.manifest({ detail: "full" }).'
  if (!isObject(value)) {
    throw new LintInputError(`A manifest must be an object with a "tools" array. ${hint}`)
  }
  if (!Array.isArray(value.tools)) {
    throw new LintInputError(`The manifest has no "tools" array. ${hint}`, 'tools')
  }
  value.tools.forEach((tool: unknown, i) => {
    const at = `tools[${i}]`
    if (!isObject(tool)) throw new LintInputError(`${at} must be an object. ${hint}`, at)
    if (typeof tool.name !== 'string') {
      throw new LintInputError(`${at}.name must be a string. ${hint}`, `${at}.name`)
    }
    for (const key of ['llmName', 'title', 'signature'] as const) {
      if (tool[key] !== undefined && typeof tool[key] !== 'string') {
        throw new LintInputError(`${at}.${key} must be a string.`, `${at}.${key}`)
      }
    }
    if (tool.description !== undefined && typeof tool.description !== 'string') {
      throw new LintInputError(`${at}.description must be a string.`, `${at}.description`)
    }
    if (tool.hints !== undefined && !isObject(tool.hints)) {
      throw new LintInputError(`${at}.hints must be an object like { "readOnly": true }.`, at)
    }
    if (tool.inputSchema !== undefined && !isObject(tool.inputSchema)) {
      throw new LintInputError(`${at}.inputSchema must be a JSON Schema object.`, at)
    }
    if (tool.summary !== undefined && typeof tool.summary !== 'boolean') {
      throw new LintInputError(`${at}.summary must be true or false.`, `${at}.summary`)
    }
    if (
      tool.sensitive !== undefined &&
      !(Array.isArray(tool.sensitive) && tool.sensitive.every((p) => typeof p === 'string'))
    ) {
      throw new LintInputError(`${at}.sensitive must be an array of input paths.`, at)
    }
  })
  return value as unknown as LintManifest
}

/**
 * Checks a full manifest against the rules of a good tool manifest: descriptions (missing, vague,
 * hidden characters, instructions to the model, overlapping), hints (a read-only tool named after
 * a change, a tool that deletes, pays or sends without asking), confirmations (`summary`), inputs
 * (field descriptions, the signature budget, secret-looking fields not marked sensitive) and
 * names (stable identifiers, no two alike). Throws `LintInputError` for a manifest it cannot read
 * and a `TypeError` for an unknown rule id; otherwise returns the findings, and the rules that
 * could not judge every tool for lack of facts (`notChecked`).
 *
 * @example
 * const report = lintManifest(lintManifestOf(tm))
 * expect(report.errors).toBe(0)
 */
export function lintManifest(manifest: unknown, options: LintOptions = {}): LintReport {
  const severities = new Map<LintRuleId, LintSeverity | 'off'>()
  for (const [id, severity] of Object.entries(options.rules ?? {})) {
    if (!(LINT_RULE_IDS as readonly string[]).includes(id)) {
      throw new TypeError(`Unknown lint rule "${id}": the rules are ${LINT_RULE_IDS.join(', ')}`)
    }
    if (severity !== 'error' && severity !== 'warning' && severity !== 'off') {
      throw new TypeError(`Lint rule "${id}" must be set to "error", "warning" or "off"`)
    }
    severities.set(id as LintRuleId, severity)
  }
  const budget = options.signatureBudget ?? 240
  if (!Number.isFinite(budget) || budget <= 0) {
    throw new TypeError('lintManifest: signatureBudget must be a positive number of characters')
  }
  const { tools } = readManifest(manifest)
  const sorted: LintEntry[] = [...tools].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  )
  const findings: LintFinding[] = []
  const notChecked: LintRuleId[] = []
  for (const rule of RULES) {
    const severity = severities.get(rule.id) ?? rule.severity
    if (severity === 'off') continue
    rule.check({
      tools: sorted,
      signatureBudget: budget,
      report: (finding) => findings.push({ rule: rule.id, severity, ...finding }),
      unknown: () => {
        if (!notChecked.includes(rule.id)) notChecked.push(rule.id)
      },
    })
  }
  const errors = findings.filter((f) => f.severity === 'error').length
  return { findings, errors, warnings: findings.length - errors, tools: sorted.length, notChecked }
}
