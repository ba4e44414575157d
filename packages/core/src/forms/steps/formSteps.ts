import type { Problem } from '../../base/problem'
import { FORM_CODE } from '../values/formCode'
import { issuePath } from '../../schema/standardSchema'
import type { JsonSchema, ResultIssue, StandardSchemaIssue, StandardSchemaV1 } from '../../types'
import { resolveRef, type FormNode } from '../values/formSchema'
import {
  FORBIDDEN_SEGMENTS,
  getIn,
  isAtOrBelow,
  isPlainObject,
  joinPath,
  setManyIn,
  splitPath,
} from '../values/paths'
import type {
  FormAdapter,
  FormField,
  FormStep,
  FormSteps,
  FormSubmitOutcome,
} from '../values/types'
import { stepListProblem } from './stepListProblem'
import { stepsJsonSchema, stepsSchema } from './stepsSchema'

/** The node a form path leads to, through objects only (`undefined` when it is not declared). */
function nodeAt(root: FormNode, path: string): FormNode | undefined {
  let node: FormNode = root
  for (const segment of splitPath(path)) {
    if (node.kind !== 'object' || FORBIDDEN_SEGMENTS.has(segment)) return undefined
    const next: FormNode | undefined = node.props.get(segment) ?? node.rest
    if (!next) return undefined
    node = next
  }
  return node
}

/** Declared paths no field covers: not at or below a field, and no field below them. */
function uncovered(node: FormNode, path: string, fields: readonly string[], out: string[]) {
  if (path !== '' && fields.some((f) => isAtOrBelow(path, f))) return
  const below = fields.some((f) => f !== path && isAtOrBelow(f, path))
  if (!below || node.kind !== 'object') {
    out.push(path)
    return
  }
  for (const [key, child] of node.props) uncovered(child, joinPath(path, key), fields, out)
}

/** What is wrong with a one-form wizard's `steps`; `undefined` when nothing. */
export function stepsProblem(steps: unknown, root: FormNode): Problem | undefined {
  const all: string[] = []
  const listProblem = stepListProblem(steps, ['steps'], (s): Problem | undefined => {
    if (!Array.isArray(s.fields) || s.fields.length === 0) return ['step fields', s.id]
    for (const field of s.fields as unknown[]) {
      if (typeof field !== 'string' || field === '' || !nodeAt(root, field)) {
        return ['step field', s.id, String(JSON.stringify(field))]
      }
      const overlap = all.find((f) => isAtOrBelow(f, field) || isAtOrBelow(field, f))
      if (overlap !== undefined) return ['field twice', overlap, field]
      all.push(field)
    }
    return undefined
  })
  if (listProblem) return listProblem
  const missing: string[] = []
  uncovered(root, '', all, missing)
  if (missing.length > 0) return ['unshown fields', missing.map((m) => `"${m}"`).join(', ')]
  return undefined
}

type Schema = Record<string, unknown>

/** `schema`, or what its local `$ref` points to (followed once). */
function resolve(root: JsonSchema, schema: unknown): Schema | undefined {
  if (!isPlainObject(schema)) return undefined
  return typeof schema.$ref === 'string' ? resolveRef(root, schema.$ref) : schema
}

/** The object schema of `schema` reduced to `paths` (segment lists below it). */
function pickSchema(root: JsonSchema, schema: unknown, paths: string[][]): Schema {
  const object = resolve(root, schema) ?? {}
  const groups = new Map<string, string[][]>()
  for (const [head, ...rest] of paths) {
    const list = groups.get(head) ?? []
    list.push(rest)
    groups.set(head, list)
  }
  const props = isPlainObject(object.properties) ? object.properties : {}
  const properties: Schema = {}
  for (const [key, rests] of groups) {
    const child = Object.prototype.hasOwnProperty.call(props, key)
      ? props[key]
      : isPlainObject(object.additionalProperties)
        ? object.additionalProperties
        : {}
    properties[key] = rests.some((r) => r.length === 0) ? child : pickSchema(root, child, rests)
  }
  const required = Array.isArray(object.required)
    ? object.required.filter((k): k is string => typeof k === 'string' && groups.has(k))
    : []
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  }
}

/** Where `issue` sits in the tools' view, or at the root naming the form path. */
function placed(path: string, message: string, toView: (p: string) => string | undefined) {
  const at = toView(path)
  return at === undefined ? { path: '', message: `${path}: ${message}` } : { path: at, message }
}

