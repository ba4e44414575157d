import { StrictMode } from 'react'
import { render } from 'vitest-browser-react'
import { page, userEvent } from 'vitest/browser'
import axe from 'axe-core'
import { z } from 'zod'
import { createToolmark, ok, questions } from '@toolmark/core'
import type { QuestionAnswer, Toolmark } from '@toolmark/core'
import { ConfirmDialog, ToolProvider, questionForm, type ConfirmDialogProps } from '@toolmark/react'

const printer = z.object({
  floor: z.number().int().min(0).max(12).meta({ title: 'Floor' }),
  model: z.enum(['laser', 'inkjet']).meta({ title: 'Model' }),
  urgent: z.boolean().meta({ title: 'Urgent' }),
  note: z.string().max(200).optional().meta({
    title: 'Note',
    description: 'Anything the technician should know',
  }),
})

/** A registry whose `tickets.file` asks which printer it is; `answers` records what it heard. */
function setup() {
  // Runs may ask, as an app that asks creates its registry (the dialog here takes the form itself).
  const tm = createToolmark({ confirm: { questions: questions() } })
  const answers: QuestionAnswer[] = []
  tm.register({
    name: 'tickets.file',
    title: 'File ticket',
    description: 'Files a ticket about a printer, asking which one',
    run: async (_input, ctx) => {
      const answer = await ctx.ask({ prompt: 'Which printer is it?', schema: printer })
      answers.push(answer)
      return ok(answer.answered ? 'filed' : answer.reason)
    },
  })
  return { tm, answers }
}

function App({ tm, ...props }: { tm: Toolmark } & ConfirmDialogProps) {
  return (
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <main>
          <h1>Tickets</h1>
          <button type="button">Start</button>
        </main>
        <ConfirmDialog questions={questionForm} {...props} />
      </ToolProvider>
    </StrictMode>
  )
}

const dialog = () => page.getByRole('alertdialog')
const button = (name: string) => page.getByRole('button', { name, exact: true })

async function violations(element: Element) {
  const results = await axe.run(element)
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)
}

describe('ConfirmDialog asking a question, in Chromium', () => {
  it('is answered with the keyboard alone, and focus goes back where it was', async () => {
    const { tm, answers } = setup()
    await render(<App tm={tm} />)
    await userEvent.click(button('Start'))
    const call = tm.call('tickets.file', {}, { caller: 'webmcp' })

    await expect.element(dialog()).toBeVisible()
    expect((dialog().element() as HTMLDialogElement).matches(':modal')).toBe(true)
    await expect.element(page.getByRole('spinbutton', { name: 'Floor' })).toHaveFocus()

    await userEvent.keyboard('4')
    await userEvent.tab()
    await expect.element(page.getByRole('combobox', { name: 'Model' })).toHaveFocus()
    await userEvent.selectOptions(page.getByRole('combobox', { name: 'Model' }), 'laser')
    await userEvent.tab()
    await expect.element(page.getByRole('checkbox', { name: 'Urgent' })).toHaveFocus()
    await userEvent.keyboard(' ')
    await userEvent.tab()
    await expect.element(page.getByRole('textbox', { name: 'Note (optional)' })).toHaveFocus()
    await userEvent.keyboard('Paper jam{Enter}')

    expect(await call).toEqual({ status: 'ok', data: 'filed' })
    expect(answers).toEqual([
      {
        answered: true,
        value: { floor: 4, model: 'laser', urgent: true, note: 'Paper jam' },
      },
    ])
    await expect.element(dialog()).not.toBeInTheDocument()
    await expect.element(button('Start')).toHaveFocus()
  })

  it('shows what is wrong beside each field, moves focus there, and stays axe-clean', async () => {
    const { tm, answers } = setup()
    await render(<App tm={tm} />)
    void tm.call('tickets.file', {}, { caller: 'mcp' })
    await expect.element(dialog()).toBeVisible()
    expect(await violations(dialog().element())).toEqual([])

    const floor = page.getByRole('spinbutton', { name: 'Floor' })
    await userEvent.fill(floor, '40')
    await userEvent.click(button('Answer'))

    await expect.element(floor).toHaveAttribute('aria-invalid', 'true')
    await expect.element(floor).toHaveFocus()
    await expect
      .element(page.getByRole('combobox', { name: 'Model' }))
      .toHaveAttribute('aria-invalid', 'true')
    // The issue is the field's description, so a screen reader reads it with the field.
    const described = (floor.element() as HTMLInputElement).getAttribute('aria-describedby')!
    expect(document.getElementById(described)!.textContent).not.toBe('')
    expect(tm.confirmations.list()).toHaveLength(1)
    expect(answers).toEqual([])
    expect(await violations(dialog().element())).toEqual([])

    await userEvent.fill(floor, '2')
    await userEvent.selectOptions(page.getByRole('combobox', { name: 'Model' }), 'inkjet')
    await userEvent.click(button('Answer'))
    await expect.element(dialog()).not.toBeInTheDocument()
    expect(answers).toEqual([
      { answered: true, value: { floor: 2, model: 'inkjet', urgent: false } },
    ])
  })

  it('declines with Escape, and the run hears declined', async () => {
    const { tm, answers } = setup()
    await render(<App tm={tm} colorScheme="dark" />)
    const call = tm.call('tickets.file', {}, { caller: 'inapp' })
    await expect.element(page.getByRole('spinbutton', { name: 'Floor' })).toHaveFocus()
    expect(await violations(dialog().element())).toEqual([])

    await userEvent.keyboard('{Escape}')

    expect(await call).toEqual({ status: 'ok', data: 'declined' })
    expect(answers).toEqual([{ answered: false, reason: 'declined' }])
    await expect.element(dialog()).not.toBeInTheDocument()
  })

  it('without questions={questionForm}: the prompt and a focused Decline, axe-clean, and Enter declines', async () => {
    const { tm, answers } = setup()
    const warn = console.warn
    console.warn = () => {}
    try {
      await render(<App tm={tm} questions={undefined} />)
      await userEvent.click(button('Start'))
      const call = tm.call('tickets.file', {}, { caller: 'webmcp' })

      await expect.element(dialog()).toBeVisible()
      await expect.element(dialog()).toHaveAccessibleDescription('Which printer is it?')
      await expect.element(button('Decline')).toHaveFocus()
      expect(
        dialog()
          .getByRole('button')
          .elements()
          .map((b) => b.textContent),
      ).toEqual(['Decline'])
      expect(await violations(dialog().element())).toEqual([])

      await userEvent.keyboard('{Enter}')
      expect(await call).toEqual({ status: 'ok', data: 'declined' })
      expect(answers).toEqual([{ answered: false, reason: 'declined' }])
      await expect.element(dialog()).not.toBeInTheDocument()
      await expect.element(button('Start')).toHaveFocus()
    } finally {
      console.warn = warn
    }
  })
})
