import { StrictMode, useRef } from 'react'
import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { createToolmark } from '@toolmark/core'
import type { InteractionEvent, Toolmark } from '@toolmark/core'
import { startTour } from '@toolmark/core/tour'
import { useDomFormTool } from '@toolmark/react'
import { useFormTool } from '@toolmark/react/rhf'

const schema = z.object({
  title: z.string().min(3, 'At least 3 characters'),
  body: z.string(),
})

function TicketForm({ tm }: { tm: Toolmark }) {
  const form = useForm({ defaultValues: { title: '', body: '' }, resolver: zodResolver(schema) })
  useFormTool(form, {
    name: 'ticket',
    description: 'The new-ticket form.',
    schema,
    onSubmit: () => ({ id: 1 }),
    toolmark: tm,
  })
  return (
    <form onSubmit={form.handleSubmit(() => {})}>
      <label>
        Title <input {...form.register('title')} />
      </label>
      <label>
        Body <textarea {...form.register('body')} />
      </label>
      <button type="submit">Create</button>
    </form>
  )
}

function Profile({ tm }: { tm: Toolmark }) {
  const ref = useRef<HTMLFormElement>(null)
  useDomFormTool(ref, { name: 'profile', description: 'The profile form.', toolmark: tm })
  return (
    <form ref={ref}>
      <label>
        Name <input name="name" required minLength={2} />
      </label>
      <button>Save</button>
    </form>
  )
}

const flush = () => act(async () => {})

describe('forms anchor their own tools', () => {
  it('useFormTool: each field, the form for fill, the submit button for submit; gone on unmount', async () => {
    const tm = createToolmark({ dev: true })
    const { unmount } = render(
      <StrictMode>
        <TicketForm tm={tm} />
      </StrictMode>,
    )
    await flush()
    expect(tm.anchor('ticket.fill', 'title')).toBe(screen.getByLabelText('Title'))
    expect(tm.anchor('ticket.fill', 'body')).toBe(screen.getByLabelText('Body'))
    expect(tm.anchor('ticket.fill')).toBe(screen.getByLabelText('Title').closest('form'))
    expect(tm.anchor('ticket.submit')).toBe(screen.getByRole('button', { name: 'Create' }))
    expect(tm.anchor('ticket.fill', 'nope')).toBeUndefined()
    unmount()
    expect(tm.anchor('ticket.fill', 'title')).toBeUndefined()
  })

  it("a guide tour's field step moves on once the field holds a value the schema accepts", async () => {
    const tm = createToolmark({ dev: true })
    render(<TicketForm tm={tm} />)
    await flush()
    const filled = await act(() => tm.call('ticket.fill', { values: { title: 'Printer jams' } }))
    expect(filled.status).toBe('ok')
    await flush()
    const tour = startTour(tm, {
      mode: 'guide',
      steps: [
        { tool: 'ticket.fill', field: 'title', title: 'Title', text: 'A title.' },
        { tool: 'ticket.fill', field: 'body', title: 'Body', text: 'What broke.' },
      ],
    })
    // The title holds a good value already: the tour is on the body, which is still empty.
    await vi.waitFor(() => expect(tour.getSnapshot().index).toBe(1))
    const { status, anchor } = tour.getSnapshot()
    expect(status).toBe('waiting')
    // Compared by identity: deep equality would walk the whole jsdom tree.
    expect(anchor === screen.getByLabelText('Body')).toBe(true)
    tour.stop()
  })

  it('useDomFormTool: fields by name, and a fill is not an interaction (jsdom events are untrusted)', async () => {
    const tm = createToolmark({ dev: true })
    const interactions: InteractionEvent[] = []
    tm.events.on('interaction', (event) => interactions.push(event))
    render(<Profile tm={tm} />)
    await flush()
    expect(tm.anchor('profile.fill', 'name')).toBe(screen.getByLabelText('Name'))
    await act(() => tm.call('profile.fill', { values: { name: 'Ada' } }))
    await userEvent.type(screen.getByLabelText('Name'), 'x')
    expect(interactions).toEqual([])
  })
})
