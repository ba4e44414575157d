'use client'
import { useContext, useEffect, useMemo, useRef, useState } from 'react'
import type { FieldValues, UseFormReturn } from 'react-hook-form'
import type { StandardSchemaV1, ToolHints, Toolmark } from '@toolmark/core'
import { createFormMemory, createWizardTools } from '@toolmark/core/forms'
import type { FormOptionsLookup, WizardStep } from '@toolmark/core/forms'
import { hintsKey as toHintsKey, keyToHints } from '@toolmark/core/observers'
import { useResolvedToolmark } from '../ToolmarkContext'
import { ScopeContext, joinPath } from '../ScopeContext'
import { useIsomorphicLayoutEffect } from '../useIsomorphicLayoutEffect'
import { createRhfAdapter } from './rhfAdapter'
import type { UseFormToolResult } from './useFormTool'
import { useFormToolResult } from './useFormToolResult'

type AnyForm = UseFormReturn<FieldValues, any, any>

/** A step of {@link useWizardTool}: a `useForm` of its own. */
export interface UseWizardToolStep {
  /** Names the step in the fill's input (`values.who.email`): letters, digits, `_` or `-`. */
  id: string
  /** For people and the model (`Who needs access`). */
  title?: string
  /** The step's form, from `useForm` in the component that renders the wizard. */
  form: UseFormReturn<any, any, any>
  /** The schema the step form's resolver uses. */
  schema: StandardSchemaV1
  /** Paths of the step's form whose values are masked (`'password'`). */
  sensitive?: readonly string[]
  /** Fields of the step whose allowed values agents can look up with `<name>.options`. */
  options?: Readonly<Record<string, FormOptionsLookup>>
}

/** Options of {@link useWizardTool}. */
export interface UseWizardToolOptions<TValues = Record<string, any>> {
  /** Prefix of the tools' names: `access` registers `access.fill`, `access.submit`, … */
  name: string
  /** What the wizard is for, for the model. */
  description: string
  /** For people: the confirmation dialog's title for a submit. */
  title?: string
  /** The steps, in the order a person goes through them. */
  steps: readonly UseWizardToolStep[]
  /**
   * Runs once every step is valid, with each step's resolver output under its id
   * (`{ who: {…}, system: {…} }`); its return value is the submit tool's `data`.
   */
  onSubmit: (values: TValues) => unknown
  /** The confirmation's one-liner for a submit. Default `Submit <title or name>`. */
  submitSummary?: (values: TValues) => string
  /** Hints of `<name>.submit`. Default `{ consequential: true }`: a person confirms. */
  hints?: ToolHints
  /** Called when a fill, an undo or an invalid submit moves the wizard to another step. */
  onStepChange?: (stepId: string) => void
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
}

// Bundlers replace `process.env.NODE_ENV` with a string literal, so production builds drop the
// development warning below; declared here so the kit does not depend on Node's types.
declare const process: { env: { NODE_ENV?: string } }

const warned = new Set<string>()

/** The same array as last time while its items are the same, so it can be an effect dependency. */
function useSameItems<T>(items: T[]): T[] {
  const ref = useRef(items)
  const previous = ref.current
  const same = previous.length === items.length && previous.every((item, i) => item === items[i])
  useIsomorphicLayoutEffect(() => {
    if (!same) ref.current = items
  })
  return same ? previous : items
}

/**
 * Serves a wizard whose steps each have their own react-hook-form `useForm` as one set of tools:
 * `<name>.fill` takes every step's values at once (all or nothing across steps),
 * `<name>.state` tells which steps are complete, `<name>.submit` validates every step, shows the
 * whole submission to a person and calls `onSubmit` with each step's values under its id.
 * Returns the tools' names and the step to show, which follows the agent's fills.
 *
 * @example
 * ```tsx
 * function AccessWizard() {
 *   const who = useForm({ resolver: zodResolver(whoSchema), defaultValues: { email: '' } })
 *   const system = useForm({ resolver: zodResolver(systemSchema), defaultValues: { name: '' } })
 *   const { step, setStep } = useWizardTool({
 *     name: 'access',
 *     title: 'Request access',
 *     description: 'The access-request wizard: who needs access, and to which system.',
 *     steps: [
 *       { id: 'who', title: 'Who', form: who, schema: whoSchema },
 *       { id: 'system', title: 'System', form: system, schema: systemSchema },
 *     ],
 *     onSubmit: (values) => api.requestAccess(values), // { who: {…}, system: {…} }
 *   })
 *   return step === 'who' ? <WhoStep form={who} onNext={() => setStep('system')} /> : <SystemStep form={system} />
 * }
 * // An agent: tm.call('access.fill', { values: { who: { email: 'ana@example.com' }, system: { name: 'VPN' } } })
 * ```
 */
