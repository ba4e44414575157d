import type { LintReport } from '@toolmark/core/lint'
import { escapeControls } from './escapeControls'

/**
 * The report for people: each finding with its severity, rule, tool, message and fix, then the
 * counts and the rules that could not be checked. Every text from the manifest is escaped.
 */
export function formatText(source: string, report: LintReport): string {
  const lines: string[] = []
  for (const f of report.findings) {
    const where = f.path ? `${f.tool} (${f.path})` : f.tool
    lines.push(`${f.severity.padEnd(7)} ${f.rule.padEnd(26)} ${escapeControls(where)}`)
    lines.push(`        ${escapeControls(f.message)}`)
    lines.push(`        fix: ${escapeControls(f.fix)}`)
  }
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  lines.push(
    `${escapeControls(source)}: ${plural(report.tools, 'tool')}, ${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}`,
  )
  if (report.notChecked.length > 0) {
    lines.push(
      `not checked (the input does not say which tools have a summary or which fields they redact, lint JSON.stringify(lintManifestOf(tm)) for these; or a schema is too deep or too large to read whole): ${report.notChecked.join(', ')}`,
    )
  }
  return `${lines.join('\n')}\n`
}
