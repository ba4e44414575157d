import { useState } from 'react'
import { useForm, type UseFormReturn } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { optionLookups } from '@toolmark/core/forms'
import { useToolmark } from '@toolmark/react'
import { useWizardTool } from '@toolmark/react/rhf'
import {
  ACCESS_LEVELS,
  DIRECTORY,
  SYSTEMS,
  SYSTEM_IDS,
  accessSystem,
  accessWho,
  accessWhy,
  today,
  type AccessRequestValues,
  type AccessSystem,
  type AccessWho,
  type AccessWhy,
} from '../../shared/access.ts'
import type { Ticket } from '../../shared/ticket.ts'
import { useCreateTicket } from '../queries.ts'
import { useNotify } from '../toast.tsx'
import './AccessRequest.css'
import { Field } from './Field.tsx'

const STEPS = [
  { id: 'who', title: 'Who needs access' },
  { id: 'system', title: 'Which system' },
  { id: 'why', title: 'Why and until when' },
] as const
type StepId = (typeof STEPS)[number]['id']

const LEVEL_LABELS = { read: 'Read', write: 'Read and write', admin: 'Admin' } as const

/** People whose name, email or team matches the query, as options of `who.email`. */
function lookupPeople({ query }: { query: string }) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  return DIRECTORY.filter((person) =>
    words.every((word) =>
      `${person.name} ${person.email} ${person.team}`.toLowerCase().includes(word),
    ),
  ).map((person) => ({ value: person.email, title: `${person.name} (${person.team})` }))
}

/** The access ticket a request becomes. */
export function accessTicket({ who, system, why }: AccessRequestValues) {
  const systemName = SYSTEMS[system.system] ?? system.system
  const person = who.name ? `${who.name} <${who.email}>` : who.email
  return {
    title: `Access to ${systemName} (${system.level}) for ${who.name || who.email}`.slice(0, 120),
    requester: who.email,
    category: 'access' as const,
    priority: 'normal' as const,
    description: `${person} needs ${system.level} access to ${systemName} until ${why.until}.\n\nReason: ${why.reason}`,
  }
}

export interface AccessRequestProps {
  onFiled(ticket: Ticket): void
}

/**
 * The access-request wizard: three steps, each its own react-hook-form form, served to agents as
 * one wizard (`useWizardTool`): `access.fill` fills every step at once, `access.submit` files the
 * request after a person approved every step, `access.options` looks people up by name.
 */
