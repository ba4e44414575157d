import type { Manifest, ManifestEntry, ToolHints } from '../types'

/**
 * The hints a model needs before it calls. `untrustedContent` is not among them: every result of
 * such a tool says so itself (`untrustedContent: true`, first key), where the content is read.
 */
const HINT_LABELS: [keyof ToolHints, string][] = [
  ['readOnly', 'read-only'],
  ['consequential', 'asks a person'],
  ['destructive', 'destructive, asks a person'],
]

/** A shared opening shorter than this is not worth a line of its own. */
const MIN_SHARED = 24

/** One line, whatever the text holds: a description cannot forge extra tool lines. */
export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim()

const byName = (a: ManifestEntry, b: ManifestEntry) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0

/** `ticket` of `ticket.fill`; `undefined` for a name without a dot. */
const prefixOf = (name: string) => {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(0, dot) : undefined
}

/** `- name{input}: description [hints]`; `name(?)` when the input is not shown (describe first). */
function line(entry: ManifestEntry, description: string, indent: string): string {
  const hints = HINT_LABELS.filter(([hint]) => entry.hints?.[hint] === true).map(([, l]) => l)
  // destructive already says "asks a person"
  const labels = entry.hints?.destructive ? hints.filter((l) => l !== 'asks a person') : hints
  let out = `${indent}- ${entry.name}`
  out += entry.signature !== undefined ? oneLine(entry.signature) : '(?)'
  if (description) out += `: ${description}`
  if (labels.length > 0) out += ` [${labels.join(', ')}]`
  return out
}

/** A description's first sentence (up to a `.`, `!` or `?` that ends it), or all of it. */
const openingOf = (text: string) => /^.*?[.!?](?= |$)/.exec(text)?.[0] ?? text

/**
 * The whole sentences every description opens with (up to a `.`, `!` or `?` followed by a space
 * in each of them), or `''`.
 */
function sharedSentences(descriptions: string[]): string {
  let common = descriptions[0]
  for (const text of descriptions.slice(1)) {
    let i = 0
    while (i < common.length && i < text.length && common[i] === text[i]) i++
    common = common.slice(0, i)
  }
  for (let end = common.length; end > 0; end--) {
    if (
      /[.!?]/.test(common[end - 1]) &&
      descriptions.every((text) => text.length === end || text[end] === ' ')
    ) {
      return common.slice(0, end)
    }
  }
  return ''
}

/**
 * Renders a summary manifest as compact text for a model: one line per tool, sorted by name,
 * with its input signature right after its name, its description and safety hints. Tools that share a name prefix and
 * open their descriptions with the same sentences — the `fill`, `submit`, `state` and `options`
 * of one form — are listed under one line that says those sentences once. The output depends only
 * on the tools (not on `rev` or their order), so the same tools always give the same bytes and
 * prompt caches hold across pages and revisions.
 *
 * @example
 * renderSummary(client.manifest ?? { rev: 0, tools: [] })
 * // - ticket.*: The new-ticket form.
 * //   - ticket.fill{values:{title?:string},overwrite?:boolean}: Fills fields…
 * //   - ticket.submit{}: Submits this form… [asks a person]
 * // - tickets.close{id:integer}: Close a ticket. [asks a person]
 */
export function renderSummary(manifest: Manifest | undefined): string {
  const tools = [...(manifest?.tools ?? [])].sort(byName)
  if (tools.length === 0) return 'No tools are available on this page right now.'
  const lines: string[] = []
  for (let i = 0; i < tools.length;) {
    const prefix = prefixOf(tools[i].name)
    let end = i + 1
    while (prefix !== undefined && end < tools.length && prefixOf(tools[end].name) === prefix) {
      end++
    }
    const members = tools.slice(i, end)
    const descriptions = members.map((entry) => oneLine(entry.description ?? ''))
    // Members that open with the same sentence are candidates for one group (a form's tools);
    // others under the same prefix (a tool that opens the form) keep lines of their own.
    const byOpening = new Map<string, number[]>()
    descriptions.forEach((text, k) => {
      const opening = openingOf(text)
      byOpening.set(opening, [...(byOpening.get(opening) ?? []), k])
    })
    const done = new Set<number>()
    members.forEach((entry, k) => {
      if (done.has(k)) return
      const cluster = byOpening.get(openingOf(descriptions[k]))!
      const shared = cluster.length > 1 ? sharedSentences(cluster.map((c) => descriptions[c])) : ''
      if (shared.length < MIN_SHARED) {
        lines.push(line(entry, descriptions[k], ''))
        return
      }
      lines.push(`- ${prefix}.*: ${shared}`)
      for (const c of cluster) {
        done.add(c)
        lines.push(line(members[c], descriptions[c].slice(shared.length).trim(), '  '))
      }
    })
    i = end
  }
  return lines.join('\n')
}
