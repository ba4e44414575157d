import { redactChanges } from '../../redaction/redact'
import { invalid, ok, refuse } from '../../base/results'
import { toIssues, validateWith } from '../../schema/standardSchema'
import type { FieldChange, ResultIssue, ToolContext, ToolResult } from '../../types'
import { byPath, fieldChange, type FormContext } from './formContext'
import { readOnlyIndex } from './readOnlyIndex'
import type { PlannedWrite } from './formMemory'
import { createFillInput, type FillInput, type FillPlan, type FillWrite } from './fillInput'
import {
  cloneValue,
  deepEqual,
  getIn,
  isAtOrBelow,
  isUnchanged,
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

/** How the form holds these files: the adapter's way, else a file (or null) or a list. */
function fileValue(
  adapter: FormContext['adapter'],
  path: string,
  files: File[],
  multiple: boolean,
): unknown {
  return typeof adapter.fileValue === 'function'
    ? adapter.fileValue(path, files, { multiple })
    : multiple
      ? files
      : (files[0] ?? null)
}

/** The form left the page since the tools were made: a fill or its files cannot land. */
const gone = (form: FormContext) =>
  typeof form.adapter.available === 'function' && !form.adapter.available()

/**
 * The form's values for the plan's file writes, by path: every file resolves (and passes its
 * rules) before anything is written, all or nothing; else the refusal to return.
 */
async function resolveFileWrites(
  form: FormContext,
  plan: FillPlan,
  signal: AbortSignal,
): Promise<{ ok: true; values: Map<string, unknown> } | { ok: false; result: ToolResult<never> }> {
  const fileWrites = plan.writes.filter(
    (w): w is Extract<FillWrite, { op: 'set' }> => w.op === 'set' && w.file !== undefined,
  )
  const values = new Map<string, unknown>()
  // File writes come only from declared file fields, so the code of fileFields() is there.
  if (fileWrites.length === 0 || !form.fileCode) return { ok: true, values }
  const requests = fileWrites
    .filter((w) => w.file!.specs.length > 0)
    .map((w) => ({
      path: w.path,
      rules: w.file!.rules,
      specs: w.file!.specs,
      list: w.file!.list,
    }))
  const outcome = await form.fileCode.resolve(form.tm.files, requests, signal)
  if (!outcome.ok) return outcome
  for (const w of fileWrites) {
    const files = outcome.files.get(w.path) ?? []
    values.set(w.path, fileValue(form.adapter, w.path, files, w.file!.rules.multiple === true))
  }
  if (gone(form)) {
    return {
      ok: false,
      result: refuse('stale', `The form "${form.name}" is no longer on the page`),
    }
  }
  return { ok: true, values }
}

/** What a write leaves in its field; a removal names, in `issues`, indexes the list lacks. */
function afterWrite(
  write: FillWrite,
  before: unknown,
  files: ReadonlyMap<string, unknown>,
  issues: ResultIssue[],
): unknown {
  if (write.op === 'set') return write.file ? files.get(write.path) : write.value
  const base = Array.isArray(before) ? before : []
  if (write.op === 'append') return [...base, ...cloneValue(write.items)]
  write.indices.forEach((index, i) => {
    if (index >= base.length) {
      issues.push({
        path: `values.${write.path}.$remove.${i}`,
        message: `No item at index ${index} (the list has ${base.length})`,
      })
    }
  })
  const removed = new Set(write.indices)
  return base.filter((_, i) => !removed.has(i))
}

/**
 * The plan's writes against the form's current values: those that change nothing are dropped,
 * and those the form or the user keeps are skipped (`readonly`, `user_edited`).
 */
function planWrites(
  plan: FillPlan,
  current: unknown,
  files: ReadonlyMap<string, unknown>,
  isEdited: (path: string) => boolean,
  isReadOnly: (path: string) => boolean,
): { planned: PlannedWrite[]; skipped: SkippedField[]; issues: ResultIssue[] } {
  const issues: ResultIssue[] = []
  const skipped: SkippedField[] = []
  const planned: PlannedWrite[] = []
  for (const write of plan.writes) {
    const before = getIn(current, write.segments)
    const after = afterWrite(write, before, files, issues)
    if (isUnchanged(before, after)) continue
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
  return { planned, skipped, issues }
}

/**
 * The merged form validated, all or nothing: issues on what the fill touches refuse it (the
 * result to return); the others are `remaining`. After an asynchronous schema, writes whose
 * field moved or turned readonly meanwhile are dropped into `skipped`.
 */
async function checkMerged(
  form: FormContext,
  current: unknown,
  planned: PlannedWrite[],
  skipped: SkippedField[],
): Promise<
  | { refused: ToolResult<never> }
  | { refused?: undefined; planned: PlannedWrite[]; remaining: ResultIssue[] }
> {
  let remaining: ResultIssue[] = []
  if (planned.length === 0) return { planned, remaining }
  const merged = setManyIn(
    current,
    planned.map((p) => [p.write.segments, p.after] as const),
  )
  const pending = form.schema['~standard'].validate(merged)
  const checked = pending instanceof Promise ? await pending : pending
  if (checked.issues) {
    remaining = toIssues(checked.issues)
    const counted = countedIssues(remaining, planned)
    if (counted.length > 0) return { refused: invalid(counted) }
  }
  if (!(pending instanceof Promise)) return { planned, remaining }
  // An asynchronous schema leaves room for typing: a field that moved since is the user's,
  // and one that turned readonly since is left alone.
  const now = form.adapter.getValues()
  const turnedReadOnly = readOnlyIndex(form.adapter)
  const kept = planned.filter((p) => {
    if (turnedReadOnly(p.write.path)) {
      skipped.push({ path: p.write.path, reason: 'readonly' })
      return false
    }
    if (deepEqual(getIn(now, p.write.segments), p.before)) return true
    skipped.push({ path: p.write.path, reason: 'user_edited' })
    return false
  })
  return { planned: kept, remaining }
}

/** A fill's result: its changes and skips sorted, the form's secrets masked. */
function fillResult(
  form: FormContext,
  changes: FieldChange[],
  skipped: SkippedField[],
): ToolResult<FillResult> {
  const { scanned } = form.secrets
  changes.sort(byPath)
  // Most forms have no secrets: then the changes are returned as they are (they are fresh copies).
  return ok({
    changes: scanned.empty ? changes : redactChanges(changes, scanned),
    skipped: skipped.sort(byPath),
  })
}

/**
 * Undoes a fill: restores each field that still holds what the fill wrote, leaving the ones a
 * person changed, reverted or locked since.
 */
async function undoFill(
  form: FormContext,
  planned: PlannedWrite[],
): Promise<ToolResult<FillResult>> {
  const { adapter, edits, secrets } = form
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
  return fillResult(form, changes, skipped)
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

  async function fill(input: FillInput, ctx: ToolContext): Promise<ToolResult<FillResult>> {
    let plan = fillInput.planOf(input)
    if (!plan) {
      const checked = await validateWith(fillInput.schema, input)
      if ('issues' in checked) return invalid(checked.issues)
      plan = fillInput.planOf(checked.value)!
    }
    if (gone(form)) return refuse('stale', `The form "${form.name}" is no longer on the page`)
    const files = await resolveFileWrites(form, plan, ctx.signal)
    if (!files.ok) return files.result
    secrets.scan()
    const current = adapter.getValues()
    const isEdited = overlapIndex(edits.editedPaths(current))
    // Checked now, not when the tools were made: a control can turn readonly or disabled since.
    const isReadOnly = readOnlyIndex(adapter)
    const planning = planWrites(plan, current, files.values, isEdited, isReadOnly)
    const { skipped } = planning
    if (planning.issues.length > 0) return invalid(planning.issues)

    const checked = await checkMerged(form, current, planning.planned, skipped)
    if (checked.refused) return checked.refused
    const { planned, remaining } = checked
    if (ctx.signal.aborted) throw ctx.signal.reason

    const changes: FieldChange[] = []
    if (planned.length > 0) {
      await adapter.setValues(new Map(planned.map((p) => [p.write.path, cloneValue(p.after)])), {
        source: 'agent',
      })
      edits.remember(planned)
      form.provenance.record(planned, ctx)
      for (const p of planned) changes.push(fieldChange(p.write.path, p.before, p.after))
      ctx.registerUndo(() => undoFill(form, planned))
      form.followIssues(remaining)
    }
    return fillResult(form, changes, skipped)
  }

  return { schema: fillInput.schema, hasArrays: fillInput.hasArrays, fill }
}
