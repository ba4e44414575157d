import type { LintFinding, LintRuleId } from '@toolmark/core/lint'
import { elementOffsets, lineLocator, offsetOfPath } from './jsonLocation'

/** The key of a tool entry each rule is about, when the finding names no input field. */
const KEY_OF_RULE: Record<LintRuleId, string> = {
  'description-missing': 'description',
  'description-vague': 'description',
  'description-hidden-text': 'description',
  'description-injection': 'description',
  'summary-missing': 'hints',
  'readonly-name-mutates': 'hints',
  'consequential-unmarked': 'hints',
  'description-overlap': 'description',
  'field-description-missing': 'inputSchema',
  'signature-over-budget': 'inputSchema',
  'sensitive-unmarked': 'inputSchema',
  'name-unstable': 'name',
  'duplicate-name': 'name',
}

/** `cards[].cvc` → the schema keys leading to it: properties, cards, items, properties, cvc. */
function schemaPath(fieldPath: string): string[] {
  const out = ['inputSchema']
  for (const segment of fieldPath.replace(/\[\]/g, '.[]').split('.')) {
    if (segment === '[]') out.push('items')
    else if (segment !== '') out.push('properties', segment)
  }
  return out
}

/**
 * Where each finding is in a manifest file: the line and column of its input field, or of the
 * key of its tool the rule is about, or of the tool itself (the deepest of these found). Reads
 * the text once for the tools, then only the entry of each finding's tool.
 */
export function findingLocator(
  text: string,
  tools: readonly unknown[],
): (finding: LintFinding) => { line: number; column: number } | undefined {
  const starts = elementOffsets(text, 'tools')
  const locate = lineLocator(text)
  const indexes = new Map<string, number[]>()
  tools.forEach((tool, i) => {
    const name = (tool as { name: string }).name
    const list = indexes.get(name)
    if (list) list.push(i)
    else indexes.set(name, [i])
  })
  return (finding) => {
    const list = indexes.get(finding.tool)
    if (!list) return undefined
    // A duplicate is the later entry of the name; every other finding, the first.
    const index = finding.rule === 'duplicate-name' ? list[list.length - 1] : list[0]
    const start = starts[index]
    if (start === undefined) return undefined
    const path = finding.path === undefined ? [KEY_OF_RULE[finding.rule]] : schemaPath(finding.path)
    return locate(offsetOfPath(text, path, start) ?? start)
  }
}
