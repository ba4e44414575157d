import { redactValue } from '../../redaction/redact'
import { ok } from '../../base/results'
import { validateWith } from '../../schema/standardSchema'
import type { ToolResult } from '../../types'
import type { FormContext } from './formContext'
import { describeFiles } from '../values/fileValues'
import { isAtOrBelow } from '../values/paths'
import type { FormStateResult } from '../values/types'

/**
 * `<form>.state`: the current values (secrets masked), the validation issues of the whole form,
 * the paths the user edited and, for a wizard, whether each step is complete.
 */
export function createStateTool(form: FormContext) {
  const { adapter, secrets, steps } = form
  return async function state(): Promise<ToolResult<FormStateResult>> {
    secrets.scan()
    const values = adapter.getValues()
    const checked = await validateWith(form.schema, values)
    const issues = 'issues' in checked ? checked.issues : []
    const out: FormStateResult = {
      values: redactValue(describeFiles(values), secrets.paths),
      issues,
      edited: form.edits.editedPaths(values),
    }
    if (steps) {
      out.steps = steps.map((step) => ({
        id: step.id,
        ...(step.title ? { title: step.title } : {}),
        complete: !issues.some((issue) => isAtOrBelow(issue.path, step.id)),
      }))
    }
    return ok(out)
  }
}
