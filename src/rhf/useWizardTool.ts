'use client'
import { useContext, useEffect, useMemo, useRef, useState } from 'react'
import { createFormMemory } from '@toolmark/core/forms'
import { createRegistration } from '@toolmark/core/observers'
import { useResolvedToolmark } from '../ToolmarkContext'
import { ScopeContext, joinScopePath } from '../ScopeContext'
import { useIsomorphicLayoutEffect } from '../useIsomorphicLayoutEffect'
import type { UseFormToolResult } from './formToolTypes'
import { useFormToolResult } from './useFormToolResult'
import { useFormProvenance } from '../useFormProvenance'
import { WIZARD_RULES, type WizardDeclaration } from './wizardRegistration'
import { declaredLookups, optionFields } from './registrationParts'
import type { UseWizardToolOptions } from './wizardToolTypes'

export type { UseWizardToolOptions, UseWizardToolStep } from './wizardToolTypes'

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
 * Returns the tools' names and the step to show, which follows the agent's fills. The steps are
 * a plain list (this hook is the wizard code); a step's lookups come from `optionLookups({...})`,
 * as a form's do.
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
 *       {
 *         id: 'who',
 *         title: 'Who',
 *         form: who,
 *         schema: whoSchema,
 *         options: optionLookups({ email: ({ query }) => findPeople(query) }),
 *       },
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

  const hasOptions = options.steps.some((s) => optionFields(declaredLookups(s.options)).length > 0)
  const provenance = useFormProvenance(memory)
  return useFormToolResult(
    joinScopePath(scope?.path ?? '', options.name),
    hasOptions,
    options.steps.map((s) => s.id),
    step,
    setStep,
    provenance,
  )
}
