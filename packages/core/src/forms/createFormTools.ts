import { reportError } from '../events/reportError'
import type { Problem } from '../base/problem'
import { isStandardSchema } from '../schema/standardSchema'
import type { JsonSchema, Toolmark } from '../types'
import { jsonSchemaOf } from '../schema/jsonSchema'
import { formMessage } from './values/formMessages'
import type { FileFieldsCode } from './files/fileFields'
import type { FileFieldRules } from './values/fileValues'
import { formCodeOf } from './values/formCode'
import type { FormStepsCode } from './steps/formSteps'
import type { OptionLookupsCode } from './fill/optionLookups'
import { compileFormSchema } from './values/formSchema'
import { isPlainObject } from './values/paths'
import { registerFormTools, type FormSource } from './fill/registerFormTools'
import type {
  FormAdapter,
  FormOptionsLookup,
  FormTools,
  FormToolsOptions,
  OptionLookups,
} from './values/types'

import { createFormMemory } from './fill/formMemory'
import { formProvenance } from './fill/formProvenance'

export { createFormMemory }

/** The tools of a form that could not be registered: names only, nothing behind them. */
export function deadFormTools(name: string): FormTools {
  return {
    names: { fill: `${name}.fill`, submit: `${name}.submit`, state: `${name}.state` },
    editedPaths: () => [],
    isSensitive: () => false,
    provenance: formProvenance(createFormMemory()),
    dispose() {},
  }
}

/** A misconfigured form: development throws with the fix, production reports and registers nothing. */
export function formProblem(tm: Toolmark, api: string, name: string, problem: Problem): FormTools {
  const message = `${api}("${name}"): ${formMessage(problem)}`
  if (tm.dev) throw new Error(`[toolmark] ${message}`)
  reportError(tm, { code: 'invalid_form', message })
  return deadFormTools(name)
}

/**
 * The form's JSON Schema: given, or its Standard JSON Schema — converted once per schema object
 * and shared with every registry and surface (frozen: the forms code copies before it reshapes).
 */
export function formJsonSchemaOf(
  schema: FormToolsOptions['schema'],
  given: JsonSchema | undefined,
): JsonSchema | undefined {
  return given ?? jsonSchemaOf(schema).schema
}

