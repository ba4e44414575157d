import { FORM_CODE } from '../values/formCode'
import { withFileSchemas } from './fileInputSchema'
import { fileRulesProblem } from './fileRules'
import type { FileFieldRules } from '../values/fileValues'
import { isPlainObject } from '../values/paths'
import { fileMeans, resolveFiles } from './resolveFiles'
import type { FileFields } from '../values/types'

/**
 * The code `fileFields()` brings, under `FORM_CODE`: checks the rules, describes the fields in
 * the fill's input schema, and resolves `{ ref }` and `{ url }` files (the hardened fetch).
 */
export interface FileFieldsCode {
  readonly kind: 'fileFields'
  readonly problem: typeof fileRulesProblem
  readonly means: typeof fileMeans
  readonly inputSchema: typeof withFileSchemas
  readonly resolve: typeof resolveFiles
}

const FILES_CODE: FileFieldsCode = {
  kind: 'fileFields',
  problem: fileRulesProblem,
  means: fileMeans,
  inputSchema: withFileSchemas,
  resolve: resolveFiles,
}

/** A frozen copy of a field's rules; anything else is kept for `fileRulesProblem` to name. */
const frozenRules = (rules: unknown) => {
  if (!isPlainObject(rules)) return rules
  const accept = Array.isArray(rules.accept) ? Object.freeze([...rules.accept]) : rules.accept
  return Object.freeze({ ...rules, ...(accept !== undefined ? { accept } : {}) })
}

/**
 * The file fields of a form, by field path: what each accepts (`accept`, `maxBytes`, `multiple`,
 * `maxFiles`). Agents fill them with `{ ref }` or `{ url }`, as `createToolmark({ files })`
 * allows. Pass the result as the `files` of `createFormTools`, `useFormTool` or
 * `useDomFormTool`; it brings the code that checks, resolves and fetches files, so a form without
 * file fields does not bundle it. The rules are copied and frozen, and checked against the form's
 * schema when the tools are registered.
 *
 * @example
 * const tools = createFormTools(tm, adapter, {
 *   name: 'ticket',
 *   description: 'The new-ticket form',
 *   schema: ticketSchema,
 *   files: fileFields({ attachment: { accept: ['image/png', '.pdf'], maxBytes: 5_000_000 } }),
 * })
 * await tm.call('ticket.fill', { values: { attachment: { ref: 'paste-1' } } })
 */
export function fileFields(rules: Readonly<Record<string, FileFieldRules>>): FileFields {
  // Anything but a map is kept as it is, for the form's checks to name.
  const copy = isPlainObject(rules)
    ? Object.freeze(
        Object.fromEntries(Object.entries(rules).map(([path, r]) => [path, frozenRules(r)])),
      )
    : rules
  return Object.freeze({
    kind: 'fileFields',
    rules: copy as FileFields['rules'],
    [FORM_CODE]: FILES_CODE,
  })
}
