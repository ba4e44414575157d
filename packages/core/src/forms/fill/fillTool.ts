import { redactChanges } from '../../redaction/redact'
import { invalid, ok, refuse } from '../../base/results'
import { toIssues, validateWith } from '../../schema/standardSchema'
import type { FieldChange, ResultIssue, ToolContext, ToolResult } from '../../types'
import { byPath, fieldChange, type FormContext } from './formContext'
import { readOnlyIndex } from './readOnlyIndex'
import type { PlannedWrite } from './formMemory'
import { createFillInput, type FillInput, type FillWrite } from './fillInput'
import {
  cloneValue,
  deepEqual,
  getIn,
  isAtOrBelow,
  isNoValue,
  joinPath,
  overlapIndex,
  setManyIn,
} from '../values/paths'
import type { FillResult, SkippedField } from '../values/types'

/**
 * The issue paths that count for a write — exactly its path, or also below it — and where
 * each points in the fill's input (`values.items.$append.0.qty`).
 */
function touchesOf(p: PlannedWrite): Array<{ path: string; below: boolean; input: string }> {
  const { write } = p
  const input = `values.${write.path}`
  if (write.op === 'set') return [{ path: write.path, below: true, input }]
  if (write.op === 'remove') {
    return [{ path: write.path, below: false, input: `${input}.$remove` }]
  }
  const base = Array.isArray(p.before) ? p.before.length : 0
  return [
    { path: write.path, below: false, input: `${input}.$append` },
    ...write.items.map((_, i) => ({
      path: joinPath(write.path, base + i),
      below: true,
      input: `${input}.$append.${i}`,
    })),
  ]
}

/** Issues of the merged form that fall on what this fill touched, at the input's paths. */
function countedIssues(issues: ResultIssue[], planned: PlannedWrite[]): ResultIssue[] {
  const out: ResultIssue[] = []
  const seen = new Set<string>()
  for (const issue of issues) {
    for (const p of planned) {
      const touch = touchesOf(p).find((t) =>
        t.below ? isAtOrBelow(issue.path, t.path) && issue.path !== '' : issue.path === t.path,
      )
      if (!touch) continue
      const path = touch.input + issue.path.slice(touch.path.length)
      const key = `${path}\n${issue.message}`
      if (!seen.has(key)) {
        seen.add(key)
        out.push({ path, message: issue.message })
      }
      break
    }
  }
  return out.sort(byPath)
}

/**
 * `<form>.fill` and its undo: plans the writes of a checked input, leaves what the user edited
 * alone, validates the merged form (all or nothing), writes once, remembers the writes as the
 * agent's and registers the undo.
 */
