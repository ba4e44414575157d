import { StrictMode, useState } from 'react'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { convertToModelMessages, DefaultChatTransport, jsonSchema, streamText } from 'ai'
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider'
import type { UIMessage } from 'ai'
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test'
import { createToolmark, ok } from '@toolmark/core'
import type { CallEvent, ToolResult, Toolmark, ToolmarkOptions } from '@toolmark/core'
import { readToolmarkTools, toolsFromManifest } from '@toolmark/core/ai-sdk'
import { ConfirmDialog, ToolProvider, useTool } from '@toolmark/react'
import { useToolmarkChat } from '@toolmark/react/ai-sdk'
import { useFormTool } from '@toolmark/react/rhf'

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
            input: JSON.stringify(call.input),
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

/** The server route, in process: the same code an app's `/api/chat` runs. */
function chatServer(
  model: MockLanguageModelV4,
  onRequest?: (body: Record<string, unknown>) => void | Promise<void>,
) {
  const bodies: Record<string, unknown>[] = []
  const transport = new DefaultChatTransport({
    api: 'http://localhost/api/chat',
    fetch: async (url, init) => {
      const read = await readToolmarkTools(new Request(url as string, init as RequestInit))
      if (!read.ok) return Response.json(read.error, { status: read.status })
      bodies.push(read.body)
      await onRequest?.(read.body)
      const tools = toolsFromManifest(read.manifest, { jsonSchema })
      const messages = await convertToModelMessages(read.body.messages as UIMessage[], { tools })
      return streamText({ model, tools, messages }).toUIMessageStreamResponse()
    },
  })
  return { transport, bodies }
}

/** What the model read in its n-th request: the tool results, as JSON values. */
function toolResultsSeen(model: MockLanguageModelV4, request: number) {
  return model.doStreamCalls[request].prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content)
    .map((part) => (part.type === 'tool-result' ? [part.toolName, part.output] : [part.type]))
}

const schema = z.object({ title: z.string().min(1), priority: z.enum(['low', 'high']) })

function TicketForm({ onSubmit }: { onSubmit: (values: z.output<typeof schema>) => unknown }) {
  const form = useForm({
    resolver: zodResolver(schema),
    defaultValues: { title: '', priority: 'low' as const },
  })
  useFormTool(form, {
    name: 'ticket',
    title: 'Create ticket',
    description: 'The new-ticket form.',
    schema,
    onSubmit,
    submitSummary: (values) => `Create "${values.title}"`,
  })
  return (
    <form>
      <label>
        Title <input {...form.register('title')} />
      </label>
    </form>
  )
}

function Chat({
  transport,
  dialogWithStop = false,
}: {
  transport: DefaultChatTransport<UIMessage>
  dialogWithStop?: boolean
}) {
  const { messages, sendMessage, status, stop } = useToolmarkChat({ transport })
  return (
    <section aria-label="Chat">
      {dialogWithStop && <ConfirmDialog onStop={() => void stop()} />}
      <button onClick={() => void sendMessage({ text: 'File a ticket about the printer' })}>
        Send
      </button>
      <button onClick={() => void stop()}>Stop</button>
      <output aria-label="Status">{status}</output>
      <ol aria-label="Messages">
        {messages.map((message) => (
          <li key={message.id}>
            {message.parts.map((part, i) =>
              part.type === 'text' ? (
                <p key={i}>{part.text}</p>
              ) : 'toolCallId' in part ? (
                <p key={i} data-testid={`tool-${part.toolCallId}`}>
                  {part.type} {part.state}
                </p>
              ) : null,
            )}
          </li>
        ))}
      </ol>
    </section>
  )
}

function setup(options: { steps: Step[]; tm?: ToolmarkOptions; dialog?: boolean | 'with-stop' }) {
  const tm: Toolmark = createToolmark({ dev: true, ...options.tm })
  const calls: CallEvent[] = []
  tm.events.on('call', (event) => calls.push(event))
  const saved: unknown[] = []
  const model = scriptedModel(options.steps)
  const server = chatServer(model)
  render(
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <TicketForm onSubmit={(values) => (saved.push(values), { id: 'T-1' })} />
        <Chat transport={server.transport} dialogWithStop={options.dialog === 'with-stop'} />
        {options.dialog !== false && options.dialog !== 'with-stop' && <ConfirmDialog />}
      </ToolProvider>
    </StrictMode>,
  )
  return { tm, calls, saved, model, bodies: server.bodies, user: userEvent.setup() }
}

