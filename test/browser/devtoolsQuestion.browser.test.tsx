import { StrictMode } from 'react'
import { render } from 'vitest-browser-react'
import { page, userEvent } from 'vitest/browser'
import { createToolmark, ok, questions } from '@toolmark/core'
import type { QuestionAnswer } from '@toolmark/core'
import { ToolProvider } from '@toolmark/react'
import { ToolmarkDevtools } from '@toolmark/react/devtools'

const button = (name: string) => page.getByRole('button', { name, exact: true })

describe('the devtools Confirmations tab with a question', () => {
  it('answers a question with JSON, shows an invalid answer, and never offers Approve', async () => {
    // Runs may ask, as an app that asks creates its registry.
    const tm = createToolmark({ confirm: { questions: questions() } })
    const answers: QuestionAnswer[] = []
    tm.register({
      name: 'notes.tag',
      title: 'Tag a note',
      description: 'Tags a note, asking which tag',
      run: async (_input, ctx) => {
        const answer = await ctx.ask({
          prompt: 'Which tag?',
          schema: { type: 'string', enum: ['home', 'work'] },
        })
        answers.push(answer)
        return ok(answer)
      },
    })
    await render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ToolmarkDevtools initialIsOpen />
        </ToolProvider>
      </StrictMode>,
    )
    const call = tm.call('notes.tag', {}, { caller: 'webmcp' })
    await userEvent.click(page.getByRole('tab', { name: /Confirmations/ }))
    const pending = page.getByRole('list', { name: 'Pending confirmations' })
    await expect.element(pending).toHaveTextContent('Which tag?')
    await expect.element(button('Approve Tag a note')).not.toBeInTheDocument()

    const field = page.getByLabelText('Answer (JSON)')
    await userEvent.fill(field, 'home')
    await userEvent.click(button('Answer Tag a note'))
    await expect.element(field).toHaveAttribute('aria-invalid', 'true')

    await userEvent.fill(field, '"garden"')
    await userEvent.click(button('Answer Tag a note'))
    await expect
      .element(page.getByRole('region', { name: 'Answered' }))
      .toHaveTextContent('Answered notes.tag: invalid')
    expect(tm.confirmations.list()).toHaveLength(1)

    await userEvent.fill(field, '"work"')
    await userEvent.click(button('Answer Tag a note'))
    expect(await call).toEqual({ status: 'ok', data: { answered: true, value: 'work' } })
    expect(answers).toEqual([{ answered: true, value: 'work' }])
    await expect.element(page.getByText('No pending confirmations.')).toBeVisible()
  })
})
