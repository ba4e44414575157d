import { reportError } from '../../events/reportError'
import { titlesOf } from '../../schema/jsonSchema'
import { redactChanges, redactValue } from '../../redaction/redact'
import { errorResult, invalid, ok } from '../../base/results'
import type { FieldChange, JsonSchema, ToolContext, ToolResult } from '../../types'
import { describeFiles } from '../values/fileValues'
import { byPath, fieldChange, type FormContext } from './formContext'
import { cloneValue, deepEqual, isPlainObject, isUnchanged, joinPath } from '../values/paths'

/** Leaf-level differences between two value trees (arrays and other values compared whole). */
function diffValues(before: unknown, after: unknown, path: string, out: FieldChange[], depth = 0) {
  const walkable = (v: unknown) => v === undefined || v === null || isPlainObject(v)
  if (
    depth < 64 &&
    (isPlainObject(before) || isPlainObject(after)) &&
    walkable(before) &&
    walkable(after)
  ) {
    const keys = new Set([
      ...(isPlainObject(before) ? Object.keys(before) : []),
      ...(isPlainObject(after) ? Object.keys(after) : []),
    ])
    for (const key of keys) {
      diffValues(
        isPlainObject(before) ? before[key] : undefined,
        isPlainObject(after) ? after[key] : undefined,
        joinPath(path, key),
        out,
        depth + 1,
      )
    }
    return
  }
  if (isUnchanged(before, after)) return
  out.push(fieldChange(path, before, after))
}

/** What `onSubmit` returned, with JSON semantics (`undefined` → `null`, dates → ISO strings). */
function toJsonSafe(value: unknown): { ok: true; value: unknown } | { ok: false; cause: unknown } {
  if (value === undefined) return { ok: true, value: null }
  try {
    const text = JSON.stringify(value)
    return { ok: true, value: text === undefined ? null : JSON.parse(text) }
  } catch (cause) {
    return { ok: false, cause }
  }
}

/**
 * `<form>.submit`: its confirmation shows the whole submission (every value, labelled, with the
 * changes against the default values marking what changed) and goes stale when the form moves;
 * its run submits the way the app does and returns `onSubmit`'s value with secrets masked.
 */
export function createSubmitTool(form: FormContext, summary: () => string) {
  const { tm, adapter, secrets } = form
  let titles: Readonly<Record<string, string>> | undefined

  /** People-facing names of every field (the element's label, else the schema's title). */
  function labels(): Record<string, string> {
    titles ??= titlesOf(form.jsonSchema as JsonSchema)
    const out: Record<string, string> = { ...titles }
    for (const step of form.steps ?? []) if (step.title) out[step.id] = step.title
    for (const field of form.readFields()) {
      const label = field.label
      if (typeof label === 'string' && label !== '') out[field.path] = label
    }
    return out
  }

  function confirmation() {
    secrets.scan()
    const values = adapter.getValues()
    const snapshot = cloneValue(values)
    const defaults =
      typeof adapter.defaultValues === 'function' ? adapter.defaultValues() : undefined
    const diff: FieldChange[] = []
    diffValues(defaults, values, '', diff)
    return {
      summary: summary(),
      // People see what is sent: files by name, size and type.
      input: describeFiles(snapshot),
      changes: redactChanges(diff.sort(byPath), secrets.scanned),
      labels: labels(),
      agentFilled: [...form.provenance.getSnapshot().keys()].sort(),
      isStale: () => !deepEqual(adapter.getValues(), snapshot),
    }
  }

  async function submit(_input: unknown, ctx: ToolContext): Promise<ToolResult<unknown>> {
    const outcome = await adapter.submit({ signal: ctx.signal })
    if (!outcome || outcome.ok !== true) {
      const issues = Array.isArray(outcome?.issues) ? outcome.issues : []
      form.followIssues(issues)
      return invalid(issues.length > 0 ? issues : [{ path: '', message: 'The form is invalid' }])
    }
    const safe = toJsonSafe(outcome.data)
    if (!safe.ok) {
      reportError(tm, {
        code: 'result_not_serializable',
        message: `The onSubmit value of form "${form.name}" is not JSON-serializable`,
        tool: form.handles.submit?.name,
        callId: ctx.callId,
        cause: safe.cause,
      })
      return errorResult('Tool failed')
    }
    // A server that echoes the record would hand the agent its secrets: mask them in any shape.
    secrets.scan()
    return ok(secrets.anywhereIn.empty ? safe.value : redactValue(safe.value, secrets.anywhereIn))
  }

  return { confirmation, submit }
}
