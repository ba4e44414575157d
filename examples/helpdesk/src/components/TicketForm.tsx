import { useEffect, useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { fileFields } from '@toolmark/core/forms'
import { useFormTool } from '@toolmark/react/rhf'
import { useTour } from '@toolmark/react/tour'
import {
  CATEGORIES,
  PRIORITIES,
  ticketInput,
  type Ticket,
  type TicketInput,
} from '../../shared/ticket.ts'
import { ATTACHMENT_TYPES, MAX_ATTACHMENT_BYTES, formatSize } from '../../shared/attachment.ts'
import { ApiError } from '../api.ts'
import { CATEGORY_LABELS, CURRENT_USER, PRIORITY_LABELS } from '../format.ts'
import { applyPendingFocus } from '../focus.ts'
import { useCreateTicket, useUpdateTicket } from '../queries.ts'
import { useNotify } from '../toast.tsx'
import { NEW_TICKET_TOUR } from '../tours.ts'
import { useDraft } from '../useDraft.ts'
import { AgentFilled } from './AgentFilled.tsx'
import { Field } from './Field.tsx'
import { SparkIcon } from './Icons.tsx'

/** The new-ticket form's attachment: one file, as an `<input type="file">` holds it. */
const attachmentField = z
  .custom<FileList>(
    (value) => typeof FileList !== 'undefined' && value instanceof FileList,
    'Choose a file',
  )
  .superRefine((list, ctx) => {
    if (list.length > 1) ctx.addIssue({ code: 'custom', message: 'Attach one file' })
    for (const file of Array.from(list)) {
      if (!(ATTACHMENT_TYPES as readonly string[]).includes(file.type)) {
        ctx.addIssue({ code: 'custom', message: `${file.name}: attach an image, a PDF or text` })
      } else if (file.size > MAX_ATTACHMENT_BYTES) {
        ctx.addIssue({
          code: 'custom',
          message: `${file.name} is ${formatSize(file.size)}; at most ${formatSize(MAX_ATTACHMENT_BYTES)}`,
        })
      }
    }
  })
  .optional()
  .describe('A screenshot or document for the ticket')

/** The new-ticket form: the ticket's fields and an attachment the API stores with it. */
const newTicketForm = ticketInput.extend({ attachment: attachmentField })
type TicketFormValues = z.infer<typeof newTicketForm>

/**
 * The attachment's rules for agents' fills: a `{ ref }` (a pasted image) must be one of these
 * types and sizes, the same the API enforces, or the fill is refused and writes nothing.
 */
const ATTACHMENT_FILES = fileFields({
  attachment: { accept: ATTACHMENT_TYPES, maxBytes: MAX_ATTACHMENT_BYTES },
})

export const EMPTY_TICKET: TicketInput = {
  title: '',
  requester: CURRENT_USER.email,
  category: 'other',
  priority: 'normal',
  description: '',
}

function valuesOf(ticket: Ticket): TicketInput {
  const { title, requester, category, priority, description } = ticket
  return { title, requester, category, priority, description }
}

export interface TicketFormProps {
  /** The ticket to edit; absent for a new ticket. */
  ticket?: Ticket
  onSaved(ticket: Ticket): void
  onCancel?(): void
}

/**
 * Creates a ticket, or edits one. Validated by the same zod schema the server uses, and served
 * to agents as `ticket.fill` / `ticket.submit` / `ticket.state`: a fill writes the fields the
 * person sees (never over what they typed), a submit waits for their approval.
 */
export function TicketForm({ ticket, onSaved, onCancel }: TicketFormProps) {
  const [defaults] = useState(() => (ticket ? valuesOf(ticket) : EMPTY_TICKET))
  // Editing keeps the ticket's fields only: attachments are added when a ticket is created.
  const schema = ticket ? ticketInput : newTicketForm
  const form = useForm<TicketFormValues>({
    resolver: zodResolver(schema),
    defaultValues: defaults,
    mode: 'onTouched',
  })
  // What the person typed survives a reload of this tab.
  const draft = useDraft(
    form,
    ticket ? `helpdesk.draft.ticket.${ticket.id}` : 'helpdesk.draft.new',
    defaults,
  )
  useEffect(applyPendingFocus)
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = form
  const create = useCreateTicket()
  const update = useUpdateTicket()
  const notify = useNotify()

  const save = async ({ attachment, ...values }: TicketFormValues) => {
    try {
      const saved = ticket
        ? await update.mutateAsync({ id: ticket.id, patch: values })
        : await create.mutateAsync({ ...values, files: attachment ? Array.from(attachment) : [] })
      notify(ticket ? `Ticket #${saved.id} updated` : `Ticket #${saved.id} created`)
      draft.clear()
      onSaved(saved)
      // What the agent reads back: the attachment by name, size and type, never its bytes.
      const attachments = saved.attachments.map(({ name, size, type }) => ({ name, size, type }))
      return { id: saved.id, title: saved.title, ...(ticket ? {} : { attachments }) }
    } catch (error) {
      if (error instanceof ApiError && error.issues.length > 0) {
        for (const issue of error.issues) {
          setError(issue.path as keyof TicketFormValues, { message: issue.message })
        }
      } else {
        setError('root', { message: error instanceof Error ? error.message : 'Saving failed' })
      }
      throw error
    }
  }

  const tool = useFormTool(form, {
    name: 'ticket',
    title: ticket ? `Save ticket #${ticket.id}` : 'Create ticket',
    description: ticket
      ? `The edit form of ticket #${ticket.id}, open on screen; submit saves the changes.`
      : 'The new-ticket form on screen; submit creates the ticket.',
    schema,
    onSubmit: save,
    ...(ticket ? {} : { files: ATTACHMENT_FILES }),
    submitSummary: (values) =>
      ticket
        ? `Save changes to ticket #${ticket.id}`
        : `Create ticket “${values.title}” (${values.priority} priority)`,
  })

  const headingId = ticket ? 'form-title-edit' : 'form-title-new'
  return (
    <form
      className="ticket-form"
      aria-labelledby={headingId}
      noValidate
      onSubmit={handleSubmit(async (values) => {
        await save(values).catch(() => {})
      })}
    >
      <div className="ticket-form__header ticket-form__header--with-action">
        <div>
          <h1
            id={headingId}
            data-focus-target="pane"
            data-focus-key={ticket ? `edit:${ticket.id}` : 'new'}
            tabIndex={-1}
          >
            {ticket ? `Edit ticket #${ticket.id}` : 'New ticket'}
          </h1>
          <p>
            {ticket
              ? 'Update the details; the requester sees the change on their ticket.'
              : 'Log a problem for someone, or for yourself. Everything can be edited later.'}
          </p>
        </div>
        {!ticket && <ShowMeHow />}
      </div>

      <Field
        label="Title"
        name="title"
        mark={<AgentFilled tool={tool} path="title" />}
        error={errors.title?.message}
        required
      >
        <input
          id="field-title"
          autoComplete="off"
          placeholder="e.g. Printer on floor 3 jams on every job"
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={errors.title ? 'field-title-error' : undefined}
          {...register('title')}
        />
      </Field>

      <div className="ticket-form__row">
        <Field
          label="Requester email"
          name="requester"
          mark={<AgentFilled tool={tool} path="requester" />}
          error={errors.requester?.message}
          required
        >
          <input
            id="field-requester"
            type="email"
            autoComplete="email"
            aria-invalid={errors.requester ? true : undefined}
            aria-describedby={errors.requester ? 'field-requester-error' : undefined}
            {...register('requester')}
          />
        </Field>
        <Field
          label="Category"
          name="category"
          mark={<AgentFilled tool={tool} path="category" />}
          error={errors.category?.message}
        >
          <select id="field-category" {...register('category')}>
            {CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {CATEGORY_LABELS[category]}
              </option>
            ))}
          </select>
        </Field>
      </div>

      <fieldset className="field">
        <legend>Priority</legend>
        <div className="segmented">
          {PRIORITIES.map((priority) => (
            <label key={priority} className={`segmented__option priority--${priority}`}>
              <input type="radio" value={priority} {...register('priority')} />
              <span>{PRIORITY_LABELS[priority]}</span>
            </label>
          ))}
        </div>
        <AgentFilled tool={tool} path="priority" />
        {errors.priority?.message && <p className="field__error">{errors.priority.message}</p>}
      </fieldset>

      <Field
        label="Description"
        name="description"
        mark={<AgentFilled tool={tool} path="description" />}
        error={errors.description?.message}
      >
        <textarea
          id="field-description"
          rows={7}
          placeholder="What happened? What have you tried? Paste exact error messages."
          {...register('description')}
        />
      </Field>

      {!ticket && <AttachmentField form={form} error={errors.attachment?.message} />}

      {errors.root?.message && (
        <p className="form-error" role="alert">
          {errors.root.message}
        </p>
      )}

      <div className="ticket-form__footer">
        <span className="muted">
          {isDirty ? 'Unsaved changes' : ticket ? 'No changes yet' : 'Fields with * are required'}
        </span>
        {onCancel && (
          <button
            type="button"
            className="button"
            onClick={() => {
              draft.clear()
              onCancel()
            }}
          >
            Cancel
          </button>
        )}
        <button type="submit" className="button button--primary" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : ticket ? 'Save changes' : 'Create ticket'}
        </button>
      </div>
    </form>
  )
}

