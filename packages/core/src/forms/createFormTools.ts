import { reportError } from '../createToolmark'
import { compileSensitive, redactChanges, redactValue } from '../redact'
import { errorResult, invalid, ok } from '../results'
import { isStandardSchema, toIssues, validateWith } from '../schema'
import type {
  FieldChange,
  JsonSchema,
  ResultIssue,
  StandardSchemaV1,
  ToolContext,
  ToolDefinition,
  ToolHandle,
  Toolmark,
  ToolResult,
} from '../types'
import { createFillInput, type FillInput, type FillWrite } from './fillInput'
import { compileFormSchema, fillInputSchema, formJsonSchema } from './formSchema'
import {
  cloneValue,
  deepEqual,
  getIn,
  isAtOrBelow,
  isNoValue,
  isPlainObject,
  joinPath,
  overlapIndex,
  setManyIn,
  splitPath,
} from './paths'
import { fieldPattern, fillInputPatterns, isSensitiveField } from './sensitiveFields'
import type {
  FillResult,
  FormAdapter,
  FormField,
  FormMemory,
  FormOption,
  FormOptionsResult,
  FormStateResult,
  FormTools,
  FormToolsOptions,
  SkippedField,
} from './types'

/** Bumped on every change to a memory, so a baseline built from it can be reused until then. */
const memoryVersions = new WeakMap<FormMemory, number>()

/**
 * A fresh memory for one form. Pass the same memory to every `createFormTools` call of that
 * form (the React binding keeps one per mounted form) so re-registering forgets nothing.
 */
export function createFormMemory(): FormMemory {
  return { agentWrites: new Map(), sensitive: new Set() }
}

/** A write a fill will make: the path's value before and after. */
interface Planned {
  readonly write: FillWrite
  readonly before: unknown
  readonly after: unknown
  /** Memory entries the fill replaced, restored by undo. */
  remembered: ReadonlyArray<readonly [string, unknown]>
}

const byPath = <T extends { path: string }>(a: T, b: T) =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : 0

/** A `FieldChange` with "no value" sides left out. */
function fieldChange(path: string, before: unknown, after: unknown): FieldChange {
  const change: FieldChange = { path }
  if (!isNoValue(before)) change.before = before
  if (!isNoValue(after)) change.after = after
  return change
}

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
  if (deepEqual(before, after) || (isNoValue(before) && isNoValue(after))) return
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

class TimeoutError extends Error {
  override name = 'TimeoutError'
}

const OPTION_VALUE_TYPES = new Set(['string', 'number', 'boolean'])

/**
 * Registers a form's tools on a registry: `<name>.fill`, `<name>.submit`, `<name>.state`, and
 * `<name>.options` when a field declares options. The adapter only reads and writes the form;
 * this decides what a fill may overwrite, validates, redacts and undoes.
 *
 * @example
 * const tools = createFormTools(tm, adapter, {
 *   name: 'ticket',
 *   description: 'The new-ticket form',
 *   schema: ticketSchema,
 *   sensitive: ['apiKey'],
 * })
 * await tm.call('ticket.fill', { values: { title: 'Printer on fire' } })
 * // { status: 'ok', data: { changes: [{ path: 'title', after: 'Printer on fire' }], skipped: [] } }
 * tools.dispose()
 */
