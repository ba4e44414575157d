import { isPlainObject } from '../base/guards'

/**
 * A tool output with `untrustedContent: true` as its **first** key, so a model reads the marker
 * before any page content. An object keeps its keys; anything else is wrapped as `{ value }`.
 */
export function markUntrusted(output: unknown): Record<string, unknown> {
  if (!isPlainObject(output)) return { untrustedContent: true, value: output }
  const { untrustedContent: _old, ...rest } = output
  return { untrustedContent: true, ...rest }
}