/** A Standard Schema's issues at the tools' view, as segment lists. */
function viewIssues(
  issues: ReadonlyArray<StandardSchemaIssue>,
  toView: (p: string) => string | undefined,
) {
  return {
    issues: issues.map((issue) => {
      const at = placed(
        issuePath(issue.path),
        typeof issue.message === 'string' ? issue.message : 'Invalid value',
        toView,
      )
      return { message: at.message, path: splitPath(at.path) }
    }),
  }
}

/** The form paths an adapter lists, those a step shows, in the tools' view. */
function viewPaths(paths: unknown, toView: (p: string) => string | undefined): string[] {
  if (!Array.isArray(paths)) return []
  const out: string[] = []
  for (const path of paths) {
    const at = typeof path === 'string' ? toView(path) : undefined
    if (at) out.push(at)
  }
  return out
}

/**
 * The mapping between a form and the tools' view of it keyed by step id: paths, patterns and
 * values both ways. `fieldSegments[k]` holds the segments of step `k`'s fields.
 */
function createStepView(steps: readonly FormStep[]) {
  const owner = new Map<string, string>()
  for (const step of steps) for (const field of step.fields) owner.set(field, step.id)
  const fieldSegments = steps.map((step) => step.fields.map(splitPath))

  /** A form path in the tools' view (`email` → `who.email`); `undefined` when no step shows it. */
  function toView(path: string): string | undefined {
    if (path === '') return ''
    for (let at = path; ; at = at.slice(0, at.lastIndexOf('.'))) {
      const id = owner.get(at)
      if (id !== undefined) return `${id}.${path}`
      if (!at.includes('.')) break
    }
    // A path above fields (an object whose fields several steps show): the first such step.
    const step = steps.find((s) => s.fields.some((f) => f.startsWith(`${path}.`)))
    return step ? `${step.id}.${path}` : undefined
  }

  /** A form pattern in the tools' view, once per step it reaches (`*` reaches them all). */
  function viewPatterns(pattern: string): string[] {
    if (pattern.includes('*')) return steps.map((s) => `${s.id}.${pattern}`)
    const dotted = pattern.replace(/\[\]/g, '.[]')
    return steps
      .filter((s) => s.fields.some((f) => isAtOrBelow(dotted, f) || isAtOrBelow(f, dotted)))
      .map((s) => `${s.id}.${pattern}`)
  }

  /** The tools' view of form values. */
  function view(values: unknown): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    steps.forEach((step, k) => {
      out[step.id] = setManyIn(
        {},
        fieldSegments[k].map((segments) => [segments, getIn(values, segments)] as const),
      )
    })
    return out
  }

  /** Form values from the tools' view. */
  function unview(tree: unknown): unknown {
    const entries: Array<readonly [string[], unknown]> = []
    steps.forEach((step, k) => {
      for (const segments of fieldSegments[k]) {
        entries.push([segments, getIn(tree, [step.id, ...segments])])
      }
    })
    return setManyIn({}, entries)
  }

  /** Writes at the tools' paths as writes at the form's (a whole step: each of its fields). */
  function unviewWrites(values: ReadonlyMap<string, unknown>): Map<string, unknown> {
    const out = new Map<string, unknown>()
    for (const [path, value] of values) {
      const dot = path.indexOf('.')
      if (dot >= 0) {
        out.set(path.slice(dot + 1), value)
        continue
      }
      const k = steps.findIndex((s) => s.id === path)
      if (k < 0) continue
      fieldSegments[k].forEach((segments, i) => {
        out.set(steps[k].fields[i], getIn(value, segments))
      })
    }
    return out
  }

  return { fieldSegments, toView, viewPatterns, view, unview, unviewWrites }
}

/**
 * A wizard over one form: the tools see the form keyed by step id (`{ who: { email } }`) and
 * read and write the form through its own adapter, at its own paths.
 */
