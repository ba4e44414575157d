// A form pays in its bundle for the code it imports, not for the code it uses: the wizard and the
// options lookups come in only through `formSteps()` and `optionLookups()`, which carry their code
// under this key. The forms code reads it from there and never imports either module.

/** Where `formSteps()` and `optionLookups()` keep the code they bring (shared by every copy). */
export const FORM_CODE: unique symbol = Symbol.for('toolmark.formCode')

/**
 * The code a value of `formSteps()` or `optionLookups()` (as `kind` says) carries; `undefined` for
 * anything else, such as a plain list of steps or a plain map of lookups.
 */
export function formCodeOf(value: unknown, kind: 'formSteps' | 'optionLookups'): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
  const code = (value as { [FORM_CODE]?: { kind?: unknown } })[FORM_CODE]
  return (value as { kind?: unknown }).kind === kind && code?.kind === kind ? code : undefined
}