export function createFormTools<TValues = Record<string, unknown>>(
  tm: Toolmark,
  adapter: FormAdapter<TValues>,
  options: FormToolsOptions<TValues>,
): FormTools {
  const label = typeof options?.name === 'string' ? options.name : ''
  const dead = (): FormTools => ({
    names: { fill: `${label}.fill`, submit: `${label}.submit`, state: `${label}.state` },
    editedPaths: () => [],
    isSensitive: () => false,
    dispose() {},
  })
  const fail = (message: string): FormTools => {
    if (tm.dev) throw new Error(`[toolmark] createFormTools("${label}"): ${message}`)
    reportError(tm, { code: 'invalid_form', message: `createFormTools("${label}"): ${message}` })
    return dead()
  }
  const problem = configProblem(adapter, options)
  if (problem) return fail(problem)

  let formSchema: JsonSchema | undefined
  try {
    formSchema = options.jsonSchema ?? formJsonSchema(options.schema)
  } catch {
    formSchema = undefined
  }
  if (!formSchema) {
    return fail(
      'the schema has no JSON Schema: use zod ≥ 4.2 (or any schema with Standard JSON Schema), or pass `jsonSchema`',
    )
  }
  const root = compileFormSchema(formSchema)
  if (root.kind !== 'object') return fail('the form schema must describe an object of fields')

  const { name, description, title } = options
  const schema: StandardSchemaV1 = options.schema
  const memory = options.memory ?? createFormMemory()
  const declared = [...(options.sensitive ?? [])]
  const names = { fill: `${name}.fill`, submit: `${name}.submit`, state: `${name}.state` }

  // --- sensitive paths: declared ones plus fields whose element holds a secret (sticky) -------

  let patterns: readonly string[] = declared
  let inputPatterns: readonly string[] = fillInputPatterns(declared)
  let knownSticky = -1
  let scanned = false

  /** Looks at the form's fields once per microtask: redaction may ask many times in a row. */
  function scan() {
    if (!scanned) {
      scanned = true
      queueMicrotask(() => {
        scanned = false
      })
      for (const field of readFields()) {
        if (isSensitiveField(field)) memory.sensitive.add(fieldPattern(field.path))
      }
    }
    if (memory.sensitive.size !== knownSticky) {
      knownSticky = memory.sensitive.size
      patterns = [...declared, ...memory.sensitive]
      inputPatterns = fillInputPatterns(patterns)
    }
  }

  function readFields(): FormField[] {
    try {
      const fields = adapter.fields()
      return Array.isArray(fields)
        ? fields.filter((f): f is FormField => !!f && typeof f.path === 'string')
        : []
    } catch (cause) {
      reportError(tm, {
        code: 'form_fields_failed',
        message: `The fields of form "${name}" could not be read`,
        cause,
      })
      return []
    }
  }

  /** For the registry (events, confirmations): looks at the fields first. */
  const formSensitive = compileSensitive(() => {
    scan()
    return patterns
  })
  /** For a run that already scanned: the same patterns, without reading the fields again. */
  const scannedSensitive = compileSensitive(() => patterns)
  // Most forms have no secrets: then the changes are returned as they are (they are fresh copies).
  const redact = (changes: FieldChange[]) =>
    scannedSensitive.empty ? changes : redactChanges(changes, scannedSensitive)

  // --- user edits: dirty paths whose value is not what the agent (or the defaults) put there --

  let baselineCache: { defaults: unknown; version: number; tree: unknown } | undefined

  /** What each path should hold if the user changed nothing: the defaults plus the agent's writes. */
  function baselineTree(): { tree: unknown; hasDefaults: boolean } {
    const defaults =
      typeof adapter.defaultValues === 'function' ? adapter.defaultValues() : undefined
    const version = memoryVersions.get(memory) ?? 0
    if (
      !baselineCache ||
      baselineCache.defaults !== defaults ||
      baselineCache.version !== version
    ) {
      const writes = [...memory.agentWrites].map(
        ([path, value]) => [splitPath(path), value] as const,
      )
      baselineCache = { defaults, version, tree: setManyIn(defaults, writes) }
    }
    return { tree: baselineCache.tree, hasDefaults: defaults !== undefined }
  }

  const touchMemory = () => memoryVersions.set(memory, (memoryVersions.get(memory) ?? 0) + 1)

  /** Whether the agent wrote `path` or a value containing it. */
  function inMemory(path: string): boolean {
    for (let at = path; ; at = at.slice(0, at.lastIndexOf('.'))) {
      if (memory.agentWrites.has(at)) return true
      if (!at.includes('.')) return false
    }
  }

  function editedPaths(current: unknown = adapter.getValues()): string[] {
    const dirty = adapter.dirtyPaths()
    if (!Array.isArray(dirty) || dirty.length === 0) return []
    const { tree, hasDefaults } = baselineTree()
    const out = new Set<string>()
    for (const path of dirty) {
      if (typeof path !== 'string' || path === '' || out.has(path)) continue
      const known = hasDefaults || inMemory(path)
      const segments = splitPath(path)
      if (!known || !deepEqual(getIn(current, segments), getIn(tree, segments))) out.add(path)
    }
    return [...out].sort()
  }

  /**
   * Removes the memory entries at or below any of `paths`; returns them grouped by path. One
   * pass over the memory (each key's ancestors are looked up), so a 200-field fill stays linear.
   */
  function takeBelow(paths: readonly string[]): Map<string, Array<readonly [string, unknown]>> {
    const taken = new Map<string, Array<readonly [string, unknown]>>()
    const targets = new Set(paths)
    if (targets.size === 0 || memory.agentWrites.size === 0) return taken
    for (const [key, value] of memory.agentWrites) {
      let prefix = key
      for (;;) {
        if (targets.has(prefix)) {
          const list = taken.get(prefix) ?? []
          list.push([key, value])
          taken.set(prefix, list)
          memory.agentWrites.delete(key)
          break
        }
        const dot = prefix.lastIndexOf('.')
        if (dot < 0) break
        prefix = prefix.slice(0, dot)
      }
    }
    return taken
  }

  /** The memory paths a write records: the appended items' paths, or the write's own path. */
  const memoryPaths = (p: Planned): string[] => {
    if (p.write.op !== 'append') return [p.write.path]
    const base = Array.isArray(p.before) ? p.before.length : 0
    return p.write.items.map((_, i) => joinPath(p.write.path, base + i))
  }

  /**
   * Records a fill's writes as the agent's own, returning each write's replaced entries (for
   * undo). A replaced value is all the agent's; appended items are, while the items already
   * there keep their owner; after a removal each remaining item keeps the baseline it had, at
   * its new index.
   */
  function remember(planned: Planned[]): void {
    // Removals keep each item's baseline: read it before the memory changes.
    const baseline = planned.some((p) => p.write.op === 'remove') ? baselineTree().tree : undefined
    touchMemory()
    const taken = takeBelow(planned.flatMap(memoryPaths))
    for (const p of planned) {
      const { write } = p
      const paths = memoryPaths(p)
      const remembered =
        paths.length === 1
          ? (taken.get(paths[0]) ?? [])
          : paths.flatMap((path) => taken.get(path) ?? [])
      p.remembered = remembered
      if (write.op === 'append') {
        paths.forEach((path, i) => memory.agentWrites.set(path, cloneValue(write.items[i])))
      } else if (write.op === 'remove') {
        const before = Array.isArray(p.before) ? p.before : []
        const removed = new Set(write.indices)
        const kept = before
          .map((_, i) => getIn(baseline, [...write.segments, String(i)]))
          .filter((_, i) => !removed.has(i))
        memory.agentWrites.set(write.path, cloneValue(kept))
      } else {
        memory.agentWrites.set(write.path, cloneValue(p.after))
      }
    }
  }

  /** Undoes `remember` for some writes of one fill. */
  function forget(planned: Planned[]) {
    touchMemory()
    takeBelow(planned.flatMap(memoryPaths))
    for (const p of planned)
      for (const [key, value] of p.remembered) memory.agentWrites.set(key, value)
  }

  // --- fill ----------------------------------------------------------------------------------

  const fillInput = createFillInput(root, {
    nodes: () => tm.limits.fillNodes,
    depth: () => tm.limits.messageDepth,
  })

  async function fill(input: FillInput, ctx: ToolContext): Promise<ToolResult<FillResult>> {
    let plan = fillInput.planOf(input)
    if (!plan) {
      const checked = await validateWith(fillInput.schema, input)
      if ('issues' in checked) return invalid(checked.issues)
      plan = fillInput.planOf(checked.value)!
    }
    scan()
    const current = adapter.getValues()
    const isEdited = overlapIndex(editedPaths(current))
    const issues: ResultIssue[] = []
    const skipped: SkippedField[] = []
    let planned: Planned[] = []

    for (const write of plan.writes) {
      const before = getIn(current, write.segments)
      let after: unknown
      if (write.op === 'set') {
        after = write.value
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
      // Appending leaves every existing item as the user left it; other writes replace.
      const userEdited = write.op !== 'append' && isEdited(write.path)
      if (userEdited && !plan.overwrite) {
        skipped.push({ path: write.path, reason: 'user_edited' })
        continue
      }
      planned.push({ write, before, after, remembered: [] })
    }
    if (issues.length > 0) return invalid(issues)

    if (planned.length > 0) {
      const merged = setManyIn(
        current,
        planned.map((p) => [p.write.segments, p.after] as const),
      )
      const pending = schema['~standard'].validate(merged)
      const checked = pending instanceof Promise ? await pending : pending
      if (checked.issues) {
        const counted = countedIssues(toIssues(checked.issues), planned)
        if (counted.length > 0) return invalid(counted)
      }
      if (pending instanceof Promise) {
        // An asynchronous schema leaves room for typing: a field that moved since is the user's.
        const now = adapter.getValues()
        planned = planned.filter((p) => {
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
      remember(planned)
      for (const p of planned) changes.push(fieldChange(p.write.path, p.before, p.after))
      const done = planned
      ctx.registerUndo(() => undoFill(done))
    }
    return ok({ changes: redact(changes.sort(byPath)), skipped: skipped.sort(byPath) })
  }

  /**
   * The issue paths that count for a write — exactly its path, or also below it — and where
   * each points in the fill's input (`values.items.$append.0.qty`).
   */
  function touchesOf(p: Planned): Array<{ path: string; below: boolean; input: string }> {
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
  function countedIssues(issues: ResultIssue[], planned: Planned[]): ResultIssue[] {
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

  async function undoFill(planned: Planned[]): Promise<ToolResult<FillResult>> {
    scan()
    const current = adapter.getValues()
    const isEdited = overlapIndex(editedPaths(current))
    const restore = new Map<string, unknown>()
    const changes: FieldChange[] = []
    const skipped: SkippedField[] = []
    for (const p of planned) {
      const { path } = p.write
      if (!deepEqual(getIn(current, p.write.segments), p.after)) {
        const reason = isEdited(path) ? 'user_edited' : 'changed'
        skipped.push({ path, reason })
        continue
      }
      restore.set(path, cloneValue(p.before))
      changes.push(fieldChange(path, p.after, p.before))
    }
    if (restore.size > 0) {
      await adapter.setValues(restore, { source: 'undo' })
      forget(planned.filter((p) => restore.has(p.write.path)))
    }
    return ok({ changes: redact(changes.sort(byPath)), skipped: skipped.sort(byPath) })
  }

  // --- submit, state, options ----------------------------------------------------------------

  function submitConfirmation() {
    scan()
    const values = adapter.getValues()
    const snapshot = cloneValue(values)
    const defaults =
      typeof adapter.defaultValues === 'function' ? adapter.defaultValues() : undefined
    const diff: FieldChange[] = []
    diffValues(defaults, values, '', diff)
    const labels = new Map(
      readFields()
        .filter((f) => typeof f.label === 'string' && f.label !== '')
        .map((f) => [f.path, f.label as string]),
    )
    const changes = redact(diff.sort(byPath))
    return {
      summary: options.submitSummary ? options.submitSummary(values) : `Submit ${title || name}`,
      changes,
      labels: Object.fromEntries(
        changes.filter((c) => labels.has(c.path)).map((c) => [c.path, labels.get(c.path)!]),
      ),
      isStale: () => !deepEqual(adapter.getValues(), snapshot),
    }
  }

  async function submit(_input: unknown, ctx: ToolContext): Promise<ToolResult<unknown>> {
    const outcome = await adapter.submit({ signal: ctx.signal })
    if (!outcome || outcome.ok !== true) {
      const issues = Array.isArray(outcome?.issues) ? outcome.issues : []
      return invalid(issues.length > 0 ? issues : [{ path: '', message: 'The form is invalid' }])
    }
    const safe = toJsonSafe(outcome.data)
    if (!safe.ok) {
      reportError(tm, {
        code: 'result_not_serializable',
        message: `The onSubmit value of form "${name}" is not JSON-serializable`,
        tool: handles.submit?.name,
        callId: ctx.callId,
        cause: safe.cause,
      })
      return errorResult('Tool failed')
    }
    return ok(safe.value)
  }

  async function state(): Promise<ToolResult<FormStateResult>> {
    scan()
    const values = adapter.getValues()
    const checked = await validateWith(schema, values)
    return ok({
      values: redactValue(values, formSensitive),
      issues: 'issues' in checked ? checked.issues : [],
      edited: editedPaths(values),
    })
  }

  const lookups = Object.entries(options.options ?? {}).filter(([, fn]) => typeof fn === 'function')
  const optionFields = lookups.map(([field]) => field).sort()

  async function lookupOptions(
    input: { field: string; query?: string },
    ctx: ToolContext,
  ): Promise<ToolResult<FormOptionsResult>> {
    const lookup = options.options![input.field]
    const controller = new AbortController()
    const onAbort = () => controller.abort(ctx.signal.reason)
    if (ctx.signal.aborted) onAbort()
    else ctx.signal.addEventListener('abort', onAbort, { once: true })
    const ms = tm.limits.optionsTimeoutMs
    let timer: ReturnType<typeof setTimeout> | undefined
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new TimeoutError(`Options lookup timed out after ${ms} ms`))
        resolve('timeout')
      }, ms)
    })
    const failed = (message: string, cause?: unknown) => {
      reportError(tm, {
        code: 'options_failed',
        message: `Options lookup for "${input.field}" of form "${name}" ${message}`,
        tool: handles.options?.name,
        callId: ctx.callId,
        ...(cause === undefined ? {} : { cause }),
      })
      return errorResult('Options lookup failed')
    }
    try {
      const settled = await Promise.race([
        Promise.resolve()
          .then(() => lookup({ query: input.query ?? '', signal: controller.signal }))
          .then(
            (list) => ({ list }),
            (error: unknown) => ({ error }),
          ),
        timedOut,
      ])
      if (ctx.signal.aborted) throw ctx.signal.reason
      if (settled === 'timeout') return failed(`timed out after ${ms} ms`)
      if ('error' in settled) return failed('threw', settled.error)
      if (!Array.isArray(settled.list)) return failed('did not return an array')
      const clean: FormOption[] = []
      for (const item of settled.list as unknown[]) {
        const value = isPlainObject(item) ? item.value : undefined
        if (!isPlainObject(item) || !(value === null || OPTION_VALUE_TYPES.has(typeof value))) {
          return failed('returned an item that is not { value, title }', item)
        }
        clean.push({
          value: value as FormOption['value'],
          title: typeof item.title === 'string' ? item.title : String(value),
        })
      }
      const max = tm.limits.optionsItems
      return ok({ field: input.field, options: clean.slice(0, max), more: clean.length > max })
    } finally {
      clearTimeout(timer)
      ctx.signal.removeEventListener('abort', onAbort)
    }
  }

  // --- registration --------------------------------------------------------------------------

  const trimmed = description.trim()
  const intro = /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`
  const defs: Record<string, ToolDefinition<any, any>> = {
    fill: {
      name: names.fill,
      description:
        `${intro} Fills fields of this form: \`values\` is partial (omit a field to keep it, null clears it; arrays take a new list, {"$append": [...]} or {"$remove": [index]}). ` +
        'Fields the user edited are skipped unless `overwrite` is true. Returns { changes, skipped }.',
      hints: { untrustedContent: true },
      input: fillInput.schema,
      inputSchema: fillInputSchema(formSchema),
      sensitive: () => {
        scan()
        return inputPatterns
      },
      run: fill,
    },
    submit: {
      name: names.submit,
      description: `${intro} Submits this form with its current values (a person confirms first). Returns what the app's submit handler returned.`,
      ...(title ? { title } : {}),
      hints: options.hints ?? { consequential: true },
      sensitive: () => {
        scan()
        return patterns
      },
      confirmation: submitConfirmation,
      run: submit,
    },
    state: {
      name: names.state,
      description: `${intro} Reads this form's current values, its validation issues and the fields the user edited (fills skip those). Look before you fill.`,
      hints: { readOnly: true, untrustedContent: true },
      run: state,
    },
  }
  if (optionFields.length > 0) {
    defs.options = {
      name: `${name}.options`,
      description: `${intro} Looks up the allowed values of a field of this form (${optionFields.join(', ')}); \`query\` narrows the list. Fill the field with a returned \`value\`.`,
      hints: { readOnly: true, untrustedContent: true },
      input: optionsInput(optionFields),
      inputSchema: {
        type: 'object',
        properties: {
          field: { type: 'string', enum: optionFields },
          query: { type: 'string', maxLength: 200 },
        },
        required: ['field'],
        additionalProperties: false,
      },
      run: lookupOptions,
    }
  }

  const handles: Partial<Record<string, ToolHandle>> = {}
  try {
    for (const [key, def] of Object.entries(defs)) {
      handles[key] = tm.register(def, options.scope ? { scope: options.scope } : undefined)
    }
  } catch (error) {
    for (const handle of Object.values(handles)) handle?.dispose()
    throw error
  }
  return {
    names: {
      fill: handles.fill!.name,
      submit: handles.submit!.name,
      state: handles.state!.name,
      ...(handles.options ? { options: handles.options.name } : {}),
    },
    editedPaths: () => editedPaths(),
    isSensitive(path) {
      scan()
      return formSensitive.matches(path)
    },
    dispose() {
      for (const handle of Object.values(handles)) handle?.dispose()
    },
  }
}

