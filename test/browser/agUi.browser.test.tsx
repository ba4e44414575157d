import { StrictMode } from 'react'
import { render } from 'vitest-browser-react'
import { page } from 'vitest/browser'
import { z } from 'zod'
import { HttpAgent } from '@ag-ui/client'
import { createToolmark, ok, questions } from '@toolmark/core'
import { ConfirmDialog, ToolProvider, questionForm, useTool } from '@toolmark/react'
import { useAgUiSession } from '@toolmark/react/ag-ui'
import { agUiServer, scriptedModel } from '../agUiServer'

function Tickets({ closed }: { closed: string[] }) {
  useTool({
    name: 'tickets.close',
    description: 'Closes a ticket.',
    input: z.object({ id: z.string() }),
    hints: { consequential: true },
    summary: ({ id }) => `Close ${id}`,
    run: ({ id }) => (closed.push(id), ok({ id, closed: true })),
  })
  return null
}

function FileTicket({ filed }: { filed: unknown[] }) {
  useTool({
    name: 'tickets.file',
    title: 'File ticket',
    description: 'Files a ticket, asking which floor it is on.',
    input: z.object({ id: z.string() }),
    run: async ({ id }, ctx) => {
      const answer = await ctx.ask({
        prompt: `Which floor is ${id} on?`,
        schema: {
          type: 'object',
          properties: { floor: { type: 'integer', minimum: 0, title: 'Floor' } },
          required: ['floor'],
        },
      })
      filed.push(answer)
      return ok({ id, answer })
    },
  })
  return null
}

