import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { LINT_RULES, type LintFinding, type LintReport } from '@toolmark/core/lint'
import { stringifyForTerminal } from './escapeControls'

/** Options of `formatSarif`. */
export interface SarifOptions {
  /** The version of toolmark-lint, for the run's tool. */
  version: string
  /** The manifest file as given on the command line; none for a page or stdin. */
  file?: string
  /** Where a finding is in that file, when known (1-based). */
  locate?: (finding: LintFinding) => { line: number; column: number } | undefined
}

/** A file path as a SARIF artifact URI: relative paths stay relative (to the working directory). */
function artifactUri(file: string): string {
  if (path.isAbsolute(file)) return pathToFileURL(file).href
  return file.split(path.sep).map(encodeURIComponent).join('/')
}

/**
 * The report as a SARIF 2.1.0 log, for code scanning: one run of `toolmark-lint` with every rule
 * (its id, description and default level) and one result per finding — its rule, level, message
 * with the fix, the tool (and input field) as a logical location, and the line and column in the
 * manifest file when the input was one. Rules that could not be checked are notifications.
 */
export function formatSarif(report: LintReport, options: SarifOptions): string {
  const ruleIndex = new Map(LINT_RULES.map((rule, i) => [rule.id, i]))
  const uri = options.file === undefined ? undefined : artifactUri(options.file)
  const results = report.findings.map((finding) => {
    const region = uri === undefined ? undefined : options.locate?.(finding)
    const location = {
      ...(uri === undefined
        ? {}
        : {
            physicalLocation: {
              artifactLocation: { uri },
              ...(region ? { region: { startLine: region.line, startColumn: region.column } } : {}),
            },
          }),
      logicalLocations: [
        finding.path === undefined
          ? { name: finding.tool, fullyQualifiedName: finding.tool, kind: 'function' }
          : {
              name: finding.path,
              fullyQualifiedName: `${finding.tool}(${finding.path})`,
              kind: 'parameter',
            },
      ],
    }
    return {
      ruleId: finding.rule,
      ruleIndex: ruleIndex.get(finding.rule),
      level: finding.severity,
      message: { text: `${finding.message}. Fix: ${finding.fix}` },
      locations: [location],
    }
  })
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'toolmark-lint',
            version: options.version,
            rules: LINT_RULES.map((rule) => ({
              id: rule.id,
              shortDescription: { text: rule.description },
              defaultConfiguration: { level: rule.severity },
            })),
          },
        },
        invocations: [
          {
            executionSuccessful: true,
            toolExecutionNotifications: report.notChecked.map((id) => ({
              level: 'warning',
              message: {
                text: `${id} was not checked: the input does not say which tools have a summary or which fields they redact. Lint JSON.stringify(lintManifestOf(tm)) to check it.`,
              },
              associatedRule: { id, index: ruleIndex.get(id) },
            })),
          },
        ],
        ...(uri === undefined ? {} : { artifacts: [{ location: { uri } }] }),
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  }
  return `${stringifyForTerminal(log)}\n`
}
