import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { useFormTool } from '@toolmark/react/rhf'

export const ticketSchema = z.object({
  title: z.string().trim().min(3, 'Give the ticket a title of at least 3 characters').max(80),
  priority: z.enum(['low', 'normal', 'high']),
  details: z.string().max(500),
})
export type TicketInput = z.input<typeof ticketSchema>
export type Ticket = z.output<typeof ticketSchema> & { id: string }

const empty: TicketInput = { title: '', priority: 'normal', details: '' }

/** The new-ticket form; the assistant fills and submits it through `ticket.fill` and `ticket.submit`. */
export function TicketForm({
  onCreate,
}: {
  onCreate: (values: z.output<typeof ticketSchema>) => Ticket
}) {
  const form = useForm<TicketInput, unknown, z.output<typeof ticketSchema>>({
    resolver: zodResolver(ticketSchema),
    defaultValues: empty,
  })
  const submit = (values: z.output<typeof ticketSchema>) => {
    const ticket = onCreate(values)
    form.reset(empty)
    return { id: ticket.id, title: ticket.title }
  }
  useFormTool(form, {
    name: 'ticket',
    title: 'Create ticket',
    description: 'The new-ticket form: a title, a priority and optional details.',
    schema: ticketSchema,
    onSubmit: submit,
    submitSummary: (values) => `Create the ticket “${values.title}” (${values.priority} priority)`,
  })
  const { errors } = form.formState
  return (
    <form className="card ticket-form" aria-label="New ticket" onSubmit={form.handleSubmit(submit)}>
      <h2>New ticket</h2>
      <label>
        Title
        <input {...form.register('title')} />
      </label>
      {errors.title && <p role="alert">{errors.title.message}</p>}
      <label>
        Priority
        <select {...form.register('priority')}>
          <option value="low">Low</option>
          <option value="normal">Normal</option>
          <option value="high">High</option>
        </select>
      </label>
      <label>
        Details
        <textarea rows={3} {...form.register('details')} />
      </label>
      <button type="submit">Create ticket</button>
    </form>
  )
}
