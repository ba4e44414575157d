import type { JsonSchema, ResultIssue, StandardSchemaResult } from '../../types'
import { isPlainObject, joinPath } from '../values/paths'
import type { FormAdapter, FormField, FormSubmitOutcome, WizardStep } from '../values/types'
import { stepsJsonSchema, stepsSchema } from './stepsSchema'

type Schema = Record<string, unknown>

/**
 * A step's JSON Schema placed under the wizard's root: its `$defs` move to the root under
 * `<id>__<name>` and its references follow them (`#` itself becomes `#/$defs/<id>__root`).
 */
function hoist(id: string, schema: JsonSchema, defs: Schema): Schema {
  const { $schema: _ignored, $defs, definitions, ...body } = schema
  let rootReferenced = false
  const rename = (ref: string): string => {
    if (ref === '#') {
      rootReferenced = true
      return `#/$defs/${id}__root`
    }
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref)
    return match ? `#/$defs/${id}__${match[2]}` : ref
  }
  const rewrite = (node: unknown, depth: number): unknown => {
    if (depth > 64) return node
    if (Array.isArray(node)) return node.map((n) => rewrite(n, depth + 1))
    if (!isPlainObject(node)) return node
    const out: Schema = {}
    for (const [key, value] of Object.entries(node)) {
      if (key === 'enum' || key === 'const') out[key] = value
      else if (key === '$ref' && typeof value === 'string') out[key] = rename(value)
      else out[key] = rewrite(value, depth + 1)
    }
    return out
  }
  for (const source of [$defs, definitions]) {
    if (!isPlainObject(source)) continue
    for (const [name, def] of Object.entries(source)) defs[`${id}__${name}`] = rewrite(def, 0)
  }
  const out = rewrite(body, 0) as Schema
  if (rootReferenced) defs[`${id}__root`] = out
  return out
}

/** A form field of a step, at its path in the wizard (`who.email`); the label read when shown. */
function stepField(id: string, field: FormField): FormField {
  const out: FormField = { path: joinPath(id, field.path), element: field.element }
  if (field.sensitive !== undefined) out.sensitive = field.sensitive
  Object.defineProperty(out, 'label', {
    get: () => field.label,
    enumerable: true,
    configurable: true,
  })
  return out
}

/** Fill values routed to the step they belong to, at the step form's own paths. */
function valuesByStep(values: ReadonlyMap<string, unknown>): Map<string, Map<string, unknown>> {
  const byStep = new Map<string, Map<string, unknown>>()
  const add = (id: string, path: string, value: unknown) => {
    const map = byStep.get(id) ?? new Map<string, unknown>()
    map.set(path, value)
    byStep.set(id, map)
  }
  for (const [path, value] of values) {
    const dot = path.indexOf('.')
    if (dot >= 0) add(path.slice(0, dot), path.slice(dot + 1), value)
    else if (isPlainObject(value)) for (const key of Object.keys(value)) add(path, key, value[key])
  }
  return byStep
}

/** The paths each step's adapter lists (`pathsOf`), at their paths in the wizard. */
function stepPaths(
  steps: readonly WizardStep<unknown>[],
  pathsOf: (adapter: FormAdapter<unknown>) => unknown,
): string[] {
  const out: string[] = []
  for (const step of steps) {
    const paths = pathsOf(step.adapter)
    if (!Array.isArray(paths)) continue
    for (const path of paths) if (typeof path === 'string') out.push(joinPath(step.id, path))
  }
  return out
}

/**
 * Submits every step's form, so each shows its errors when the person goes there; the steps'
 * values under their ids when all pass, else every step's issues at the wizard's paths.
 */
async function submitSteps(
  steps: readonly WizardStep<unknown>[],
  options: { signal: AbortSignal },
): Promise<{ ok: true; data: Record<string, unknown> } | { ok: false; issues: ResultIssue[] }> {
  const data: Record<string, unknown> = {}
  const issues: ResultIssue[] = []
  for (const step of steps) {
    if (options.signal.aborted) throw options.signal.reason
    const outcome = await step.adapter.submit(options)
    if (outcome?.ok === true) {
      data[step.id] = outcome.data
      continue
    }
    const stepIssues = Array.isArray(outcome?.issues) ? outcome.issues : []
    if (stepIssues.length === 0) issues.push({ path: step.id, message: 'The step is invalid' })
    for (const issue of stepIssues) {
      issues.push({ path: joinPath(step.id, issue.path), message: issue.message })
    }
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, data }
}

