import { describe, expect, it } from 'vitest'
import { render } from 'vitest-browser-react'
import { page, userEvent } from 'vitest/browser'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { createToolmark } from '@toolmark/core'
import type { InteractionEvent, Toolmark } from '@toolmark/core'
import { startTour } from '@toolmark/core/tour'
import { useFormTool } from '@toolmark/react/rhf'

const schema = z.object({ title: z.string().min(3, 'At least 3 characters') })

function TicketForm({ tm, onSubmit }: { tm: Toolmark; onSubmit: () => void }) {
  const form = useForm({ defaultValues: { title: '' }, resolver: zodResolver(schema) })
  useFormTool(form, {
    name: 'ticket',
    description: 'The new-ticket form.',
    schema,
    onSubmit: () => ({ id: 1 }),
    toolmark: tm,
  })
  return (
    <form onSubmit={form.handleSubmit(onSubmit)}>
      <label>
        Title <input {...form.register('title')} />
      </label>
      <button type="submit">Create</button>
    </form>
  )
}

async function setup() {
  const tm = createToolmark()
  const interactions: InteractionEvent[] = []
  tm.events.on('interaction', (event) => interactions.push(event))
  let submitted = 0
  await render(<TicketForm tm={tm} onSubmit={() => submitted++} />)
  await expect.poll(() => tm.anchor('ticket.fill', 'title')).toBeDefined()
  const title = page.getByRole('textbox', { name: 'Title' })
  await userEvent.fill(title, 'Printer jams')
  const form = title.element().closest('form')!
  // Every submit Chromium fires is trusted, whoever set it off: what the fix cannot lean on.
  const trusted: boolean[] = []
  form.addEventListener('submit', (event) => trusted.push(event.isTrusted))
  interactions.length = 0
  return {
    tm,
    form,
    title,
    trusted,
    submits: () => interactions.filter((event) => event.type === 'submit'),
    submitted: () => submitted,
  }
}

/** A submit lands in the form, which both of its tools are anchored on. */
const bothTools = [
  { tool: 'ticket.fill', type: 'submit' },
  { tool: 'ticket.submit', type: 'submit' },
]
const createButton = () => page.getByRole('button', { name: 'Create', exact: true })

describe("a form's submit counts as the person's only after their activation, in Chromium", () => {
  it('form.requestSubmit() from a script is no submit interaction', async () => {
    const { form, trusted, submits, submitted } = await setup()
    form.requestSubmit()
    await expect.poll(submitted).toBe(1)
    expect(trusted).toEqual([true])
    expect(submits()).toEqual([])
  })

  it("a script's click on the submit button is no interaction", async () => {
    const { trusted, submits, submitted } = await setup()
    ;(createButton().element() as HTMLButtonElement).click()
    await expect.poll(submitted).toBe(1)
    expect(trusted).toEqual([true])
    expect(submits()).toEqual([])
  })

  it("the person's click on the submit button is a submit interaction", async () => {
    const { trusted, submits, submitted } = await setup()
    await userEvent.click(createButton())
    await expect.poll(submitted).toBe(1)
    expect(trusted).toEqual([true])
    expect(submits()).toEqual(bothTools)
  })

  it("the person's Enter in a field is a submit interaction", async () => {
    const { title, submits, submitted } = await setup()
    await userEvent.click(title)
    await userEvent.keyboard('{Enter}')
    await expect.poll(submitted).toBe(1)
    expect(submits()).toEqual(bothTools)
  })

  it("a script cannot submit again on the person's click, nor after their click in a field", async () => {
    const { form, title, submits, submitted } = await setup()
    await userEvent.click(createButton())
    await expect.poll(submitted).toBe(1)
    form.requestSubmit()
    await userEvent.click(title)
    form.requestSubmit()
    await expect.poll(submitted).toBe(3)
    expect(submits()).toEqual(bothTools)
  })

  it("a script's submit does not complete a guide tour's submit step", async () => {
    const { tm, form, submitted } = await setup()
    const tour = startTour(tm, {
      mode: 'guide',
      steps: [{ tool: 'ticket.submit', title: 'Create', text: 'Send it.' }],
    })
    await expect.poll(() => tour.getSnapshot().status).toBe('waiting')
    form.requestSubmit()
    await expect.poll(submitted).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(tour.getSnapshot()).toMatchObject({ status: 'waiting', index: 0 })
    tour.stop()
  })
})