export function useWizardTool<TValues = Record<string, any>>(
  options: UseWizardToolOptions<TValues>,
): UseFormToolResult {
  const tm = useResolvedToolmark(options.toolmark, 'useWizardTool')
  const inherited = useContext(ScopeContext)
  const slot = inherited?.toolmark === tm ? inherited : null

  const latest = useRef(options)
  useIsomorphicLayoutEffect(() => {
    latest.current = options
  })

  const controls = useSameItems(options.steps.map((s) => s.form.control))
  const schemas = useSameItems(options.steps.map((s) => s.schema))
  // One memory per set of forms: what the agent wrote and which fields are secret.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- new forms get a new memory
  const memory = useMemo(() => createFormMemory(), [controls])

  const { name, description, title } = options
  const stepsKey = JSON.stringify(
    options.steps.map((s) => ({
      id: s.id,
      title: s.title,
      sensitive: s.sensitive ?? [],
      options: Object.keys(s.options ?? {})
        .filter((field) => typeof s.options?.[field] === 'function')
        .sort(),
    })),
  )
  // `undefined` (the default: consequential) differs from `{}` (no confirmation).
  const hintsKey = options.hints ? toHintsKey(options.hints) : undefined
  const hasSummary = typeof options.submitSummary === 'function'
  const [step, setStep] = useState(() => options.steps[0]?.id)
  const [moveStep] = useState(() => (id: string) => {
    setStep(id)
    latest.current.onStepChange?.(id)
  })

  useEffect(() => {
    const described = JSON.parse(stepsKey) as Array<{
      id: string
      title?: string
      sensitive: string[]
      options: string[]
    }>
    const steps: WizardStep[] = described.map((s, k) => {
      const formOf = () => latest.current.steps[k].form as AnyForm
      if (
        process.env.NODE_ENV !== 'production' &&
        tm.dev &&
        !controls[k]._options.resolver &&
        !warned.has(`${name}.${s.id}`)
      ) {
        warned.add(`${name}.${s.id}`)
        console.warn(
          `[toolmark] useWizardTool("${name}"): the form of step "${s.id}" has no resolver, so ` +
            'a submit does not check it. Pass its schema to useForm({ resolver: zodResolver(schema) }).',
        )
      }
      const lookups: Record<string, FormOptionsLookup> = {}
      for (const field of s.options) {
        lookups[field] = (args) => {
          const lookup = latest.current.steps[k].options?.[field]
          if (!lookup) throw new Error(`The options of "${s.id}.${field}" are gone`)
          return lookup(args)
        }
      }
      return {
        id: s.id,
        ...(s.title ? { title: s.title } : {}),
        // A step's submit validates it and hands its values back; the wizard submits once.
        adapter: createRhfAdapter(formOf, (values) => values),
        schema: schemas[k],
        sensitive: s.sensitive,
        options: lookups,
      }
    })
    const tools = createWizardTools(tm, {
      name,
      description,
      title,
      steps,
      onSubmit: (values) => latest.current.onSubmit(values as TValues),
      submitSummary: hasSummary
        ? (values) => latest.current.submitSummary!(values as TValues)
        : undefined,
      hints: hintsKey === undefined ? undefined : (keyToHints(hintsKey) ?? {}),
      scope: slot ? slot.acquire() : undefined,
      memory,
      onStepChange: moveStep,
    })
    return () => tools.dispose()
  }, [
    tm,
    slot,
    controls,
    schemas,
    memory,
    name,
    description,
    title,
    stepsKey,
    hintsKey,
    hasSummary,
    moveStep,
  ])

  const base = joinPath(slot?.path ?? '', name)
  const hasOptions = options.steps.some((s) =>
    Object.values(s.options ?? {}).some((lookup) => typeof lookup === 'function'),
  )
  return useFormToolResult(
    base,
    hasOptions,
    options.steps.map((s) => s.id),
    step,
    setStep,
  )
}
