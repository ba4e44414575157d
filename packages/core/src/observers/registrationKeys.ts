import type { ToolDefinition, ToolHints } from '../types'

/**
 * Values compared by what they say rather than by identity, so that an inline
 * `hints={{ readOnly: true }}` or `sensitive={['password']}` written in a component does not count
 * as a change on every render.
 */

const HINTS = ['readOnly', 'consequential', 'destructive', 'untrustedContent'] as const

/** The hints that are true, as a string: equal strings, equal hints. `''` for none. */
export function hintsKey(hints: ToolHints | undefined): string {
  if (!hints) return ''
  let key = ''
  for (const hint of HINTS) if (hints[hint]) key = key ? `${key},${hint}` : hint
  return key
}

/** The hints a {@link hintsKey} stands for; `undefined` for `''`. */
export function keyToHints(key: string): ToolHints | undefined {
  if (!key) return undefined
  const hints: ToolHints = {}
  for (const hint of key.split(',')) hints[hint as keyof ToolHints] = true
  return hints
}

/** Marks a `sensitive` function: it is read at every use, so a new one is no change. */
export const SENSITIVE_FUNCTION = '(function)'

/** A tool's `sensitive` paths compared by value; a function compares equal to any function. */
export function sensitiveKey(sensitive: ToolDefinition['sensitive'] | readonly string[]): string {
  if (typeof sensitive === 'function') return SENSITIVE_FUNCTION
  return sensitive && sensitive.length > 0 ? JSON.stringify(sensitive) : ''
}