/** Lists the interrupts it is shown and answers the first one with a floor, as an agent UI would. */
function InterruptAssistant({ agent }: { agent: HttpAgent }) {
  const { status, interrupts, send, resume } = useAgUiSession(agent, {
    confirmations: 'interrupt',
  })
  return (
    <section aria-label="Assistant">
      <button onClick={() => void send('File T-1')}>Send</button>
      <output aria-label="Status">{status}</output>
      <ul aria-label="Interrupts">
        {interrupts.map((i) => (
          <li key={i.id}>
            {`${i.reason}: ${i.message}`}
            <button
              onClick={() =>
                void resume([{ interruptId: i.id, status: 'resolved', payload: { floor: 2 } }])
              }
            >
              Floor 2
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** Renders the approvals it is shown as interrupts, with its own buttons, as an agent UI does. */
function InterruptApprovals({ agent }: { agent: HttpAgent }) {
  const { status, interrupts, send, resume } = useAgUiSession(agent, {
    confirmations: 'interrupt',
  })
  return (
    <section aria-label="Assistant">
      <button onClick={() => void send('Close T-1')}>Send</button>
      <output aria-label="Status">{status}</output>
      <ul aria-label="Interrupts">
        {interrupts.map((i) => (
          <li key={i.id}>
            {`${i.reason}: ${i.message}`}
            <button
              onClick={() =>
                void resume([
                  { interruptId: i.id, status: 'resolved', payload: { approved: true } },
                ])
              }
            >
              Approve in chat
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}

function Assistant({ agent }: { agent: HttpAgent }) {
  const { status, send } = useAgUiSession(agent)
  return (
    <section aria-label="Assistant">
      <button onClick={() => void send('Close T-1')}>Send</button>
      <output aria-label="Status">{status}</output>
    </section>
  )
}

describe('AG-UI in Chromium', () => {
  it("runs an AG-UI agent's tool call in the page after the person approves it in the dialog", async () => {
    const tm = createToolmark({ dev: true, confirm: { questions: questions() } })
    const closed: string[] = []
    const model = scriptedModel([
      [{ toolName: 'tickets__close', input: { id: 'T-1' } }],
      'Closed T-1.',
    ])
    const server = agUiServer(model)
    const agent = new HttpAgent({ url: 'http://localhost/api/agent', fetch: server.fetch })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Tickets closed={closed} />
          <Assistant agent={agent} />
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )

    await page.getByRole('button', { name: 'Send' }).click()
    const dialog = page.getByRole('alertdialog')
    await expect.element(dialog).toHaveTextContent('Close T-1')
    expect(closed).toEqual([])
    await dialog.getByRole('button', { name: 'Approve' }).click()

    await expect.element(page.getByLabelText('Status')).toHaveTextContent('idle')
    expect(closed).toEqual(['T-1'])
    expect(server.inputs).toHaveLength(2)
    const answer = server.inputs[1].messages.find((m) => m.role === 'tool')
    expect(JSON.parse(String(answer?.content))).toEqual({
      status: 'ok',
      data: { id: 'T-1', closed: true },
    })
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Closed T-1.' })
  })

  it('answers an approval interrupt with a pointer click in the chat while <ConfirmDialog> is mounted; the dialog asks only the rest', async () => {
    const tm = createToolmark({ dev: true, confirm: { questions: questions() } })
    const closed: string[] = []
    const model = scriptedModel([
      [{ toolName: 'tickets__close', input: { id: 'T-1' } }],
      'Closed T-1.',
    ])
    const server = agUiServer(model)
    const agent = new HttpAgent({ url: 'http://localhost/api/agent', fetch: server.fetch })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Tickets closed={closed} />
          <InterruptApprovals agent={agent} />
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )

    await page.getByRole('button', { name: 'Send' }).click()
    await expect.element(page.getByLabelText('Status')).toHaveTextContent('interrupted')
    await expect.element(page.getByRole('listitem')).toHaveTextContent('tool_approval: Close T-1')
    // The interrupt is the one place it is asked: no modal dialog, no backdrop over the chat.
    await expect.element(page.getByRole('alertdialog')).not.toBeInTheDocument()
    await page.getByRole('button', { name: 'Approve in chat' }).click()

    await expect.element(page.getByLabelText('Status')).toHaveTextContent('idle')
    expect(closed).toEqual(['T-1'])
    expect(tm.confirmations.list()).toEqual([])
    const answer = server.inputs[1].messages.find((m) => m.role === 'tool')
    expect(JSON.parse(String(answer?.content))).toEqual({
      status: 'ok',
      data: { id: 'T-1', closed: true },
    })

    // A confirmation that is not an interrupt (the app's own call) still opens the dialog.
    const own = tm.call('tickets.close', { id: 'T-2' })
    const dialog = page.getByRole('alertdialog')
    await expect.element(dialog).toHaveTextContent('Close T-2')
    await expect(own).resolves.toMatchObject({ status: 'needs_confirmation' })
    await dialog.getByRole('button', { name: 'Approve' }).click()
    await expect.element(page.getByRole('alertdialog')).not.toBeInTheDocument()
    expect(closed).toEqual(['T-1', 'T-2'])
  })

  it('shows a question as an AG-UI interrupt only; the chat answers it with a pointer click while <ConfirmDialog> is mounted', async () => {
    const tm = createToolmark({ dev: true, confirm: { questions: questions() } })
    const filed: unknown[] = []
    const model = scriptedModel([
      [{ toolName: 'tickets__file', input: { id: 'T-1' } }],
      'Filed.',
      [{ toolName: 'tickets__file', input: { id: 'T-2' } }],
      'Filed again.',
    ])
    const server = agUiServer(model)
    const agent = new HttpAgent({ url: 'http://localhost/api/agent', fetch: server.fetch })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <FileTicket filed={filed} />
          <InterruptAssistant agent={agent} />
          <ConfirmDialog questions={questionForm} />
        </ToolProvider>
      </StrictMode>,
    )

    for (const id of ['T-1', 'T-2']) {
      await page.getByRole('button', { name: 'Send' }).click()
      await expect.element(page.getByLabelText('Status')).toHaveTextContent('interrupted')
      await expect
        .element(page.getByRole('listitem'))
        .toHaveTextContent(`tool_question: Which floor is ${id} on?`)
      await expect.element(page.getByRole('alertdialog')).not.toBeInTheDocument()
      await page.getByRole('button', { name: 'Floor 2' }).click()
      await expect.element(page.getByLabelText('Status')).toHaveTextContent('idle')
    }

    expect(filed).toEqual([
      { answered: true, value: { floor: 2 } },
      { answered: true, value: { floor: 2 } },
    ])
    expect(server.inputs).toHaveLength(4)
    const answers = server.inputs[3].messages
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.parse(String(m.content)))
    expect(answers).toEqual([
      { status: 'ok', data: { id: 'T-1', answer: { answered: true, value: { floor: 2 } } } },
      { status: 'ok', data: { id: 'T-2', answer: { answered: true, value: { floor: 2 } } } },
    ])
    expect(tm.confirmations.list()).toEqual([])
  })
})
