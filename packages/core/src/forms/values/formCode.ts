// A form pays in its bundle for the code it imports, not for the code it uses: the wizard, the
// options lookups and the file fields come in only through `formSteps()`, `optionLookups()` and
// `fileFields()`, which carry their code under this key. The forms code reads it from there and
// never imports those modules.

/** Where `formSteps()`, `optionLookups()` and `fileFields()` keep the code they bring. */
export const FORM_CODE: unique symbol = Symbol.for('toolmark.formCode')

/**
 * The code a value of `formSteps()`, `optionLookups()` or `fileFields()` (as `kind` says)
 * carries; `undefined` for anything else, such as a plain list of steps or a plain map.
 */
export function formCodeOf(
  value: unknown,
  kind: 'formSteps' | 'optionLookups' | 'fileFields',
): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
  const code = (value as { [FORM_CODE]?: { kind?: unknown } })[FORM_CODE]
  return (value as { kind?: unknown }).kind === kind && code?.kind === kind ? code : undefined
}
