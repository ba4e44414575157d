import { StrictMode } from 'react'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider'
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test'
import { createToolmark } from '@toolmark/core'
import type { CallEvent, Toolmark } from '@toolmark/core'
import { ToolProvider } from '@toolmark/react'
import { AssistantChat } from '../examples/ai-sdk-chat/src/assistant-ui/AssistantChat'
import { TicketForm } from '../examples/ai-sdk-chat/src/TicketForm'
import type { Ticket } from '../examples/ai-sdk-chat/src/TicketForm'
import { handleChat } from '../examples/ai-sdk-chat/server/chatRoute'

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
}

type Step = { toolName: string; input: unknown }[] | string

/** A model scripted per request: tool calls, or a text answer. */
function scriptedModel(steps: Step[]) {
  let turn = 0
  return new MockLanguageModelV4({
    doStream: async () => {
      const step = steps[turn++] ?? 'Done.'
      const chunks: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }]
      if (typeof step === 'string') {
        chunks.push(
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: step },
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
        )
      } else {
        step.forEach((call, i) =>
          chunks.push({
            type: 'tool-call',
            toolCallId: `call_${turn}_${i}`,
            toolName: call.toolName,
            input: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
          }),
        )
        chunks.push({
          type: 'finish',
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
        })
      }
      return { stream: convertArrayToReadableStream(chunks) }
    },
  })
}

/** What the model read in its n-th request: the tool results, as the SDK gives them. */
function toolResultsSeen(model: MockLanguageModelV4, request: number) {
  return model.doStreamCalls[request].prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content)
    .map((part) => (part.type === 'tool-result' ? [part.toolName, part.output] : [part.type]))
}

function setup(steps: Step[]) {
  const tm: Toolmark = createToolmark({ dev: true })
  const calls: CallEvent[] = []
  tm.events.on('call', (event) => calls.push(event))
  const created: Ticket[] = []
  const model = scriptedModel(steps)
  const bodies: Record<string, unknown>[] = []
  // The example's own route, answered in process: the same `handleChat` the dev server mounts.
  const routeFetch: typeof globalThis.fetch = async (url, init) => {
    const request = new Request(url as string, init)
    bodies.push((await request.clone().json()) as Record<string, unknown>)
    return handleChat(request, model)
  }
  render(
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <TicketForm
          onCreate={(values) => {
            const ticket = { ...values, id: `T-${created.length + 1}` }
            created.push(ticket)
            return ticket
          }}
        />
        <AssistantChat api="http://localhost/api/chat" fetch={routeFetch} />
      </ToolProvider>
    </StrictMode>,
  )
  const user = userEvent.setup()
  const ask = async (text: string) => {
    await user.type(screen.getByRole('textbox', { name: 'Message' }), text)
    await user.click(screen.getByRole('button', { name: 'Send' }))
  }
  return { tm, calls, created, model, bodies, user, ask }
}

const conversation = () => screen.getByRole('list', { name: 'Conversation' })

