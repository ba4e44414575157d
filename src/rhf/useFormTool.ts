'use client'
import { useContext, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { FieldValues, UseFormReturn } from 'react-hook-form'
import type { StandardSchemaV1, ToolHints, Toolmark } from '@toolmark/core'
import { createFormMemory, createFormTools } from '@toolmark/core/forms'
import type { FormOptionsLookup, FormStep, FormToolNames } from '@toolmark/core/forms'
import { useResolvedToolmark } from '../ToolmarkContext'
import { ScopeContext, joinPath } from '../ScopeContext'
import { createRhfAdapter } from './rhfAdapter'

/** Options of {@link useFormTool}. */
export interface UseFormToolOptions<TFieldValues extends FieldValues, TTransformedValues> {
  /** Prefix of the tools' names: `ticket` registers `ticket.fill`, `ticket.submit`, `ticket.state`. */
  name: string
  /** What the form is for, for the model. */
  description: string
  /** For people: the confirmation dialog's title for a submit. */
  title?: string
  /** The schema the form's resolver uses (`zodResolver(schema)`); fills are validated with it. */
  schema: StandardSchemaV1
  /** Runs on submit with the resolver's output; its return value is the submit tool's `data`. */
  onSubmit: (values: TTransformedValues) => unknown
  /**
   * Paths whose values are masked in results, confirmations and events (`'cards[].cvc'`).
   * Password, one-time-code and card inputs are found on their own.
   */
  sensitive?: readonly string[]
  /** Fields whose allowed values agents can look up with `<name>.options`. */
  options?: Readonly<Record<string, FormOptionsLookup>>
  /** The confirmation's one-liner for a submit. Default `Submit <title or name>`. */
  submitSummary?: (values: TFieldValues) => string
  /** Hints of `<name>.submit`. Default `{ consequential: true }`: a person confirms. */
  hints?: ToolHints
  /** The registry to use instead of the nearest `<ToolProvider>`'s. */
  toolmark?: Toolmark
  /**
   * Serves the form as a wizard: the fields each step shows (every field in one step). One fill
   * then takes every step's values at once, keyed by step id: `{ values: { who: { email } } }`.
   * Render the returned `step`; it follows the agent.
   */
  steps?: readonly FormStep[]
  /**
   * Called when a fill, an undo or an invalid submit moves a wizard to another step (the first
   * with an issue, else the last), for apps that keep the step elsewhere (a route).
   */
  onStepChange?: (stepId: string) => void
}

/** What {@link useFormTool} returns: the tools' full names and, for a wizard, its visible step. */
export interface UseFormToolResult extends FormToolNames {
  /** The step to show: the first until the agent or `setStep` moves it; undefined without steps. */
  step: string | undefined
  /** Shows a step (the wizard's Next and Back buttons). */
  setStep: (stepId: string) => void
}

const HINTS = ['readOnly', 'consequential', 'destructive', 'untrustedContent'] as const
const warned = new Set<string>()

/**
 * Serves a react-hook-form form to agents while the component is mounted: `<name>.fill` writes
 * fields and returns what changed (never what the user typed, unless told to overwrite; undoable
 * with `tm.undo(callId)`), `<name>.submit` submits after a person confirms, `<name>.state` reads
 * the form, and `<name>.options` looks up allowed values when `options` are given. Secrets are
 * masked everywhere but in the form itself. `onSubmit` and lookups always see the latest props.
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
 *   steps: [
 *     { id: 'who', title: 'Who', fields: ['email', 'name'] },
 *     { id: 'why', title: 'Why', fields: ['reason'] },
 *   ],
 * })
 * // An agent: tm.call('access.fill', { values: { who: { email: 'ana@example.com' }, why: { reason: 'Audit' } } })
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
  const tm = useResolvedToolmark(options.toolmark, 'useFormTool')
  const inherited = useContext(ScopeContext)
  const slot = inherited?.toolmark === tm ? inherited : null

  const latest = useRef({ form, options })
  useLayoutEffect(() => {
    latest.current = { form, options }
  })

  const { control } = form
  // One memory per form: what the agent wrote and which fields are secret outlive re-registering.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new form gets a new memory
  const memory = useMemo(() => createFormMemory(), [control])

  const { name, description, title, schema } = options
  const sensitiveKey = JSON.stringify(options.sensitive ?? [])
  const optionFields = Object.keys(options.options ?? {})
    .filter((field) => typeof options.options?.[field] === 'function')
    .sort()
    .join('\n')
  const hintsKey = options.hints ? HINTS.filter((h) => options.hints?.[h]).join(',') : undefined
  const hasSummary = typeof options.submitSummary === 'function'
  const stepsKey = options.steps ? JSON.stringify(options.steps) : ''
  const [step, setStep] = useState(() => options.steps?.[0]?.id)
  // Stable, so following the agent never re-registers the tools.
  const [moveStep] = useState(() => (id: string) => {
    setStep(id)
    latest.current.options.onStepChange?.(id)
  })

  useEffect(() => {
    const adapter = createRhfAdapter(
      () => latest.current.form as unknown as UseFormReturn<FieldValues, any, any>,
      (values) => latest.current.options.onSubmit(values as TTransformedValues),
    )
    if (tm.dev && !control._options.resolver && !warned.has(name)) {
      warned.add(name)
      console.warn(
        `[toolmark] useFormTool("${name}"): the form has no resolver, so a submit is not checked ` +
          'against the schema. Pass the same schema to useForm({ resolver: zodResolver(schema) }).',
      )
    }
    const lookups: Record<string, FormOptionsLookup> = {}
    for (const field of optionFields ? optionFields.split('\n') : []) {
      lookups[field] = (args) => {
        const lookup = latest.current.options.options?.[field]
        if (!lookup) throw new Error(`The options of "${field}" are gone`)
        return lookup(args)
      }
    }
    const tools = createFormTools(tm, adapter, {
      name,
      description,
      title,
      schema,
      sensitive: JSON.parse(sensitiveKey) as string[],
      options: lookups,
      submitSummary: hasSummary
        ? (values) => latest.current.options.submitSummary!(values as TFieldValues)
        : undefined,
      hints:
        hintsKey === undefined
          ? undefined
          : Object.fromEntries(
              hintsKey
                .split(',')
                .filter(Boolean)
                .map((h) => [h, true]),
            ),
      scope: slot ? slot.acquire() : undefined,
      memory,
      ...(stepsKey ? { steps: JSON.parse(stepsKey) as FormStep[], onStepChange: moveStep } : {}),
    })
    return () => tools.dispose()
  }, [
    tm,
    slot,
    control,
    memory,
    name,
    description,
    title,
    schema,
    sensitiveKey,
    optionFields,
    hintsKey,
    hasSummary,
    stepsKey,
    moveStep,
  ])

  const base = joinPath(slot?.path ?? '', name)
  const ids = options.steps?.map((s) => s.id)
  const shown = ids ? (step !== undefined && ids.includes(step) ? step : ids[0]) : undefined
  return useMemo(
    () => ({
      fill: `${base}.fill`,
      submit: `${base}.submit`,
      state: `${base}.state`,
      ...(optionFields ? { options: `${base}.options` } : {}),
      step: shown,
      setStep,
    }),
    [base, optionFields, shown],
  )
}
