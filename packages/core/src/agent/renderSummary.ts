import type { Manifest, ManifestEntry, ToolHints } from '../types'

const HINT_LABELS: [keyof ToolHints, string][] = [
  ['readOnly', 'read-only'],
  ['consequential', 'needs approval'],
  ['destructive', 'destructive, needs approval'],
  ['untrustedContent', 'untrusted content'],
]

/** One line, whatever the text holds: a description cannot forge extra tool lines. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim()

const byName = (a: ManifestEntry, b: ManifestEntry) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0

function line(entry: ManifestEntry): string {
  const hints = HINT_LABELS.filter(([hint]) => entry.hints?.[hint] === true).map(([, l]) => l)
  // destructive already says "needs approval"
  const labels = entry.hints?.destructive ? hints.filter((l) => l !== 'needs approval') : hints
  let out = `- ${entry.name}`
  const description = oneLine(entry.description ?? '')
  if (description) out += `: ${description}`
  if (labels.length > 0) out += ` [${labels.join('; ')}]`
  out +=
    entry.signature !== undefined
      ? ` input: ${oneLine(entry.signature)}`
      : ' input: (call page_describe first)'
  return out
}

/**
 * Renders a summary manifest as compact text for a model: one line per tool, sorted by name,
 * with its description, safety hints and input signature. The output depends only on the tools
 * (not on `rev` or their order), so the same tools always give the same bytes and prompt caches
 * hold across pages and revisions.
 *
 * @example
 * renderSummary(client.manifest ?? { rev: 0, tools: [] })
 * // - tickets.close: Close a ticket. [needs approval] input: { id: string }
 */
export function renderSummary(manifest: Manifest | undefined): string {
  const tools = [...(manifest?.tools ?? [])].sort(byName)
  if (tools.length === 0) return 'No tools are available on this page right now.'
  return tools.map(line).join('\n')
}
