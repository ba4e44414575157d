import { StrictMode } from 'react'
import { vi } from 'vitest'
import { act, fireEvent, render, renderHook, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { z } from 'zod'
import { createToolmark, ok, questions, type ToolmarkOptions } from '@toolmark/core'
import type { JsonSchema, QuestionAnswer, StandardSchemaV1, Toolmark } from '@toolmark/core'
import { ConfirmDialog, ToolProvider, questionForm, useConfirmations } from '@toolmark/react'

/** A registry whose runs may ask, with the form its dialogs draw, as an app that asks creates it. */
const asking = (options: ToolmarkOptions = {}) =>
  createToolmark({ ...options, confirm: { questions: questions({ form: questionForm }) } })

/** A registry whose runs may ask, given no form. */
const askingBare = (options: ToolmarkOptions = {}) =>
  createToolmark({ ...options, confirm: { questions: questions() } })

const printer = z.object({
  floor: z.number().int().min(0).meta({ title: 'Floor' }),
  model: z.enum(['laser', 'inkjet']).meta({ title: 'Model' }),
  urgent: z.boolean().meta({ title: 'Urgent' }),
  note: z.string().optional().meta({ title: 'Note', description: 'Anything the tech should know' }),
})

/** A tool whose run asks one question and returns what it heard. */
function registerAsking(tm: Toolmark, schema: StandardSchemaV1 | JsonSchema = printer) {
  const answers: QuestionAnswer[] = []
  tm.register({
    name: 'tickets.file',
    title: 'File ticket',
    description: 'Files a ticket, asking for what it lacks',
    run: async (_input, ctx) => {
      const answer = await ctx.ask({ prompt: 'Which printer is it?', schema })
      answers.push(answer)
      return ok(answer)
    },
  })
  return answers
}

function renderDialog(tm: Toolmark) {
  return render(
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>,
  )
}

// user-event drives a whole form per test: slow on a busy machine, so more time than the default.
describe('ConfirmDialog with a question', { timeout: 20_000 }, () => {
  it('draws the question as a labelled form and answers with typed values', async () => {
    const tm = asking()
    const answers = registerAsking(tm)
    renderDialog(tm)
    const user = userEvent.setup({ delay: null })
    let pending!: ReturnType<Toolmark['call']>
    await act(async () => {
      pending = tm.call('tickets.file', {}, { caller: 'webmcp' })
    })

    const dialog = screen.getByRole('alertdialog', { name: 'File ticket' })
    expect(dialog).toHaveAccessibleDescription('Which printer is it?')
    const floor = within(dialog).getByRole('spinbutton', { name: 'Floor' })
    const model = within(dialog).getByRole('combobox', { name: 'Model' })
    const urgent = within(dialog).getByRole('checkbox', { name: 'Urgent' })
    const note = within(dialog).getByRole('textbox', { name: 'Note (optional)' })
    expect(floor).toHaveFocus()
    expect(urgent).not.toBeChecked()
    expect(note).toHaveAccessibleDescription('Anything the tech should know')
    const buttons = within(dialog).getAllByRole('button')
    expect(buttons.map((b) => b.textContent)).toEqual(['Decline', 'Answer'])

    await user.type(floor, '3')
    await user.selectOptions(model, 'inkjet')
    await user.click(urgent)
    await user.click(buttons[1])

    expect(await pending).toEqual({
      status: 'ok',
      data: { answered: true, value: { floor: 3, model: 'inkjet', urgent: true } },
    })
    expect(answers).toHaveLength(1)
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument())
  })

  it('shows an invalid answer’s issues beside their fields and keeps the question', async () => {
    const tm = asking()
    const answers = registerAsking(tm)
    renderDialog(tm)
    const user = userEvent.setup({ delay: null })
    await act(async () => {
      void tm.call('tickets.file')
    })
    const dialog = screen.getByRole('alertdialog')

    // Nothing chosen, nothing typed: the schema says what is missing.
    await user.click(within(dialog).getByRole('button', { name: 'Answer' }))
    const floor = within(dialog).getByRole('spinbutton', { name: 'Floor' })
    const model = within(dialog).getByRole('combobox', { name: 'Model' })
    await waitFor(() => expect(floor).toHaveAttribute('aria-invalid', 'true'))
    expect(model).toHaveAttribute('aria-invalid', 'true')
    expect(floor).toHaveFocus()
    expect(floor.getAttribute('aria-describedby')).toBeTruthy()
    expect(tm.confirmations.list()).toHaveLength(1)
    expect(answers).toEqual([])

    await user.type(floor, '2')
    await user.selectOptions(model, 'laser')
    await user.click(within(dialog).getByRole('button', { name: 'Answer' }))
    await waitFor(() => expect(tm.confirmations.list()).toEqual([]))
    expect(answers).toEqual([
      { answered: true, value: { floor: 2, model: 'laser', urgent: false } },
    ])
  })

  it('declines with the Decline button, and with Escape', async () => {
    const tm = asking()
    const answers = registerAsking(tm, { type: 'string', title: 'Printer name' })
    renderDialog(tm)
    const user = userEvent.setup({ delay: null })
    await act(async () => {
      void tm.call('tickets.file')
    })
    const dialog = screen.getByRole('alertdialog')
    expect(within(dialog).getByRole('textbox', { name: 'Printer name' })).toHaveFocus()
    await user.click(within(dialog).getByRole('button', { name: 'Decline' }))
    expect(answers).toEqual([{ answered: false, reason: 'declined' }])

    await act(async () => {
      void tm.call('tickets.file')
    })
    fireEvent(
      screen.getByRole('alertdialog'),
      new Event('cancel', { bubbles: false, cancelable: true }),
    )
    await act(async () => {})
    expect(answers).toEqual([
      { answered: false, reason: 'declined' },
      { answered: false, reason: 'declined' },
    ])
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
  })

  it('labels a single value "Your answer" and submits it with Enter', async () => {
    const tm = asking()
    const answers = registerAsking(tm, z.string().min(2))
    renderDialog(tm)
    const user = userEvent.setup({ delay: null })
    await act(async () => {
      void tm.call('tickets.file')
    })
    const field = screen.getByRole('textbox', { name: 'Your answer' })
    await user.type(field, 'x{Enter}')
    // The refused answer's issues come back from the registry's check, a promise later.
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'))
    expect(answers).toEqual([])
    await user.type(field, 'y{Enter}')
    await waitFor(() => expect(answers).toEqual([{ answered: true, value: 'xy' }]))
  })

  it('shows that a question expired instead of taking a late answer', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    try {
      const tm = asking({ limits: { confirmationExpiryMs: 2_000 } })
      const answers = registerAsking(tm, { type: 'string' })
      renderDialog(tm)
      await act(async () => {
        void tm.call('tickets.file')
      })
      await act(async () => {
        await vi.advanceTimersByTimeAsync(2_100)
      })
      const dialog = screen.getByRole('alertdialog')
      expect(within(dialog).getByRole('alert')).toHaveTextContent('This request expired')
      expect(within(dialog).getByRole('textbox', { name: 'Your answer' })).toBeDisabled()
      expect(answers).toEqual([{ answered: false, reason: 'expired' }])
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('ConfirmDialog with a question and a review list', { timeout: 20_000 }, () => {
  it('asks a question on its own, ahead of its caller’s review list, then shows the list', async () => {
    const tm = asking()
    const answers = registerAsking(tm, { enum: ['low', 'high'] })
    const reopened: number[] = []
    tm.register({
      name: 'tickets.reopen',
      title: 'Reopen ticket',
      description: 'Reopens a ticket',
      hints: { consequential: true },
      input: z.object({ id: z.number() }),
      summary: ({ id }) => `Reopen ticket #${id}`,
      run: ({ id }) => {
        reopened.push(id)
        return ok(true)
      },
    })
    renderDialog(tm)
    let asked!: ReturnType<Toolmark['call']>
    await act(async () => {
      await tm.call('tickets.reopen', { id: 1 }, { caller: 'inapp' })
      await tm.call('tickets.reopen', { id: 2 }, { caller: 'inapp' })
      asked = tm.call('tickets.file', {}, { caller: 'inapp' })
    })
    expect(tm.confirmations.list()).toHaveLength(3)

    // The question comes first and alone, although two approvals of the same caller are older.
    const dialog = screen.getByRole('alertdialog', { name: 'File ticket' })
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: /Approve/ })).not.toBeInTheDocument()
    expect(dialog).toHaveAccessibleDescription('Which printer is it?')
    const user = userEvent.setup({ delay: null })
    await user.selectOptions(within(dialog).getByRole('combobox'), 'high')
    await user.click(within(dialog).getByRole('button', { name: 'Answer' }))
    expect(await asked).toEqual({ status: 'ok', data: { answered: true, value: 'high' } })
    expect(answers).toEqual([{ answered: true, value: 'high' }])

    // Then the two approvals, as one review list.
    const review = await screen.findByRole('alertdialog', { name: 'Review 2 requests' })
    expect(within(review).getAllByRole('checkbox')).toHaveLength(2)
    fireEvent.click(within(review).getByRole('button', { name: 'Approve selected (2)' }))
    await waitFor(() => expect(reopened).toEqual([1, 2]))
  })
})

describe('ConfirmDialog while an approval runs', { timeout: 20_000 }, () => {
  it('shows a question the approved run asks, and the run finishes once it is answered', async () => {
    const tm = asking()
    const heard: QuestionAnswer[] = []
    tm.register({
      name: 'tickets.escalate',
      title: 'Escalate ticket',
      description: 'Escalates a ticket, asking to whom',
      hints: { consequential: true },
      summary: () => 'Escalate ticket #4',
      run: async (_input, ctx) => {
        const answer = await ctx.ask({
          prompt: 'To which team?',
          schema: { enum: ['network', 'desk'] },
        })
        heard.push(answer)
        return ok(answer)
      },
    })
    renderDialog(tm)
    const user = userEvent.setup({ delay: null })
    let escalating!: ReturnType<Toolmark['call']>
    await act(async () => {
      escalating = tm.call('tickets.escalate', {}, { caller: 'webmcp' })
    })
    await user.click(screen.getByRole('button', { name: 'Approve' }))

    // The approval runs, and its run asks: the question comes on screen, answerable.
    const dialog = await screen.findByRole('alertdialog', { name: 'Escalate ticket' })
    await waitFor(() => expect(dialog).toHaveAccessibleDescription('To which team?'))
    await user.selectOptions(within(dialog).getByRole('combobox'), 'network')
    await user.click(within(dialog).getByRole('button', { name: 'Answer' }))

    expect(await escalating).toEqual({ status: 'ok', data: { answered: true, value: 'network' } })
    expect(heard).toHaveLength(1)
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument())
  })

  it('shows a question that holds the scope an approved call waits for, and Decline frees both', async () => {
    const tm = asking()
    const closed: number[] = []
    tm.register({
      name: 't.close',
      title: 'Close ticket',
      description: 'Closes a ticket',
      hints: { consequential: true },
      summary: () => 'Close ticket #5',
      run: () => {
        closed.push(5)
        return ok(true)
      },
    })
    tm.register({
      name: 't.printer',
      title: 'Printer ticket',
      description: 'Files a printer ticket, asking which printer',
      run: async (_input, ctx) =>
        ok(await ctx.ask({ prompt: 'Which printer?', schema: { type: 'string' } })),
    })
    renderDialog(tm)
    const user = userEvent.setup({ delay: null })
    let printing!: ReturnType<Toolmark['call']>
    await act(async () => {
      await tm.call('t.close', {}, { caller: 'inapp' })
      printing = tm.call('t.printer', {}, { caller: 'webmcp' })
    })
    // The older request of the assistant first; approving it queues its run behind the
    // printer run, which waits for its question.
    await user.click(screen.getByRole('button', { name: 'Approve' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Printer ticket' })
    expect(dialog).toHaveTextContent('Requested by Browser agent')
    expect(closed).toEqual([])
    await user.click(within(dialog).getByRole('button', { name: 'Decline' }))

    expect(await printing).toEqual({ status: 'ok', data: { answered: false, reason: 'declined' } })
    await waitFor(() => expect(closed).toEqual([5]))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument())
  })

  it('shows a ctx.confirm the approved run asks, and Escape denies only that', async () => {
    const tm = asking()
    tm.register({
      name: 'tickets.merge',
      title: 'Merge tickets',
      description: 'Merges two tickets',
      hints: { consequential: true },
      summary: () => 'Merge #6 into #7',
      run: async (_input, ctx) => {
        const { approved } = await ctx.confirm({ summary: 'Also delete #6?' })
        return ok({ deleted: approved })
      },
    })
    renderDialog(tm)
    const user = userEvent.setup({ delay: null })
    let merging!: ReturnType<Toolmark['call']>
    await act(async () => {
      merging = tm.call('tickets.merge', {}, { caller: 'mcp' })
    })
    await user.click(screen.getByRole('button', { name: 'Approve' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Merge tickets' })
    await waitFor(() => expect(dialog).toHaveAccessibleDescription('Also delete #6?'))
    expect(within(dialog).getByRole('button', { name: 'Approve' })).toBeEnabled()
    fireEvent.keyDown(dialog, { key: 'Escape' })
    fireEvent(dialog, new Event('cancel', { cancelable: true }))

    expect(await merging).toEqual({ status: 'ok', data: { deleted: false } })
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument())
  })
})

describe('useConfirmations().answer', () => {
  it('answers a question from a custom UI and reports invalid answers', async () => {
    const tm = asking()
    const answers = registerAsking(tm, { enum: ['low', 'high'] })
    const { result } = renderHook(() => useConfirmations(), {
      wrapper: ({ children }) => <ToolProvider toolmark={tm}>{children}</ToolProvider>,
    })
    await act(async () => {
      void tm.call('tickets.file')
    })
    const [entry] = result.current.items
    expect(entry.question).toMatchObject({ prompt: 'Which printer is it?' })
    let outcome: unknown
    await act(async () => {
      outcome = await result.current.answer(entry.id, 'medium')
    })
    expect(outcome).toMatchObject({ status: 'invalid' })
    await act(async () => {
      outcome = await result.current.answer(entry.id, 'high')
    })
    expect(outcome).toEqual({ status: 'ok', data: null })
    expect(answers).toEqual([{ answered: true, value: 'high' }])
    expect(result.current.items).toEqual([])
  })
})

describe('<ConfirmDialog> on a registry whose questions() came without a form', () => {
  const bare = (tm: Toolmark, props: Record<string, unknown> = {}) =>
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog {...props} />
        </ToolProvider>
      </StrictMode>,
    )

  it('shows the prompt with Decline only, warns once in development, and declines', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const tm = askingBare()
      const answers = registerAsking(tm)
      bare(tm)
      expect(warn).not.toHaveBeenCalled()
      const user = userEvent.setup({ delay: null })
      await act(async () => {
        void tm.call('tickets.file', {}, { caller: 'webmcp' })
      })
      const dialog = screen.getByRole('alertdialog', { name: 'File ticket' })
      expect(dialog).toHaveAccessibleDescription('Which printer is it?')
      expect(dialog).toHaveTextContent('This question cannot be answered here, only declined.')
      expect(within(dialog).queryByRole('spinbutton')).toBeNull()
      const buttons = within(dialog).getAllByRole('button')
      expect(buttons.map((b) => b.textContent)).toEqual(['Decline'])
      expect(buttons[0]).toHaveFocus()
      expect(warn).toHaveBeenCalledTimes(1)
      expect(String(warn.mock.calls[0][0])).toContain('questions({ form: questionForm })')

      await user.click(buttons[0])
      expect(answers).toEqual([{ answered: false, reason: 'declined' }])
      await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument())

      // A second question: the same dialog, no second warning.
      await act(async () => {
        void tm.call('tickets.file', {}, { caller: 'webmcp' })
      })
      await user.click(within(screen.getByRole('alertdialog')).getByRole('button'))
      expect(answers).toHaveLength(2)
      expect(warn).toHaveBeenCalledTimes(1)
    } finally {
      warn.mockRestore()
    }
  })

  it('draws with questions={questionForm} passed to the dialog, for a registry made without a form', async () => {
    const tm = askingBare()
    const answers = registerAsking(tm, z.enum(['low', 'high']))
    bare(tm, { questions: questionForm })
    await act(async () => {
      void tm.call('tickets.file', {}, { caller: 'webmcp' })
    })
    const dialog = screen.getByRole('alertdialog', { name: 'File ticket' })
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Decline', 'Answer'])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Decline' }))
    await waitFor(() => expect(answers).toEqual([{ answered: false, reason: 'declined' }]))
  })

  it('still shows approvals as before: only questions need the form', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket',
      hints: { consequential: true },
      run: () => ok('closed'),
    })
    bare(tm)
    let pending!: ReturnType<Toolmark['call']>
    await act(async () => {
      pending = tm.call('tickets.close', {}, { caller: 'webmcp' })
    })
    const dialog = screen.getByRole('alertdialog')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }))
    expect(await pending).toEqual({ status: 'ok', data: 'closed' })
  })

  it('refuses anything but questionForm: development throws naming it, production reports invalid_options and declines only', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const dev = askingBare()
      expect(() => bare(dev, { questions: { Form: () => null } })).toThrow(
        /questions> takes questionForm from @toolmark\/react/,
      )
    } finally {
      error.mockRestore()
    }

    const tm = askingBare({ dev: false })
    const events: { code: string; message: string }[] = []
    tm.events.on('error', (event) => events.push(event))
    const answers = registerAsking(tm)
    bare(tm, { questions: () => null })
    await act(async () => {})
    expect(events.map((e) => e.code)).toEqual(['invalid_options'])
    expect(events[0].message).toContain('questionForm')
    await act(async () => {
      void tm.call('tickets.file', {}, { caller: 'webmcp' })
    })
    const dialog = screen.getByRole('alertdialog')
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Decline'])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Decline' }))
    await waitFor(() => expect(answers).toEqual([{ answered: false, reason: 'declined' }]))
  })
})

describe('questionForm', () => {
  it('is frozen, down to its parts', () => {
    expect(Object.isFrozen(questionForm)).toBe(true)
    const [key] = Object.getOwnPropertySymbols(questionForm)
    expect(Object.isFrozen((questionForm as unknown as Record<symbol, object>)[key])).toBe(true)
  })
})
