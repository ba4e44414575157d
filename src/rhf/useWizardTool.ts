'use client'
import { useContext, useEffect, useMemo, useRef, useState } from 'react'
import type { UseFormReturn } from 'react-hook-form'
import type { StandardSchemaV1, ToolHints, Toolmark } from '@toolmark/core'
import { createFormMemory } from '@toolmark/core/forms'
import type { FormOptionsLookup } from '@toolmark/core/forms'
import { createRegistration } from '@toolmark/core/observers'
import { useResolvedToolmark } from '../ToolmarkContext'
import { ScopeContext, joinPath } from '../ScopeContext'
import { useIsomorphicLayoutEffect } from '../useIsomorphicLayoutEffect'
import type { UseFormToolResult } from './useFormTool'
import { useFormToolResult } from './useFormToolResult'
import { WIZARD_RULES, type WizardDeclaration } from './wizardRegistration'

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

/** The same array as last time while its items are the same. */
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
  const toolmark = useResolvedToolmark(options.toolmark, 'useWizardTool')
  const inherited = useContext(ScopeContext)
  const scope = inherited?.toolmark === toolmark ? inherited : null

  // One memory per set of forms: what the agent wrote and which fields are secret outlive
  // re-registering.
  const controls = useSameItems(options.steps.map((s) => s.form.control))
  // eslint-disable-next-line react-hooks/exhaustive-deps -- new forms get a new memory
  const memory = useMemo(() => createFormMemory(), [controls])
  const [step, setStep] = useState(() => options.steps[0]?.id)
  const declaration = { toolmark, scope, memory, options, setStep } as WizardDeclaration
  const [registration] = useState(() => createRegistration(declaration, WIZARD_RULES))
  // The latest steps and options for every callback; the tools are registered again only when
  // what agents see changed (see wizardToolsChanged).
  useIsomorphicLayoutEffect(() => {
    registration.update(declaration)
  })
  useEffect(() => registration.start(), [registration])

  const hasOptions = options.steps.some((s) =>
    Object.values(s.options ?? {}).some((lookup) => typeof lookup === 'function'),
  )
  return useFormToolResult(
    joinPath(scope?.path ?? '', options.name),
    hasOptions,
    options.steps.map((s) => s.id),
    step,
    setStep,
  )
}
