import type { Problem } from '../base/problem'
import { isStandardSchema } from '../schema/standardSchema'
import type { JsonSchema, Toolmark } from '../types'
import { combineSteps } from './steps/combineSteps'
import {
  baseOptionsProblem,
  formProblem,
  isPatternList,
  lookupSource,
  missingMethod,
  formJsonSchemaOf,
} from './createFormTools'
import { formCodeOf } from './values/formCode'
import { compileFormSchema } from './values/formSchema'
import { stepListProblem } from './steps/stepListProblem'
import { isPlainObject, joinPath } from './values/paths'
import { registerFormTools } from './fill/registerFormTools'
import type { FormOptionsLookup, FormTools, WizardStep, WizardToolsOptions } from './values/types'

/**
 * Registers the tools of a wizard whose steps each have a form of their own: one
 * `<name>.fill` for every step at once (`{ values: { who: {…}, system: {…} } }`, all or
 * nothing across steps), `<name>.state` with each step's completeness, `<name>.options` when a
 * step has `optionLookups({...})`, and one `<name>.submit` that validates every step, shows the
 * whole submission for confirmation and calls `onSubmit` with each step's values under its id.
 * The steps are a plain list: the wizard code comes with this function.
 *
 * @example
 * createWizardTools(tm, {
 *   name: 'access',
 *   description: 'The access-request wizard',
 *   steps: [
 *     {
 *       id: 'who',
 *       title: 'Who',
 *       adapter: whoAdapter,
 *       schema: whoSchema,
 *       options: optionLookups({ email: ({ query, signal }) => searchPeople(query, { signal }) }),
 *     },
 *     { id: 'system', title: 'System', adapter: systemAdapter, schema: systemSchema },
 *   ],
 *   onSubmit: (values) => api.requestAccess(values), // { who: {…}, system: {…} }
 *   onStepChange: (id) => showStep(id),
 * })
 * await tm.call('access.fill', { values: { who: { email: 'ana@example.com' }, system: { name: 'vpn' } } })
 */
export function createWizardTools<TValues = Record<string, unknown>>(
  tm: Toolmark,
  options: WizardToolsOptions<TValues>,
): FormTools {
  const label = typeof options?.name === 'string' ? options.name : ''
  const fail = (problem: Problem) => formProblem(tm, 'createWizardTools', label, problem)
  if (options === null || typeof options !== 'object') return fail(['wizard options'])
  const problem =
    baseOptionsProblem(options as unknown as Record<string, unknown>) ??
    wizardOptionsProblem(options)
  if (problem) return fail(problem)

  const steps = options.steps as readonly WizardStep<unknown>[]
  const jsonSchemas: JsonSchema[] = []
  for (const step of steps) {
    const json = formJsonSchemaOf(step.schema, step.jsonSchema)
    if (!json) return fail(['step no JSON Schema', step.id])
    if (compileFormSchema(json).kind !== 'object') return fail(['step not an object', step.id])
    jsonSchemas.push(json)
  }
  const combined = combineSteps(steps, jsonSchemas, (values, o) =>
    options.onSubmit(values as TValues, o),
  )

  // The lookup code comes with the steps' optionLookups(), as for a form: a wizard without
  // lookups does not bundle it either.
  const lookups: Record<string, FormOptionsLookup> = {}
  for (const step of steps) {
    for (const [field, lookup] of Object.entries(step.options?.lookups ?? {})) {
      lookups[joinPath(step.id, field)] = lookup
    }
  }
  Object.assign(lookups, options.options?.lookups)
  const declared = [options.options, ...steps.map((s) => s.options)].find((o) => o !== undefined)

  return registerFormTools(
    tm,
    {
      adapter: combined.adapter,
      schema: combined.schema,
      jsonSchema: combined.jsonSchema,
      steps: steps.map(({ id, title }) => (title ? { id, title } : { id })),
      sensitive: steps.flatMap((step) =>
        (step.sensitive ?? []).map((pattern) => joinPath(step.id, pattern)),
      ),
      options: lookupSource(declared, lookups),
      summaryValues: () => combined.adapter.getValues(),
    },
    options,
  )
}

function wizardOptionsProblem(options: WizardToolsOptions<any>): Problem | undefined {
  if (typeof options.onSubmit !== 'function') return ['onSubmit']
  return stepListProblem(options.steps, ['wizard steps'], (s): Problem | undefined => {
    if (!isStandardSchema(s.schema)) return ['step schema', s.id]
    const missing = missingMethod(s.adapter)
    if (missing) return ['step adapter', s.id, missing]
    if (!isPatternList(s.sensitive)) return ['step sensitive', s.id]
    if (s.options !== undefined) {
      if (!formCodeOf(s.options, 'optionLookups')) return ['step plain lookups', s.id]
      const { lookups } = s.options as { lookups: unknown }
      if (!isPlainObject(lookups)) return ['step lookups', s.id]
      for (const [field, fn] of Object.entries(lookups)) {
        if (typeof fn !== 'function') return ['step lookup', s.id, field]
      }
    }
    return undefined
  })
}
