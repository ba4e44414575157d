import { isPlainObject, isThenable } from '../base/guards'
import { invalid, toolFailed, type Checked } from '../base/results'
import { validateWith, type Validated } from '../schema/standardSchema'
import type { RegistryInternals, ToolRecord } from '../tool/toolRecord'

export type { Checked } from '../base/results'

const conclude = (checked: Validated<unknown>): Checked =>
  'issues' in checked ? { result: invalid(checked.issues) } : checked

/**
 * Step 4: the input against the tool's Standard Schema, synchronously when the schema is. A tool
 * without `input` accepts only `{}` or nothing (and its run receives `undefined`). A validator
 * that throws is the tool failing: reported as `validator_threw`, answered "Tool failed".
 * `source.callId` is read only to report that.
 */
export function validateInput(
  internals: RegistryInternals,
  record: ToolRecord,
  input: unknown,
  source: { readonly callId: string },
): Checked | Promise<Checked> {
  const schema = record.def.input
  if (!schema) {
    if (input === undefined || (isPlainObject(input) && Object.keys(input).length === 0)) {
      return { value: undefined }
    }
    return { result: invalid([{ path: '', message: 'This tool takes no input: send {}' }]) }
  }
  try {
    const checked = validateWith(schema, input)
    return isThenable(checked)
      ? Promise.resolve(checked).then(conclude, (cause: unknown) =>
          threw(internals, record, source, cause),
        )
      : conclude(checked)
  } catch (cause) {
    return threw(internals, record, source, cause)
  }
}

/**
 * A validator that throws is the tool failing. Not a closure made on every call: a call whose
 * validator never throws allocates nothing for it.
 */
function threw(
  internals: RegistryInternals,
  record: ToolRecord,
  source: { readonly callId: string },
  cause: unknown,
): Checked {
  internals.toolError('validator_threw', { record, callId: source.callId }, cause)
  return { result: toolFailed() }
}
