import { AgentText } from '../confirm-dialog/AgentText'

/** JSON for people: indented, and never throws on what JSON cannot show. */
export function toJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    return String(value)
  }
}

/**
 * A value as indented JSON in a scroll box that keyboard users can focus and scroll; invisible and
 * bidirectional characters in it show as marks.
 */
export function JsonBlock({ value, id }: { value: unknown; id?: string }) {
  return (
    <pre id={id} data-part="json" tabIndex={0}>
      <AgentText text={toJson(value)} dir="ltr" />
    </pre>
  )
}