/** A chat whose second button sends while the turn may still wait, with the queue on screen. */
function QueueChat({
  transport,
  whileWaiting,
}: {
  transport: DefaultChatTransport<UIMessage>
  whileWaiting?: 'queue' | 'supersede'
}) {
  const { messages, sendMessage, status, stop, queued, removeQueued } = useToolmarkChat({
    transport,
    whileWaiting,
  })
  return (
    <section aria-label="Chat">
      <button onClick={() => void sendMessage({ text: 'File a ticket about the printer' })}>
        Send
      </button>
      <button onClick={() => void sendMessage({ text: 'What is open?' })}>Ask what is open</button>
      <button onClick={() => void stop()}>Stop</button>
      <output aria-label="Status">{status}</output>
      <ul aria-label="Queued">
        {queued.map((message) => (
          <li key={message.id}>
            {message.text}
            <button onClick={() => removeQueued(message.id)}>Remove {message.text}</button>
          </li>
        ))}
      </ul>
      <ol aria-label="Messages">
        {messages.map((message) => (
          <li key={message.id} data-role={message.role}>
            {message.parts.map((part, i) =>
              part.type === 'text' ? <p key={i}>{part.text}</p> : null,
            )}
          </li>
        ))}
      </ol>
    </section>
  )
}

function setupQueue(steps: Step[], whileWaiting?: 'queue' | 'supersede') {
  const tm: Toolmark = createToolmark({ dev: true })
  const saved: unknown[] = []
  const model = scriptedModel(steps)
  const server = chatServer(model)
  render(
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <TicketForm onSubmit={(values) => (saved.push(values), { id: 'T-1' })} />
        <QueueChat transport={server.transport} whileWaiting={whileWaiting} />
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>,
  )
  return { tm, saved, model, user: userEvent.setup() }
}

/** What the model read in its n-th request, one line a message: role and text or tool parts. */
function threadSeen(model: MockLanguageModelV4, request: number) {
  return model.doStreamCalls[request].prompt.map((message) =>
    typeof message.content === 'string'
      ? `${message.role}: ${message.content}`
      : `${message.role}: ${message.content
          .map((part) =>
            part.type === 'text'
              ? part.text
              : part.type === 'tool-result'
                ? `result ${JSON.stringify(part.output)}`
                : part.type === 'tool-call'
                  ? `call ${part.toolName}`
                  : part.type,
          )
          .join(' | ')}`,
  )
}

const fillAndSubmit = [
  { toolName: 'ticket__fill', input: { values: { title: 'Printer jams', priority: 'high' } } },
  { toolName: 'ticket__submit', input: {} },
]

