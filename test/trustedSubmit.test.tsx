import { act, render, screen } from '@testing-library/react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { createToolmark } from '@toolmark/core'
import type { InteractionEvent, Toolmark } from '@toolmark/core'
import { startTour } from '@toolmark/core/tour'
import { useFormTool } from '@toolmark/react/rhf'

const schema = z.object({ title: z.string().min(3, 'At least 3 characters') })

function TicketForm({ tm }: { tm: Toolmark }) {
  const form = useForm({ defaultValues: { title: '' }, resolver: zodResolver(schema) })
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
      <button type="submit">Create</button>
    </form>
  )
}

const flush = () => act(async () => {})
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)))

/**
 * jsdom, like browsers, fires a trusted `submit` for `form.requestSubmit()` and for a script's
 * `button.click()`: neither is the person submitting.
 */
describe("a script's submit is not the person's", () => {
  async function setup() {
    const tm = createToolmark({ dev: true })
    const interactions: InteractionEvent[] = []
    tm.events.on('interaction', (event) => interactions.push(event))
    render(<TicketForm tm={tm} />)
    await flush()
    const filled = await act(() => tm.call('ticket.fill', { values: { title: 'Printer jams' } }))
    expect(filled.status).toBe('ok')
    const form = screen.getByLabelText('Title').closest('form')!
    return { tm, interactions, form }
  }

  it('form.requestSubmit() from a script emits no submit interaction', async () => {
    const { interactions, form } = await setup()
    let submits = 0
    form.addEventListener('submit', (event) => event.isTrusted && submits++)
    act(() => form.requestSubmit())
    expect(submits).toBe(1)
    expect(interactions.filter((event) => event.type === 'submit')).toEqual([])
  })

  it("a script's click on the submit button emits no interaction either", async () => {
    const { interactions } = await setup()
    act(() => screen.getByRole('button', { name: 'Create' }).click())
    expect(interactions).toEqual([])
  })

  it("does not complete a guide tour's submit step", async () => {
    const { tm, form } = await setup()
    const tour = startTour(tm, {
      mode: 'guide',
      steps: [{ tool: 'ticket.submit', title: 'Create', text: 'Send it.' }],
    })
    await flush()
    expect(tour.getSnapshot().status).toBe('waiting')
    act(() => form.requestSubmit())
    await settle()
    expect(tour.getSnapshot()).toMatchObject({ status: 'waiting', index: 0 })
    tour.stop()
  })
})