describe('assistant-ui with useChatRuntime (examples/ai-sdk-chat)', { timeout: 60_000 }, () => {
  it('runs the model’s tool calls in the page, waits for the person, and goes on by itself', async () => {
    const { calls, created, model, bodies, user, ask } = setup([
      [
        {
          toolName: 'ticket__fill',
          input: { values: { title: 'Printer jams', priority: 'high' } },
        },
        { toolName: 'ticket__submit', input: {} },
      ],
      'Created ticket T-1.',
    ])
    await ask('File a ticket about the printer')

    const dialog = await screen.findByRole('alertdialog')
    expect(dialog).toHaveTextContent('Create the ticket “Printer jams” (high priority)')
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Printer jams')
    expect(model.doStreamCalls).toHaveLength(1)
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }))

    await within(conversation()).findByText('Created ticket T-1.')
    expect(created).toEqual([{ id: 'T-1', title: 'Printer jams', priority: 'high', details: '' }])
    expect(calls.map((call) => [call.tool, call.caller])).toEqual([
      ['ticket.fill', 'inapp'],
      ['ticket.submit', 'inapp'],
    ])
    expect(model.doStreamCalls).toHaveLength(2)
    expect(toolResultsSeen(model, 1)).toEqual([
      ['ticket__fill', { type: 'json', value: expect.objectContaining({ status: 'ok' }) }],
      [
        'ticket__submit',
        { type: 'json', value: { status: 'ok', data: { id: 'T-1', title: 'Printer jams' } } },
      ],
    ])
    // Both requests carried the page's tools; the route offered the model those alone.
    const posted = bodies[0].toolmark as { tools: { name: string }[] }
    expect(posted.tools.map((tool) => tool.name)).toEqual([
      'ticket.fill',
      'ticket.state',
      'ticket.submit',
    ])
    expect(model.doStreamCalls[0].tools?.map((tool) => tool.name)).toEqual([
      'ticket__fill',
      'ticket__state',
      'ticket__submit',
    ])
    expect(
      within(conversation())
        .getAllByText(/^ticket\./)
        .map((line) => line.parentElement?.textContent),
    ).toEqual(['ticket.fill ok', 'ticket.submit ok'])
  })

  it('tells the model when the person denies, and creates nothing', async () => {
    const { created, model, user, ask } = setup([
      [
        { toolName: 'ticket__fill', input: { values: { title: 'VPN down' } } },
        { toolName: 'ticket__submit', input: {} },
      ],
      'You declined, so I did not submit it.',
    ])
    await ask('File a ticket about the VPN')
    const dialog = await screen.findByRole('alertdialog')
    await user.click(within(dialog).getByRole('button', { name: 'Deny' }))

    await within(conversation()).findByText('You declined, so I did not submit it.')
    expect(created).toEqual([])
    expect(toolResultsSeen(model, 1)[1]).toEqual([
      'ticket__submit',
      { type: 'json', value: { status: 'cancelled', by: 'operator' } },
    ])
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('VPN down')
  })

  it('refuses arguments the page’s schema does not accept, and a tool the page does not have, in the route: the model reads why, the page runs nothing', async () => {
    const { calls, model, ask } = setup([
      [
        { toolName: 'ticket__fill', input: { values: { priority: 'urgent' } } },
        { toolName: 'ticket__delete', input: {} },
        { toolName: 'ticket__submit', input: '{"not json' },
      ],
      'Sorry, I could not do that.',
    ])
    await ask('File a ticket')

    await within(conversation()).findByText('Sorry, I could not do that.')
    // Nothing reached the registry: the route refused all three before the page saw them.
    expect(calls).toEqual([])
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(model.doStreamCalls).toHaveLength(2)
    const seen = toolResultsSeen(model, 1) as [string, { type: string; value: string }][]
    expect(seen.map(([name, output]) => [name, output.type])).toEqual([
      ['ticket__fill', 'error-text'],
      ['ticket__delete', 'error-text'],
      ['ticket__submit', 'error-text'],
    ])
    expect(seen[0][1].value).toContain('AI_InvalidToolInputError')
    expect(seen[0][1].value).toContain('values.priority: Expected one of "low", "normal", "high"')
    expect(seen[1][1].value).toContain('AI_NoSuchToolError')
    expect(seen[2][1].value).toContain('AI_InvalidToolInputError')
    expect(
      within(conversation())
        .getAllByText(/^ticket\./)
        .map((line) => line.parentElement?.textContent),
    ).toEqual(['ticket.fill not run', 'ticket.delete not run', 'ticket.submit not run'])
  })

  it('Stop in the dialog withdraws the question, runs nothing, and the chat waits for the person', async () => {
    const { tm, created, model, user, ask } = setup([
      [
        { toolName: 'ticket__fill', input: { values: { title: 'Printer jams' } } },
        { toolName: 'ticket__submit', input: {} },
      ],
      'Asked again, after the next message.',
    ])
    await ask('File a ticket about the printer')
    const dialog = await screen.findByRole('alertdialog')
    await user.click(within(dialog).getByRole('button', { name: 'Stop assistant' }))

    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(tm.confirmations.list()).toEqual([])
    await waitFor(() =>
      expect(
        within(conversation())
          .getAllByText(/^ticket\./)
          .map((line) => line.parentElement?.textContent),
      ).toEqual(['ticket.fill ok', 'ticket.submit not run']),
    )
    // Stopped means stopped: no request goes out by itself after the stop.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(model.doStreamCalls).toHaveLength(1)
    expect(created).toEqual([])

    // The person's next message goes out, with the stopped call read as an error.
    await ask('Never mind')
    await within(conversation()).findByText('Asked again, after the next message.')
    expect(model.doStreamCalls).toHaveLength(2)
    expect(toolResultsSeen(model, 1)[1]).toEqual([
      'ticket__submit',
      { type: 'error-text', value: expect.any(String) },
    ])
    expect(created).toEqual([])
  })
})