/** The input of `<form>.options`: `{ field, query? }`, `field` one of the declared fields. */
function optionsInput(
  fields: string[],
): StandardSchemaV1<unknown, { field: string; query?: string }> {
  return {
    '~standard': {
      version: 1,
      vendor: 'toolmark',
      validate(value) {
        if (!isPlainObject(value)) {
          return { issues: [{ message: 'Expected an object { field, query? }', path: [] }] }
        }
        const issues: { message: string; path: string[] }[] = []
        for (const key of Object.keys(value)) {
          if (key !== 'field' && key !== 'query')
            issues.push({ message: 'Unknown key', path: [key] })
        }
        if (typeof value.field !== 'string' || !fields.includes(value.field)) {
          issues.push({ message: `Expected one of: ${fields.join(', ')}`, path: ['field'] })
        }
        if (
          value.query !== undefined &&
          (typeof value.query !== 'string' || value.query.length > 200)
        ) {
          issues.push({ message: 'Expected a string of at most 200 characters', path: ['query'] })
        }
        if (issues.length > 0) return { issues }
        const out: { field: string; query?: string } = { field: value.field as string }
        if (typeof value.query === 'string') out.query = value.query
        return { value: out }
      },
    },
  }
}

function configProblem(adapter: unknown, options: unknown): string | undefined {
  if (options === null || typeof options !== 'object') {
    return 'options must be an object { name, description, schema, … }'
  }
  const o = options as Record<string, unknown>
  if (typeof o.name !== 'string' || o.name === '') return 'give the form a `name` (e.g. "ticket")'
  if (typeof o.description !== 'string' || o.description.trim() === '') {
    return 'give the form a `description`: tell the model what the form is for'
  }
  if (!isStandardSchema(o.schema)) {
    return '`schema` must be a Standard Schema (the zod schema the form’s resolver uses)'
  }
  const a = adapter as Record<string, unknown> | null
  for (const method of ['getValues', 'setValues', 'dirtyPaths', 'submit', 'fields']) {
    if (!a || typeof a[method] !== 'function') return `the adapter has no ${method}() function`
  }
  if (
    o.sensitive !== undefined &&
    (!Array.isArray(o.sensitive) || !o.sensitive.every((p) => typeof p === 'string'))
  ) {
    return '`sensitive` must be a list of paths (e.g. ["password", "cards[].cvc"])'
  }
  if (o.options !== undefined) {
    if (o.options === null || typeof o.options !== 'object') {
      return '`options` must map field paths to lookup functions'
    }
    for (const [field, fn] of Object.entries(o.options)) {
      if (typeof fn !== 'function') return `options["${field}"] must be a function`
    }
  }
  if (o.submitSummary !== undefined && typeof o.submitSummary !== 'function') {
    return '`submitSummary` must be a function (values) => string'
  }
  return undefined
}