export function createFillTool(form: FormContext) {
  const { tm, adapter, edits, secrets } = form
  const fillInput = createFillInput(form.root, {
    nodes: () => tm.limits.fillNodes,
    depth: () => tm.limits.messageDepth,
    steps: form.steps?.map((s) => s.id),
    files: form.files,
  })

  /** How the form holds these files: the adapter's way, else a file (or null) or a list. */
  const fileValue = (path: string, files: File[], multiple: boolean): unknown =>
    typeof adapter.fileValue === 'function'
      ? adapter.fileValue(path, files, { multiple })
      : multiple
        ? files
        : (files[0] ?? null)
  // Most forms have no secrets: then the changes are returned as they are (they are fresh copies).
  const redact = (changes: FieldChange[]) =>
    secrets.scanned.empty ? changes : redactChanges(changes, secrets.scanned)

  async function fill(input: FillInput, ctx: ToolContext): Promise<ToolResult<FillResult>> {
    let plan = fillInput.planOf(input)
    if (!plan) {
      const checked = await validateWith(fillInput.schema, input)
      if ('issues' in checked) return invalid(checked.issues)
      plan = fillInput.planOf(checked.value)!
    }
    if (typeof adapter.available === 'function' && !adapter.available()) {
      return refuse('stale', `The form "${form.name}" is no longer on the page`)
    }
    // Every file resolves (and passes its rules) before anything is written: all or nothing.
    const fileWrites = plan.writes.filter(
      (w): w is Extract<FillWrite, { op: 'set' }> => w.op === 'set' && w.file !== undefined,
    )
    const resolved = new Map<string, unknown>()
    // File writes come only from declared file fields, so the code of fileFields() is there.
    if (fileWrites.length > 0 && form.fileCode) {
      const requests = fileWrites
        .filter((w) => w.file!.specs.length > 0)
        .map((w) => ({
          path: w.path,
          rules: w.file!.rules,
          specs: w.file!.specs,
          list: w.file!.list,
        }))
      const outcome = await form.fileCode.resolve(tm.files, requests, ctx.signal)
      if (!outcome.ok) return outcome.result
      for (const w of fileWrites) {
        const files = outcome.files.get(w.path) ?? []
        resolved.set(w.path, fileValue(w.path, files, w.file!.rules.multiple === true))
      }
      if (typeof adapter.available === 'function' && !adapter.available()) {
        return refuse('stale', `The form "${form.name}" is no longer on the page`)
      }
    }
    secrets.scan()
    const current = adapter.getValues()
    const isEdited = overlapIndex(edits.editedPaths(current))
    // Checked now, not when the tools were made: a control can turn readonly or disabled since.
    const isReadOnly = readOnlyIndex(adapter)
    const issues: ResultIssue[] = []
    const skipped: SkippedField[] = []
    let planned: PlannedWrite[] = []

    for (const write of plan.writes) {
      const before = getIn(current, write.segments)
      let after: unknown
      if (write.op === 'set') {
        after = write.file ? resolved.get(write.path) : write.value
      } else {
        const base = Array.isArray(before) ? before : []
        if (write.op === 'append') {
          after = [...base, ...cloneValue(write.items)]
        } else {
          write.indices.forEach((index, i) => {
            if (index >= base.length) {
              issues.push({
                path: `values.${write.path}.$remove.${i}`,
                message: `No item at index ${index} (the list has ${base.length})`,
              })
            }
          })
          const removed = new Set(write.indices)
          after = base.filter((_, i) => !removed.has(i))
        }
      }
      if (deepEqual(before, after) || (isNoValue(before) && isNoValue(after))) continue
      // What the form does not let change is never written, `overwrite` or not.
      if (isReadOnly(write.path)) {
        skipped.push({ path: write.path, reason: 'readonly' })
        continue
      }
      // Appending leaves every existing item as the user left it; other writes replace.
      const userEdited = write.op !== 'append' && isEdited(write.path)
      if (userEdited && !plan.overwrite) {
        skipped.push({ path: write.path, reason: 'user_edited' })
        continue
      }
      planned.push({ write, before, after, remembered: [] })
    }
    if (issues.length > 0) return invalid(issues)

    let remaining: ResultIssue[] = []
    if (planned.length > 0) {
      const merged = setManyIn(
        current,
        planned.map((p) => [p.write.segments, p.after] as const),
      )
      const pending = form.schema['~standard'].validate(merged)
      const checked = pending instanceof Promise ? await pending : pending
      if (checked.issues) {
        remaining = toIssues(checked.issues)
        const counted = countedIssues(remaining, planned)
        if (counted.length > 0) return invalid(counted)
      }
      if (pending instanceof Promise) {
        // An asynchronous schema leaves room for typing: a field that moved since is the user's,
        // and one that turned readonly since is left alone.
        const now = adapter.getValues()
        const turnedReadOnly = readOnlyIndex(adapter)
        planned = planned.filter((p) => {
          if (turnedReadOnly(p.write.path)) {
            skipped.push({ path: p.write.path, reason: 'readonly' })
            return false
          }
          if (deepEqual(getIn(now, p.write.segments), p.before)) return true
          skipped.push({ path: p.write.path, reason: 'user_edited' })
          return false
        })
      }
    }
    if (ctx.signal.aborted) throw ctx.signal.reason

    const changes: FieldChange[] = []
    if (planned.length > 0) {
      await adapter.setValues(new Map(planned.map((p) => [p.write.path, cloneValue(p.after)])), {
        source: 'agent',
      })
      edits.remember(planned)
      form.provenance.record(planned, ctx)
      for (const p of planned) changes.push(fieldChange(p.write.path, p.before, p.after))
      const done = planned
      ctx.registerUndo(() => undo(done))
      form.followIssues(remaining)
    }
    return ok({ changes: redact(changes.sort(byPath)), skipped: skipped.sort(byPath) })
  }

  async function undo(planned: PlannedWrite[]): Promise<ToolResult<FillResult>> {
    secrets.scan()
    const current = adapter.getValues()
    const isEdited = overlapIndex(edits.editedPaths(current))
    const isReadOnly = readOnlyIndex(adapter)
    const restore = new Map<string, unknown>()
    const changes: FieldChange[] = []
    const skipped: SkippedField[] = []
    for (const p of planned) {
      const { path } = p.write
      // A person reverted this field: what it holds is theirs, even if it matches the fill.
      if (p.reverted) {
        skipped.push({ path, reason: 'reverted' })
        continue
      }
      if (!deepEqual(getIn(current, p.write.segments), p.after)) {
        const reason = isEdited(path) ? 'user_edited' : 'changed'
        skipped.push({ path, reason })
        continue
      }
      if (isReadOnly(path)) {
        skipped.push({ path, reason: 'readonly' })
        continue
      }
      restore.set(path, cloneValue(p.before))
      changes.push(fieldChange(path, p.after, p.before))
    }
    if (restore.size > 0) {
      await adapter.setValues(restore, { source: 'undo' })
      const restored = planned.filter((p) => restore.has(p.write.path))
      edits.forget(restored)
      form.provenance.undone(restored)
      if (form.steps) {
        const checked = await validateWith(form.schema, adapter.getValues())
        form.followIssues('issues' in checked ? checked.issues : [])
      }
    }
    return ok({ changes: redact(changes.sort(byPath)), skipped: skipped.sort(byPath) })
  }

  return { schema: fillInput.schema, hasArrays: fillInput.hasArrays, fill }
}