export function splitIntoSteps(
  adapter: FormAdapter<unknown>,
  schema: StandardSchemaV1,
  jsonSchema: JsonSchema,
  steps: readonly FormStep[],
) {
  const { fieldSegments, toView, viewPatterns, view, unview, unviewWrites } = createStepView(steps)
  let defaultsCache: { source: unknown; view: unknown } | undefined
  const viewFields = new WeakMap<FormField, FormField>()

  const stepAdapter: FormAdapter<unknown> = {
    getValues: () => view(adapter.getValues()),
    defaultValues() {
      const source =
        typeof adapter.defaultValues === 'function' ? adapter.defaultValues() : undefined
      if (source === undefined) return undefined
      if (defaultsCache?.source !== source) defaultsCache = { source, view: view(source) }
      return defaultsCache.view
    },
    setValues: (values, options) => adapter.setValues(unviewWrites(values), options),
    subscribe(onChange) {
      return typeof adapter.subscribe === 'function' ? adapter.subscribe(onChange) : () => {}
    },
    dirtyPaths: () => viewPaths(adapter.dirtyPaths(), toView),
    readOnlyPaths: () =>
      viewPaths(typeof adapter.readOnlyPaths === 'function' ? adapter.readOnlyPaths() : [], toView),
    async submit(options): Promise<FormSubmitOutcome> {
      const outcome = await adapter.submit(options)
      if (!outcome || outcome.ok === true) return outcome
      const issues: readonly ResultIssue[] = Array.isArray(outcome.issues) ? outcome.issues : []
      return { ok: false, issues: issues.map((i) => placed(i.path, i.message, toView)) }
    },
    fields() {
      const out: FormField[] = []
      for (const field of adapter.fields()) {
        if (!field || typeof field.path !== 'string') continue
        let mapped = viewFields.get(field)
        if (!mapped) {
          const at = toView(field.path)
          if (at === undefined) continue
          mapped = { path: at, element: field.element, sensitive: field.sensitive }
          // Labels may be read from the page: only when shown, as the form's own field does.
          Object.defineProperty(mapped, 'label', {
            get: () => field.label,
            enumerable: true,
            configurable: true,
          })
          viewFields.set(field, mapped)
        }
        out.push(mapped)
      }
      return out
    },
  }

  const stepSchema = stepsSchema((tree) => {
    const result = schema['~standard'].validate(unview(tree))
    const settle = (r: Awaited<typeof result>) =>
      r.issues ? viewIssues(r.issues, toView) : { value: tree }
    return result instanceof Promise ? result.then(settle) : settle(result)
  })

  const { $schema: _ignored, $defs, definitions, ...body } = jsonSchema
  const stepJson = stepsJsonSchema(steps, (_, k) => pickSchema(jsonSchema, body, fieldSegments[k]))
  if ($defs !== undefined) stepJson.$defs = $defs
  if (definitions !== undefined) stepJson.definitions = definitions

  return {
    adapter: stepAdapter,
    schema: stepSchema,
    jsonSchema: stepJson,
    toView,
    viewPatterns,
  }
}

/** The code `formSteps()` brings, under `FORM_CODE`: checks a form's steps, serves it as a wizard. */
export interface FormStepsCode {
  readonly kind: 'formSteps'
  readonly problem: typeof stepsProblem
  readonly split: typeof splitIntoSteps
}

const STEPS_CODE: FormStepsCode = {
  kind: 'formSteps',
  problem: stepsProblem,
  split: splitIntoSteps,
}

/** A frozen copy of a step; anything else is kept for `stepsProblem` to name. */
const frozenStep = (step: unknown) => {
  if (!isPlainObject(step)) return step
  const fields = Array.isArray(step.fields) ? Object.freeze([...step.fields]) : step.fields
  return Object.freeze({ ...step, fields })
}

/**
 * Serves one form as a wizard: the fields each step shows, every field of the form in exactly one
 * step. Pass the result as the `steps` of `createFormTools` or `useFormTool`; it brings the wizard
 * code, so a form without steps does not bundle it. The steps are copied and frozen, and checked
 * against the form's schema when the tools are registered.
 *
 * @example
 * const tools = createFormTools(tm, adapter, {
 *   name: 'access',
 *   description: 'The access-request wizard',
 *   schema: accessSchema,
 *   steps: formSteps([
 *     { id: 'who', title: 'Who', fields: ['email', 'name'] },
 *     { id: 'why', title: 'Why', fields: ['reason'] },
 *   ]),
 * })
 * await tm.call('access.fill', { values: { who: { email: 'ana@example.com' }, why: { reason: 'Audit' } } })
 */
export function formSteps(steps: readonly FormStep[]): FormSteps {
  const copy = Array.isArray(steps) ? Object.freeze(steps.map(frozenStep)) : steps
  return Object.freeze({
    kind: 'formSteps',
    steps: copy as readonly FormStep[],
    [FORM_CODE]: STEPS_CODE,
  })
}
