import { bodyOf, type DeclarativeFormLike } from '../base/registryBody'
import type { Toolmark } from '../types'

export type { DeclarativeFormLike } from '../base/registryBody'

const warned = new WeakSet<DeclarativeFormLike>()

/**
 * Records that these tools serve `form`, so the WebMCP export can leave them out while the
 * form carries Chrome's declarative `toolname` (the browser registers that form itself). Returns
 * the undo. The forms behind a registry's tools, by full tool name, live in its body.
 */
export function linkFormTools(
  tm: Toolmark,
  names: readonly string[],
  form: DeclarativeFormLike,
): () => void {
  const map = bodyOf(tm)?.declarativeForms
  if (!map) return () => {}
  for (const name of names) map.set(name, form)
  return () => {
    for (const name of names) if (map.get(name) === form) map.delete(name)
  }
}

/**
 * Whether a tool serves a form the browser already exposes through declarative WebMCP; in
 * development, says so once per form.
 */
export function hasDeclarativeTwin(tm: Toolmark, name: string): boolean {
  const form = bodyOf(tm)?.declarativeForms.get(name)
  if (!form || !form.hasAttribute('toolname')) return false
  if (tm.dev && !warned.has(form)) {
    warned.add(form)
    console.warn(
      `[toolmark] The form of "${name}" carries toolname="${form.getAttribute('toolname')}": ` +
        'the browser registers it as a WebMCP tool itself, so webmcp() leaves its form tools out. ' +
        'Remove toolname to serve the form tools (diffs, undo, redaction, confirmation) instead.',
    )
  }
  return true
}