/**
 * Registers a form's tools on a registry: `<name>.fill`, `<name>.submit`, `<name>.state`, and
 * `<name>.options` when a field declares options. The adapter only reads and writes the form;
 * the tools decide what a fill may overwrite, validate, redact and undo. With `steps`, the form
 * is served as a wizard: one fill for every step, keyed by step id.
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
  const fail = (problem: Problem) => formProblem(tm, 'createFormTools', label, problem)
  const problem = configProblem(adapter, options)
  if (problem) return fail(problem)

  const formSchema = formJsonSchemaOf(options.schema, options.jsonSchema)
  if (!formSchema) return fail(['no JSON Schema'])
  const root = compileFormSchema(formSchema)
  if (root.kind !== 'object') return fail(['not an object'])

  const own = adapter as FormAdapter<unknown>
  const lookups = options.options?.lookups ?? {}
  // Checked in configProblem: the files came from fileFields(), with the file code.
  const fileCode = formCodeOf(options.files, 'fileFields') as FileFieldsCode | undefined
  const fileProblem = fileCode?.problem(options.files!.rules, root)
  if (fileProblem) return fail(fileProblem)
  const fileRules = Object.entries(options.files?.rules ?? {})
  let source: FormSource
  if (options.steps === undefined) {
    source = {
      files: fileCode && { rules: new Map(fileRules), code: fileCode },
      adapter: own,
      schema: options.schema,
      jsonSchema: formSchema,
      sensitive: [...(options.sensitive ?? [])],
      options: lookupSource(options.options, lookups),
      summaryValues: () => own.getValues(),
    }
  } else {
    // Checked in configProblem: the steps came from formSteps(), with the wizard code.
    const code = formCodeOf(options.steps, 'formSteps') as FormStepsCode
    const stepProblem = code.problem(options.steps.steps, root)
    if (stepProblem) return fail(stepProblem)
    const steps = options.steps.steps.map((s) => ({
      id: s.id,
      ...(s.title ? { title: s.title } : {}),
      fields: [...s.fields],
    }))
    const split = code.split(own, options.schema, formSchema, steps)
    const stepOptions: Record<string, FormOptionsLookup> = {}
    for (const [field, lookup] of Object.entries(lookups)) {
      const at = split.toView(field)
      if (at === undefined) return fail(['unshown lookup', field])
      stepOptions[at] = lookup
    }
    const stepFiles = new Map<string, FileFieldRules>()
    for (const [field, rules] of fileRules) {
      const at = split.toView(field)
      if (at === undefined) return fail(['unshown file', field])
      stepFiles.set(at, rules)
    }
    source = {
      files: fileCode && { rules: stepFiles, code: fileCode },
      adapter: split.adapter,
      schema: split.schema,
      jsonSchema: split.jsonSchema,
      steps: steps.map(({ id, title }) => (title ? { id, title } : { id })),
      sensitive: (options.sensitive ?? []).flatMap(split.viewPatterns),
      options: lookupSource(options.options, stepOptions),
      summaryValues: () => own.getValues(),
    }
  }
  return registerFormTools(tm, source, options as FormToolsOptions<any>)
}

/** Lookups at the tools' paths with the code `optionLookups()` brought; none without it. */
export function lookupSource(
  declared: OptionLookups | undefined,
  lookups: Readonly<Record<string, FormOptionsLookup>>,
): FormSource['options'] {
  const code = formCodeOf(declared, 'optionLookups') as OptionLookupsCode | undefined
  return code ? { lookups, code } : undefined
}

/** Problems of the options every form's tools share; `undefined` when there are none. */
export function baseOptionsProblem(o: Record<string, unknown>): Problem | undefined {
  if (typeof o.name !== 'string' || o.name === '') return ['name']
  if (typeof o.description !== 'string' || o.description.trim() === '') return ['description']
  if (o.options !== undefined) {
    if (!formCodeOf(o.options, 'optionLookups')) return ['plain lookups']
    const { lookups } = o.options as OptionLookups
    if (!isPlainObject(lookups)) return ['lookups']
    for (const [field, fn] of Object.entries(lookups)) {
      if (typeof fn !== 'function') return ['lookup', field]
    }
  }
  if (o.submitSummary !== undefined && typeof o.submitSummary !== 'function') {
    return ['submitSummary']
  }
  if (o.onStepChange !== undefined && typeof o.onStepChange !== 'function') {
    return ['onStepChange']
  }
  return undefined
}

/** The first method a form adapter lacks; `undefined` when it has every one. */
export function missingMethod(adapter: unknown): string | undefined {
  const a = adapter as Record<string, unknown> | null
  for (const method of ['getValues', 'setValues', 'dirtyPaths', 'submit', 'fields']) {
    if (!a || typeof a[method] !== 'function') return method
  }
  return undefined
}

/** Whether `sensitive` is a list of path patterns. */
export const isPatternList = (value: unknown) =>
  value === undefined || (Array.isArray(value) && value.every((p) => typeof p === 'string'))

function configProblem(adapter: unknown, options: unknown): Problem | undefined {
  if (options === null || typeof options !== 'object') return ['options']
  const o = options as Record<string, unknown>
  const base = baseOptionsProblem(o)
  if (base) return base
  if (!isStandardSchema(o.schema)) return ['schema']
  const missing = missingMethod(adapter)
  if (missing) return ['adapter', missing]
  if (!isPatternList(o.sensitive)) return ['sensitive']
  if (o.steps !== undefined && !formCodeOf(o.steps, 'formSteps')) return ['plain steps']
  if (o.files !== undefined && !formCodeOf(o.files, 'fileFields')) return ['plain files']
  return undefined
}