/**
 * Starts the same guided tour the assistant starts for "show me how to file a ticket": each
 * step waits until the person has done it on the form.
 */
function ShowMeHow() {
  const { start, snapshot } = useTour()
  const touring = snapshot?.status !== undefined && !['done', 'stopped'].includes(snapshot.status)
  return (
    <button
      type="button"
      className="button button--small"
      disabled={touring}
      onClick={() => start({ mode: 'guide', steps: NEW_TICKET_TOUR })}
    >
      <SparkIcon /> Show me how
    </button>
  )
}

/**
 * The attachment input, with what it holds (an agent's fill shows here too) and the rules. The
 * file goes up with the ticket when it is created.
 */
function AttachmentField({
  form,
  error,
}: {
  form: ReturnType<typeof useForm<TicketFormValues>>
  error?: string
}) {
  const attached = useWatch({ control: form.control, name: 'attachment' })
  const files = attached ? Array.from(attached) : []
  return (
    <Field label="Attachment" name="attachment" error={error}>
      <div className="attachment-field">
        <input
          id="field-attachment"
          type="file"
          accept={ATTACHMENT_TYPES.join(',')}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'field-attachment-error' : 'field-attachment-hint'}
          {...form.register('attachment')}
        />
        {files.length > 0 && (
          <ul className="attachment-field__files" aria-label="Attached files">
            {files.map((file) => (
              <li key={`${file.name}:${file.size}`}>
                {file.name}{' '}
                <span className="muted">
                  ({formatSize(file.size)}, {file.type})
                </span>
              </li>
            ))}
          </ul>
        )}
        <p className="attachment-field__hint muted" id="field-attachment-hint">
          An image, PDF or text file up to {formatSize(MAX_ATTACHMENT_BYTES)}. Paste a screenshot
          into the assistant and ask it to attach it.
        </p>
      </div>
    </Field>
  )
}