export function AccessRequest({ onFiled }: AccessRequestProps) {
  const who = useForm<AccessWho>({
    resolver: zodResolver(accessWho),
    defaultValues: { email: '', name: '' },
    mode: 'onTouched',
  })
  const system = useForm<AccessSystem>({
    resolver: zodResolver(accessSystem),
    defaultValues: { system: '' as AccessSystem['system'], level: 'read' },
    mode: 'onTouched',
  })
  const why = useForm<AccessWhy>({
    resolver: zodResolver(accessWhy),
    defaultValues: { reason: '', until: '' },
    mode: 'onTouched',
  })
  const forms: Record<StepId, UseFormReturn<any>> = { who, system, why }
  const create = useCreateTicket()
  const notify = useNotify()
  const tm = useToolmark()
  const [submitting, setSubmitting] = useState(false)

  const tools = useWizardTool<AccessRequestValues>({
    name: 'access',
    title: 'Request access',
    // The signature already lists every field: the description says what the wizard is for.
    description: 'The access-request wizard on screen; submit files an access ticket.',
    steps: [
      {
        ...STEPS[0],
        form: who,
        schema: accessWho,
        options: optionLookups({ email: lookupPeople }),
      },
      { ...STEPS[1], form: system, schema: accessSystem },
      { ...STEPS[2], form: why, schema: accessWhy },
    ],
    submitSummary: (values) =>
      `Request ${values.system.level} access to ${SYSTEMS[values.system.system] ?? values.system.system} for ${values.who.email}`,
    onSubmit: async (values) => {
      const ticket = await create.mutateAsync(accessTicket(values))
      notify(`Access request #${ticket.id} filed`)
      onFiled(ticket)
      return { id: ticket.id, title: ticket.title }
    },
  })
  const step = (tools.step ?? 'who') as StepId
  const index = STEPS.findIndex((s) => s.id === step)

  const next = async () => {
    if (await forms[step].trigger()) tools.setStep(STEPS[index + 1].id)
  }
  // The person's submit runs the same tool agents call, as caller `human` (no dialog): every
  // step is checked, and an incomplete one is shown with its errors.
  const submit = async () => {
    setSubmitting(true)
    try {
      const result = await tm.call(tools.submit, {}, { caller: 'human' })
      if (result.status === 'error') notify('Filing the request failed', 'error')
      else if (result.status === 'refused') notify(result.message, 'error')
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <form
      className="ticket-form access-request"
      aria-labelledby="access-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        if (index < STEPS.length - 1) void next()
        else void submit()
      }}
    >
      <div className="ticket-form__header">
        <h1 id="access-title">Request access</h1>
        <p>Ask for access to a system for yourself or a colleague; it is filed as a ticket.</p>
      </div>

      <ol className="access-request__steps" aria-label="Steps">
        {STEPS.map((s, i) => (
          <li key={s.id} aria-current={s.id === step ? 'step' : undefined}>
            <button type="button" onClick={() => tools.setStep(s.id)} disabled={i > index}>
              <span className="access-request__number">{i + 1}</span> {s.title}
            </button>
          </li>
        ))}
      </ol>

      {step === 'who' && (
        <div className="ticket-form__row">
          <Field label="Email" name="email" error={who.formState.errors.email?.message} required>
            <input
              id="field-email"
              type="email"
              autoComplete="off"
              list="access-directory"
              {...who.register('email')}
            />
          </Field>
          <datalist id="access-directory">
            {DIRECTORY.map((person) => (
              <option key={person.email} value={person.email}>
                {person.name}
              </option>
            ))}
          </datalist>
          <Field label="Name" name="name" error={who.formState.errors.name?.message}>
            <input id="field-name" autoComplete="off" {...who.register('name')} />
          </Field>
        </div>
      )}

      {step === 'system' && (
        <>
          <Field
            label="System"
            name="system"
            error={system.formState.errors.system?.message}
            required
          >
            <select id="field-system" {...system.register('system')}>
              <option value="">Choose a system…</option>
              {SYSTEM_IDS.map((id) => (
                <option key={id} value={id}>
                  {SYSTEMS[id]}
                </option>
              ))}
            </select>
          </Field>
          <fieldset className="field">
            <legend>Access level</legend>
            <div className="segmented">
              {ACCESS_LEVELS.map((level) => (
                <label key={level} className="segmented__option">
                  <input type="radio" value={level} {...system.register('level')} />
                  <span>{LEVEL_LABELS[level]}</span>
                </label>
              ))}
            </div>
          </fieldset>
        </>
      )}

      {step === 'why' && (
        <>
          <Field label="Reason" name="reason" error={why.formState.errors.reason?.message} required>
            <textarea id="field-reason" rows={4} {...why.register('reason')} />
          </Field>
          <Field label="Until" name="until" error={why.formState.errors.until?.message} required>
            <input id="field-until" type="date" min={today()} {...why.register('until')} />
          </Field>
        </>
      )}

      <div className="ticket-form__footer">
        <span className="muted">
          Step {index + 1} of {STEPS.length}
        </span>
        {index > 0 && (
          <button
            type="button"
            className="button"
            onClick={() => tools.setStep(STEPS[index - 1].id)}
          >
            Back
          </button>
        )}
        {index < STEPS.length - 1 ? (
          <button type="submit" className="button button--primary">
            Next
          </button>
        ) : (
          <button type="submit" className="button button--primary" disabled={submitting}>
            {submitting ? 'Filing…' : 'Submit request'}
          </button>
        )}
      </div>
    </form>
  )
}
