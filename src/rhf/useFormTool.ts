'use client'
import { useContext, useEffect, useMemo, useState } from 'react'
import type { FieldValues, UseFormReturn } from 'react-hook-form'
import { createFormMemory } from '@toolmark/core/forms'
import { createRegistration } from '@toolmark/core/observers'
import { useResolvedToolmark } from '../ToolmarkContext'
import { ScopeContext, joinScopePath } from '../ScopeContext'
import { useIsomorphicLayoutEffect } from '../useIsomorphicLayoutEffect'
import { FORM_RULES, type FormDeclaration } from './formRegistration'
import { declaredLookups, declaredSteps, optionFields } from './registrationParts'
import { useFormToolResult } from './useFormToolResult'
import { useFormProvenance } from '../useFormProvenance'
import type { UseFormToolOptions, UseFormToolResult } from './formToolTypes'

export type { UseFormToolOptions, UseFormToolResult } from './formToolTypes'

/**
 * Serves a react-hook-form form to agents while the component is mounted: `<name>.fill` writes
 * fields and returns what changed (never what the user typed, unless told to overwrite; undoable
 * with `tm.undo(callId)`), `<name>.submit` submits after a person confirms, `<name>.state` reads
 * the form, and `<name>.options` looks up allowed values when `options` are given
 * (`optionLookups({...})`). Secrets are masked everywhere but in the form itself. `onSubmit` and
 * lookups always see the latest props. `formSteps` and `optionLookups` bring the wizard and the
 * lookup code: a form without them does not bundle it.
 *
 * @example
 * ```tsx
 * const schema = z.object({ title: z.string().min(1), priority: z.enum(['low', 'high']) })
 *
 * function NewTicket() {
 *   const form = useForm({ resolver: zodResolver(schema), defaultValues: { title: '', priority: 'low' } })
 *   const save = useSaveTicket()
 *   useFormTool(form, {
 *     name: 'ticket',
 *     title: 'Create ticket',
 *     description: 'The new-ticket form: a title and a priority.',
 *     schema,
 *     onSubmit: (values) => save(values), // returns { id }: the agent gets it as `data`
 *   })
 *   return <form onSubmit={form.handleSubmit(save)}>…</form>
 * }
 * // An agent: tm.call('ticket.fill', { values: { title: 'Printer on fire' } })
 * // → { status: 'ok', data: { changes: [{ path: 'title', after: 'Printer on fire' }], skipped: [] } }
 * ```
 *
 * @example
 * ```tsx
 * // A wizard over one form: one fill for every step, and the visible step follows the agent.
 * const { step, setStep } = useFormTool(form, {
 *   name: 'access',
 *   description: 'The access-request wizard.',
 *   schema: accessSchema,
 *   onSubmit: save,
 *   steps: formSteps([
 *     { id: 'who', title: 'Who', fields: ['email', 'name'] },
 *     { id: 'why', title: 'Why', fields: ['reason'] },
 *   ]),
 * })
 * // An agent: tm.call('access.fill', { values: { who: { email: 'ana@example.com' }, why: { reason: 'Audit' } } })
 * ```
 *
 * @example
 * ```tsx
 * // What the agent wrote: a badge and a revert control per field it filled.
 * const tool = useFormTool(form, { name: 'ticket', description: 'The new-ticket form.', schema, onSubmit: save })
 * const filled = tool.provenance.get('title') // { callId, caller, at } while the title is the agent's
 * // <button onClick={() => tool.revertField('title')}>Revert</button> → { status: 'reverted', change }
 * ```
 */
export function useFormTool<
  TFieldValues extends FieldValues,
  TContext = any,
  TTransformedValues = TFieldValues,
>(
  form: UseFormReturn<TFieldValues, TContext, TTransformedValues>,
  options: UseFormToolOptions<TFieldValues, TTransformedValues>,
): UseFormToolResult {
  const toolmark = useResolvedToolmark(options.toolmark, 'useFormTool')
  const inherited = useContext(ScopeContext)
  const scope = inherited?.toolmark === toolmark ? inherited : null

  const { control } = form
  // One memory per form: what the agent wrote and which fields are secret outlive re-registering.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new form gets a new memory
  const memory = useMemo(() => createFormMemory(), [control])
  const steps = declaredSteps(options.steps)
  const [step, setStep] = useState(() => steps?.[0]?.id)

  const declaration = {
    toolmark,
    scope,
    form,
    memory,
    options,
    setStep,
  } as unknown as FormDeclaration
  const [registration] = useState(() => createRegistration(declaration, FORM_RULES))
  // The latest form and options for every callback; the tools are registered again only when
  // what agents see changed (see formToolsChanged).
  useIsomorphicLayoutEffect(() => {
    registration.update(declaration)
  })
  useEffect(() => registration.start(), [registration])

  const base = joinScopePath(scope?.path ?? '', options.name)
  const hasOptions = optionFields(declaredLookups(options.options)).length > 0
  const provenance = useFormProvenance(memory)
  return useFormToolResult(
    base,
    hasOptions,
    steps?.map((s) => s.id),
    step,
    setStep,
    provenance,
  )
}