/** Every step's values checked by its own schema: the issues under the step's id, or the values. */
function validateSteps(
  steps: readonly WizardStep<unknown>[],
  tree: Record<string, unknown>,
): StandardSchemaResult<unknown> | Promise<StandardSchemaResult<unknown>> {
  const results = steps.map((s) => s.schema['~standard'].validate(tree[s.id]))
  const combine = (settled: StandardSchemaResult<unknown>[]) => {
    const issues = settled.flatMap((r, k) =>
      (r.issues ?? []).map((issue) => ({
        message: issue.message,
        path: [steps[k].id, ...(issue.path ?? [])],
      })),
    )
    if (issues.length > 0) return { issues }
    return {
      value: Object.fromEntries(
        settled.map((r, k) => [steps[k].id, (r as { value: unknown }).value]),
      ),
    }
  }
  return results.some((r) => r instanceof Promise)
    ? Promise.all(results).then(combine)
    : combine(results as StandardSchemaResult<unknown>[])
}

/**
 * A wizard whose steps each have a form: one adapter and one schema over all of them, keyed by
 * step id (`{ who: { email }, system: { name } }`). Its submit validates every step the way
 * each step's form does, and calls `onSubmit` with every step's values only when all pass.
 */
export function combineSteps(
  steps: readonly WizardStep<unknown>[],
  jsonSchemas: readonly JsonSchema[],
  onSubmit: (values: Record<string, unknown>, options: { signal: AbortSignal }) => unknown,
) {
  let defaultsCache: { sources: unknown[]; view: Record<string, unknown> } | undefined
  const fieldCache = new WeakMap<FormField, FormField>()

  const adapter: FormAdapter<unknown> = {
    getValues: () => Object.fromEntries(steps.map((s) => [s.id, s.adapter.getValues()])),
    defaultValues() {
      const sources = steps.map((s) =>
        typeof s.adapter.defaultValues === 'function' ? s.adapter.defaultValues() : undefined,
      )
      if (!defaultsCache || sources.some((d, k) => d !== defaultsCache!.sources[k])) {
        defaultsCache = {
          sources,
          view: Object.fromEntries(steps.map((s, k) => [s.id, sources[k]])),
        }
      }
      return defaultsCache.view
    },
    async setValues(values, options) {
      const byStep = valuesByStep(values)
      for (const step of steps) {
        const map = byStep.get(step.id)
        if (map) await step.adapter.setValues(map, options)
      }
    },
    subscribe(onChange) {
      const stops = steps.map((step) =>
        typeof step.adapter.subscribe === 'function' ? step.adapter.subscribe(onChange) : undefined,
      )
      return () => {
        for (const stop of stops) if (typeof stop === 'function') stop()
      }
    },
    dirtyPaths: () => stepPaths(steps, (a) => a.dirtyPaths()),
    readOnlyPaths: () =>
      stepPaths(steps, (a) => (typeof a.readOnlyPaths === 'function' ? a.readOnlyPaths() : [])),
    async submit(options): Promise<FormSubmitOutcome> {
      const outcome = await submitSteps(steps, options)
      if (!outcome.ok) return outcome
      if (options.signal.aborted) throw options.signal.reason
      return { ok: true, data: await onSubmit(outcome.data, options) }
    },
    fields() {
      const out: FormField[] = []
      for (const step of steps) {
        for (const field of step.adapter.fields()) {
          if (!field || typeof field.path !== 'string') continue
          let mapped = fieldCache.get(field)
          if (!mapped) {
            mapped = stepField(step.id, field)
            fieldCache.set(field, mapped)
          }
          out.push(mapped)
        }
      }
      return out
    },
  }

  const schema = stepsSchema((tree) => validateSteps(steps, tree))

  const defs: Schema = {}
  const jsonSchema = stepsJsonSchema(steps, (step, k) => hoist(step.id, jsonSchemas[k], defs))
  if (Object.keys(defs).length > 0) jsonSchema.$defs = defs

  return { adapter, schema, jsonSchema }
}