describe('@toolmark/react/ai-sdk: a message sent while the turn waits', () => {
  it('is queued while a confirmation is open, and sent in order once the turn ends', async () => {
    const { model, saved, user } = setupQueue([fillAndSubmit, 'Filed T-1.', 'Only T-1 is open.'])
    await user.click(screen.getByRole('button', { name: 'Send' }))
    const dialog = await screen.findByRole('alertdialog')
    await waitFor(() => expect(screen.getByLabelText('Status')).toHaveTextContent('ready'))

    // The dialog is not modal in jsdom: the person sends while it waits.
    await user.click(screen.getByRole('button', { name: 'Ask what is open' }))
    const queued = screen.getByRole('list', { name: 'Queued' })
    await waitFor(() => expect(queued).toHaveTextContent('What is open?'))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(model.doStreamCalls).toHaveLength(1)
    expect(screen.getByRole('list', { name: 'Messages' })).not.toHaveTextContent('What is open?')

    await user.click(within(dialog).getByRole('button', { name: 'Approve' }))
    await screen.findByText('Only T-1 is open.')
    expect(saved).toEqual([{ title: 'Printer jams', priority: 'high' }])
    expect(queued).toBeEmptyDOMElement()
    expect(model.doStreamCalls).toHaveLength(3)
    // Every tool call had its result before the next user message, and the order held.
    expect(threadSeen(model, 2)).toEqual([
      'user: File a ticket about the printer',
      'assistant: call ticket__fill | call ticket__submit',
      expect.stringMatching(/^tool: result .*"status":"ok".* \| result .*"id":"T-1"/),
      'assistant: Filed T-1.',
      'user: What is open?',
    ])
    const shown = screen
      .getByRole('list', { name: 'Messages' })
      .querySelectorAll('li[data-role="user"]')
    expect(Array.from(shown, (item) => item.textContent)).toEqual([
      'File a ticket about the printer',
      'What is open?',
    ])
  })

  it('a queued message the person removes is not sent', async () => {
    const { model, user } = setupQueue([fillAndSubmit, 'Filed T-1.', 'Should not be asked.'])
    await user.click(screen.getByRole('button', { name: 'Send' }))
    const dialog = await screen.findByRole('alertdialog')
    await user.click(screen.getByRole('button', { name: 'Ask what is open' }))
    await user.click(await screen.findByRole('button', { name: 'Remove What is open?' }))
    expect(screen.getByRole('list', { name: 'Queued' })).toBeEmptyDOMElement()

    await user.click(within(dialog).getByRole('button', { name: 'Approve' }))
    await screen.findByText('Filed T-1.')
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(model.doStreamCalls).toHaveLength(2)
  })

  it('a queued message still goes out when the person stops the turn it waited for', async () => {
    const { model, saved, tm, user } = setupQueue([
      [{ toolName: 'ticket__submit', input: {} }],
      'Only T-1 is open.',
    ])
    await user.click(screen.getByRole('button', { name: 'Send' }))
    await screen.findByRole('alertdialog')
    await user.click(screen.getByRole('button', { name: 'Ask what is open' }))
    await waitFor(() =>
      expect(screen.getByRole('list', { name: 'Queued' })).toHaveTextContent('What is open?'),
    )
    await user.click(screen.getByRole('button', { name: 'Stop' }))

    await screen.findByText('Only T-1 is open.')
    expect(tm.confirmations.list()).toEqual([])
    expect(saved).toEqual([])
    expect(screen.getByRole('list', { name: 'Queued' })).toBeEmptyDOMElement()
    expect(model.doStreamCalls).toHaveLength(2)
    expect(threadSeen(model, 1)).toEqual([
      'user: File a ticket about the printer',
      'assistant: call ticket__submit',
      'tool: result {"type":"json","value":{"status":"cancelled","by":"signal"}}',
      'user: What is open?',
    ])
  })

  it('supersede: the new message withdraws the waiting confirmation, and the model reads why', async () => {
    const { model, saved, tm, user } = setupQueue(
      [[{ toolName: 'ticket__submit', input: {} }], 'Only T-1 is open.'],
      'supersede',
    )
    await user.click(screen.getByRole('button', { name: 'Send' }))
    await screen.findByRole('alertdialog')
    expect(tm.confirmations.list()).toHaveLength(1)

    await user.click(screen.getByRole('button', { name: 'Ask what is open' }))

    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(tm.confirmations.list()).toEqual([])
    await screen.findByText('Only T-1 is open.')
    expect(saved).toEqual([])
    expect(model.doStreamCalls).toHaveLength(2)
    expect(threadSeen(model, 1)).toEqual([
      'user: File a ticket about the printer',
      'assistant: call ticket__submit',
      'tool: result {"type":"json","value":{"status":"cancelled","by":"signal"}}',
      'user: What is open?',
    ])
  })

  it('a message sent after Stop waits for the output of a call the person approved', async () => {
    const tm = createToolmark({ dev: true })
    const model = scriptedModel([[{ toolName: 'pay', input: { amount: 5 } }], 'Paid, and asked.'])
    const server = chatServer(model)
    let finish: (() => void) | undefined
    function Pay() {
      useTool({
        name: 'pay',
        description: 'Pays an invoice.',
        hints: { consequential: true },
        input: z.object({ amount: z.number() }),
        summary: (input) => `Pay ${input.amount}`,
        run: (input) =>
          new Promise<ToolResult>((resolve) => {
            finish = () => resolve(ok({ paid: input.amount }))
          }),
      })
      return null
    }
    function StoppableChat() {
      const { stop, sendMessage, queued } = useToolmarkChat({ transport: server.transport })
      return (
        <>
          <button onClick={() => void sendMessage({ text: 'Pay it' })}>Send</button>
          <button onClick={() => void sendMessage({ text: 'What is open?' })}>Ask</button>
          <button onClick={() => void stop()}>Stop</button>
          <ul aria-label="Queued">
            {queued.map((message) => (
              <li key={message.id}>{message.text}</li>
            ))}
          </ul>
        </>
      )
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Pay />
          <StoppableChat />
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Send' }))
    const dialog = await screen.findByRole('alertdialog')
    await user.click(within(dialog).getByRole('button', { name: /approve/i }))
    await waitFor(() => expect(finish).toBeDefined())
    await user.click(screen.getByRole('button', { name: 'Stop' }))
    await user.click(screen.getByRole('button', { name: 'Ask' }))
    // The run still goes: the message waits rather than going out ahead of the call's result.
    await waitFor(() =>
      expect(screen.getByRole('list', { name: 'Queued' })).toHaveTextContent('What is open?'),
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(model.doStreamCalls).toHaveLength(1)
    finish!()
    await waitFor(() => expect(model.doStreamCalls).toHaveLength(2))
    expect(threadSeen(model, 1)).toEqual([
      'user: Pay it',
      'assistant: call pay',
      'tool: result {"type":"json","value":{"status":"ok","data":{"paid":5}}}',
      'user: What is open?',
    ])
  })
})

describe('@toolmark/react/ai-sdk', () => {
  it('fills and submits through tm.call; the person approves; the model gets the final results', async () => {
    const { calls, saved, model, bodies, user } = setup({
      steps: [
        [
          {
            toolName: 'ticket__fill',
            input: { values: { title: 'Printer jams', priority: 'high' } },
          },
          { toolName: 'ticket__submit', input: {} },
        ],
        'Filed T-1.',
      ],
    })
    await user.click(screen.getByRole('button', { name: 'Send' }))

    const dialog = await screen.findByRole('alertdialog')
    expect(dialog).toHaveTextContent('Create "Printer jams"')
    expect(screen.getByLabelText('Title')).toHaveValue('Printer jams')
    // The model has not been asked again while the person decides.
    expect(model.doStreamCalls).toHaveLength(1)
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }))

    await screen.findByText('Filed T-1.')
    expect(saved).toEqual([{ title: 'Printer jams', priority: 'high' }])
    expect(calls.map((call) => [call.tool, call.caller])).toEqual([
      ['ticket.fill', 'inapp'],
      ['ticket.submit', 'inapp'],
    ])
    // Every request carried the page's tools, schemas included.
    const posted = bodies[0].toolmark as { tools: { name: string; inputSchema?: object }[] }
    expect(posted.tools.map((t) => t.name)).toEqual([
      'ticket.fill',
      'ticket.state',
      'ticket.submit',
    ])
    expect(posted.tools[0].inputSchema).toMatchObject({ type: 'object' })
    // The second request carries both final results, in one step.
    expect(model.doStreamCalls).toHaveLength(2)
    expect(toolResultsSeen(model, 1)).toEqual([
      [
        'ticket__fill',
        {
          type: 'json',
          value: {
            untrustedContent: true,
            status: 'ok',
            data: {
              changes: [
                { path: 'priority', before: 'low', after: 'high' },
                { path: 'title', after: 'Printer jams' },
              ],
              skipped: [],
            },
          },
        },
      ],
      ['ticket__submit', { type: 'json', value: { status: 'ok', data: { id: 'T-1' } } }],
    ])
  })

  it('the SDK rejects bad arguments before the page sees them, and tells the model', async () => {
    const { calls, model, user } = setup({
      steps: [[{ toolName: 'ticket__fill', input: { values: { title: 42 } } }], 'Sorry.'],
    })
    await user.click(screen.getByRole('button', { name: 'Send' }))
    await screen.findByText('Sorry.')
    expect(calls).toEqual([])
    const seen = JSON.stringify(toolResultsSeen(model, 1))
    expect(seen).toContain('values.title: Expected a string, received number')
  })

  it('a tool that went away after the request answers refused unknown_tool', async () => {
    const tm = createToolmark({ dev: true })
    const model = scriptedModel([[{ toolName: 'notes__read', input: {} }], 'It is gone.'])
    let hide: () => void = () => {}
    // The tool unmounts while the model thinks: it was offered, and is gone when called.
    const server = chatServer(model, async (body) => {
      if ((body.toolmark as { tools: unknown[] }).tools.length === 0) return
      hide()
      await waitFor(() => expect(tm.describe('notes.read')).toBeUndefined())
    })
    function Notes() {
      useTool({
        name: 'notes.read',
        description: 'Reads the notes.',
        run: () => ok('notes'),
      })
      return null
    }
    function Page() {
      const [shown, setShown] = useState(true)
      hide = () => setShown(false)
      return (
        <>
          {shown && <Notes />}
          <Chat transport={server.transport} />
        </>
      )
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Page />
        </ToolProvider>
      </StrictMode>,
    )
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send' }))
    await screen.findByText('It is gone.')
    expect(toolResultsSeen(model, 1)).toEqual([
      [
        'notes__read',
        {
          type: 'json',
          value: expect.objectContaining({ status: 'refused', code: 'unknown_tool' }),
        },
      ],
    ])
  })

  it('Stop ends the calls the chat started (cancelled signal), closes the dialog and does not go on', async () => {
    const { saved, model, user, tm } = setup({
      steps: [[{ toolName: 'ticket__submit', input: {} }], 'Should not be asked.'],
    })
    await user.click(screen.getByRole('button', { name: 'Send' }))
    await screen.findByRole('alertdialog')
    await waitFor(() => expect(screen.getByLabelText('Status')).toHaveTextContent('ready'))
    await user.click(screen.getByRole('button', { name: 'Stop' }))

    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(tm.confirmations.list()).toEqual([])
    await waitFor(() =>
      expect(screen.getByTestId('tool-call_1_0')).toHaveTextContent(
        'tool-ticket__submit output-available',
      ),
    )
    // Give an automatic send every chance to happen: it must not.
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(model.doStreamCalls).toHaveLength(1)
    expect(saved).toEqual([])
  })

  it(
    'Stop inside the confirmation dialog ends the turn and withdraws its confirmations',
    { timeout: 20_000 },
    async () => {
      const { saved, model, user, tm } = setup({
        steps: [[{ toolName: 'ticket__submit', input: {} }], 'Should not be asked.'],
        dialog: 'with-stop',
      })
      await user.click(screen.getByRole('button', { name: 'Send' }))
      const dialog = await screen.findByRole('alertdialog')
      expect(tm.confirmations.list()).toHaveLength(1)

      await user.click(within(dialog).getByRole('button', { name: 'Stop assistant' }))

      await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
      expect(tm.confirmations.list()).toEqual([])
      await waitFor(() =>
        expect(screen.getByTestId('tool-call_1_0')).toHaveTextContent(
          'tool-ticket__submit output-available',
        ),
      )
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(model.doStreamCalls).toHaveLength(1)
      expect(saved).toEqual([])
    },
  )

  it('does not go on by itself after Stop, even when a call finishes after the chat stopped', async () => {
    const tm = createToolmark({ dev: true })
    const model = scriptedModel([[{ toolName: 'report', input: {} }], 'Should not be asked.'])
    const server = chatServer(model)
    let finish: () => void = () => {}
    function Report() {
      // A run that does not stop when asked: its output arrives after the chat stopped.
      useTool({
        name: 'report',
        description: 'Builds a report.',
        hints: { readOnly: true },
        run: () => new Promise<ToolResult>((resolve) => (finish = () => resolve(ok('built')))),
      })
      return null
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Report />
          <Chat transport={server.transport} />
        </ToolProvider>
      </StrictMode>,
    )
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Send' }))
    await waitFor(() => expect(screen.getByLabelText('Status')).toHaveTextContent('ready'))
    await user.click(screen.getByRole('button', { name: 'Stop' }))
    await new Promise((resolve) => setTimeout(resolve, 20))
    finish()
    await waitFor(() =>
      expect(screen.getByTestId('tool-call_1_0')).toHaveTextContent('output-available'),
    )
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(model.doStreamCalls).toHaveLength(1)
  })

  it('the model hears cancelled signal for a stopped call when the person sends again', async () => {
    const { model, user } = setup({
      steps: [[{ toolName: 'ticket__submit', input: {} }], 'Stopped, then asked again.'],
    })
    await user.click(screen.getByRole('button', { name: 'Send' }))
    await screen.findByRole('alertdialog')
    await user.click(screen.getByRole('button', { name: 'Stop' }))
    await waitFor(() =>
      expect(screen.getByTestId('tool-call_1_0')).toHaveTextContent('output-available'),
    )
    await user.click(screen.getByRole('button', { name: 'Send' }))
    await screen.findByText('Stopped, then asked again.')
    expect(toolResultsSeen(model, 1)).toEqual([
      ['ticket__submit', { type: 'json', value: { status: 'cancelled', by: 'signal' } }],
    ])
  })

  it('Stop after an approval waits for the run: the model hears it went through, not cancelled', async () => {
    const tm = createToolmark({ dev: true })
    const model = scriptedModel([[{ toolName: 'pay', input: { amount: 5 } }], 'Asked again.'])
    const server = chatServer(model)
    const paid: unknown[] = []
    let finish: (() => void) | undefined
    function Pay() {
      useTool({
        name: 'pay',
        description: 'Pays an invoice.',
        hints: { consequential: true },
        input: z.object({ amount: z.number() }),
        summary: (input) => `Pay ${input.amount}`,
        run: (input) =>
          new Promise<ToolResult>((resolve) => {
            finish = () => (paid.push(input), resolve(ok({ paid: input.amount })))
          }),
      })
      return null
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Pay />
          <Chat transport={server.transport} />
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Send' }))
    const dialog = await screen.findByRole('alertdialog')
    await user.click(within(dialog).getByRole('button', { name: /approve/i }))
    await waitFor(() => expect(finish).toBeDefined())
    await user.click(screen.getByRole('button', { name: 'Stop' }))
    await new Promise((resolve) => setTimeout(resolve, 50))
    // The run is still going: the chat has no output for it yet.
    expect(screen.getByTestId('tool-call_1_0')).not.toHaveTextContent('output-available')
    finish!()
    await waitFor(() =>
      expect(screen.getByTestId('tool-call_1_0')).toHaveTextContent('output-available'),
    )
    await user.click(screen.getByRole('button', { name: 'Send' }))
    await screen.findByText('Asked again.')
    expect(toolResultsSeen(model, 1)).toEqual([
      ['pay', { type: 'json', value: { status: 'ok', data: { paid: 5 } } }],
    ])
    expect(paid).toEqual([{ amount: 5 }])
  })

  it('a confirmation nobody answers ends confirmation_expired, and the model hears it', async () => {
    const { model, user, saved } = setup({
      tm: { limits: { confirmationExpiryMs: 300 } },
      steps: [[{ toolName: 'ticket__submit', input: {} }], 'Nobody answered.'],
    })
    await user.click(screen.getByRole('button', { name: 'Send' }))
    await screen.findByRole('alertdialog')
    await screen.findByText('Nobody answered.', undefined, { timeout: 5_000 })
    expect(toolResultsSeen(model, 1)).toEqual([
      [
        'ticket__submit',
        {
          type: 'json',
          value: expect.objectContaining({ status: 'refused', code: 'confirmation_expired' }),
        },
      ],
    ])
    expect(saved).toEqual([])
  })

  it('goes on by itself after a remount (StrictMode) when an output completes a restored step', async () => {
    const tm = createToolmark({ dev: true })
    const model = scriptedModel(['Thanks, Ada.'])
    const server = chatServer(model)
    const restored: UIMessage[] = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          { type: 'tool-askName', toolCallId: 'ask_1', state: 'input-available', input: {} },
        ],
      },
    ]
    function Restored() {
      const { messages, addToolOutput } = useToolmarkChat({
        transport: server.transport,
        messages: restored,
      })
      return (
        <>
          <button
            onClick={() =>
              void addToolOutput({ tool: 'askName', toolCallId: 'ask_1', output: 'Ada' })
            }
          >
            Answer
          </button>
          <p>{messages.length} messages</p>
        </>
      )
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Restored />
        </ToolProvider>
      </StrictMode>,
    )
    await userEvent.setup().click(screen.getByRole('button', { name: 'Answer' }))
    await waitFor(() => expect(model.doStreamCalls).toHaveLength(1))
  })

  it('offers no tool that needs a person while no dialog is mounted', async () => {
    const { bodies, user } = setup({ steps: ['Nothing to do.'], dialog: false })
    await user.click(screen.getByRole('button', { name: 'Send' }))
    await screen.findByText('Nothing to do.')
    const posted = bodies[0].toolmark as { tools: { name: string }[] }
    expect(posted.tools.map((t) => t.name)).toEqual(['ticket.fill', 'ticket.state'])
  })
})
