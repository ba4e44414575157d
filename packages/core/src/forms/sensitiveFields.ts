import type { FormField } from './types'

const SECRET_AUTOCOMPLETE = new Set(['current-password', 'new-password', 'one-time-code'])

/** An attribute of an element (a property of a plain object); `undefined` when absent. */
const readAttribute = (element: object, name: string): string | undefined => {
  const getAttribute = (element as { getAttribute?: unknown }).getAttribute
  if (typeof getAttribute === 'function') {
    try {
      const value: unknown = getAttribute.call(element, name)
      return typeof value === 'string' ? value : undefined
    } catch {
      return undefined
    }
  }
  const property = (element as Record<string, unknown>)[name]
  return typeof property === 'string' ? property : undefined
}

/**
 * Whether a form element holds a secret: `type="password"`, or an `autocomplete` token of
 * `cc-*`, `current-password`, `new-password` or `one-time-code`. Duck-typed, so core needs no DOM.
 */
export function isSensitiveElement(element: unknown): boolean {
  if (element === null || typeof element !== 'object') return false
  const type = readAttribute(element, 'type')
  if (type?.toLowerCase() === 'password') return true
  const autocomplete = readAttribute(element, 'autocomplete')
  if (!autocomplete) return false
  return autocomplete
    .toLowerCase()
    .split(/\s+/)
    .some((token) => token.startsWith('cc-') || SECRET_AUTOCOMPLETE.has(token))
}

/** Whether a field is sensitive: marked so by its adapter, or its element holds a secret. */
export const isSensitiveField = (field: FormField): boolean =>
  field.sensitive === true || isSensitiveElement(field.element)

/**
 * The pattern a sensitive field stands for: array indexes become `[]`, so a password found in
 * one row of a list covers every row (`cards.0.cvc` → `cards[].cvc`).
 */
export const fieldPattern = (path: string): string =>
  path
    .split('.')
    .map((segment) => (/^\d+$/.test(segment) ? '[]' : segment))
    .join('.')
    .replace(/\.\[\]/g, '[]')

/**
 * The patterns of a fill's input for form patterns: `values.` in front, and the `$append`
 * form of the first array in each (`cards[].cvc` → `values.cards.$append[].cvc`).
 */
export function fillInputPatterns(patterns: readonly string[]): string[] {
  const out: string[] = []
  for (const pattern of patterns) {
    out.push(`values.${pattern}`)
    const at = pattern.indexOf('[]')
    if (at > 0) out.push(`values.${pattern.slice(0, at)}.$append${pattern.slice(at)}`)
  }
  return out
}
