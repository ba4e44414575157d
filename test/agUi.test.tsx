import { StrictMode } from 'react'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { z } from 'zod'
import { HttpAgent } from '@ag-ui/client'
import { EventType } from '@ag-ui/core'
import type { BaseEvent } from '@ag-ui/core'
import { createToolmark, ok, questions } from '@toolmark/core'
import type { CallEvent, ToolResult, Toolmark } from '@toolmark/core'
import { createAgUiSession } from '@toolmark/core/ag-ui'
import type { AgUiInterrupt } from '@toolmark/core/ag-ui'
import { ConfirmDialog, ToolProvider, useTool } from '@toolmark/react'
import { useAgUiSession } from '@toolmark/react/ag-ui'
import { agUiServer, scriptedModel } from './agUiServer'
import type { AgUiServerOptions, ModelStep } from './agUiServer'

/** What the model read in its n-th request: the tool results, as JSON values. */
function toolResultsSeen(model: ReturnType<typeof scriptedModel>, request: number) {
  return model.doStreamCalls[request].prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content)
    .map((part) => (part.type === 'tool-result' ? [part.toolName, part.output] : [part.type]))
}

/** A registry with a read-only lookup and a consequential close, counting the runs of each. */
function ticketTools() {
  const tm: Toolmark = createToolmark({ dev: true, confirm: { questions: questions() } })
  const runs = { find: 0, close: 0 }
  const calls: CallEvent[] = []
  tm.events.on('call', (event) => calls.push(event))
  tm.register({
    name: 'tickets.find',
    description: 'Finds a ticket by id.',
    input: z.object({ id: z.string() }),
    hints: { readOnly: true },
    run: ({ id }) => (runs.find++, ok({ id, title: 'Printer jams' })),
  })
  tm.register({
    name: 'tickets.close',
    description: 'Closes a ticket.',
    input: z.object({ id: z.string() }),
    hints: { consequential: true },
    summary: ({ id }) => `Close ${id}`,
    run: ({ id }) => (runs.close++, ok({ id, closed: true })),
  })
  return { tm, runs, calls }
}

function agentFor(steps: ModelStep[], script?: AgUiServerOptions['script']) {
  const model = scriptedModel(steps)
  const server = agUiServer(model, { script })
  const agent = new HttpAgent({ url: 'http://localhost/api/agent', fetch: server.fetch })
  return { model, server, agent }
}

describe('@toolmark/core/ag-ui with a real AG-UI stream', () => {
  it("sends the page's tools with each run, runs the agent's call as inapp and sends the result back", async () => {
    const { tm, runs, calls } = ticketTools()
    const { model, server, agent } = agentFor([
      [{ toolName: 'tickets__find', input: { id: 'T-1' } }],
      'T-1 is about the printer.',
    ])
    const session = createAgUiSession(tm, { agent })

    await expect(session.send('What is T-1?')).resolves.toEqual({ type: 'success' })

    expect(runs.find).toBe(1)
    expect(calls.map((c) => [c.tool, c.caller])).toEqual([['tickets.find', 'inapp']])
    // No dialog is mounted: the tool that needs a person is not offered inline.
    expect(server.inputs[0].tools.map((t) => t.name)).toEqual(['tickets__find'])
    expect(server.inputs[0].tools[0].parameters).toMatchObject({
      type: 'object',
      properties: { id: { type: 'string' } },
    })
    expect(server.inputs[0].tools[0].metadata).toEqual({
      toolmark: { name: 'tickets.find', hints: { readOnly: true } },
    })
    expect(toolResultsSeen(model, 1)).toEqual([
      [
        'tickets__find',
        { type: 'json', value: { status: 'ok', data: { id: 'T-1', title: 'Printer jams' } } },
      ],
    ])
    expect(agent.messages.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'T-1 is about the printer.',
    })
    expect(session.getSnapshot()).toEqual({ status: 'idle', interrupts: [] })
  })

  it('ends the turn with an approval interrupt, runs the tool once on resume, and refuses a second answer', async () => {
    const { tm, runs } = ticketTools()
    const { model, server, agent } = agentFor([
      [{ toolName: 'tickets__close', input: { id: 'T-1' } }],
      'Closed.',
    ])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const before = Date.now()

    const first = await session.send('Close T-1')

    expect(first.type).toBe('interrupt')
    const [interrupt] = (first as { interrupts: AgUiInterrupt[] }).interrupts
    expect(interrupt).toMatchObject({
      reason: 'tool_approval',
      message: 'Close T-1',
      toolCallId: 'call_1_0',
      // What docs/chat-stacks.md states: it asks for `{ approved: boolean, reason?: string }`.
      responseSchema: {
        type: 'object',
        properties: {
          approved: { type: 'boolean', description: 'Whether the person approves.' },
          reason: { type: 'string', description: 'Why not, when they deny.' },
        },
        required: ['approved'],
        additionalProperties: false,
      },
    })
    expect(Date.parse(interrupt.expiresAt!)).toBeGreaterThan(before + 9 * 60_000)
    expect(tm.confirmations.get(interrupt.id)).toMatchObject({ tool: 'tickets.close' })
    expect(session.getSnapshot().status).toBe('interrupted')
    expect(runs.close).toBe(0)
    await expect(session.send('again')).resolves.toEqual({ type: 'busy' })
    expect(model.doStreamCalls).toHaveLength(1)

    const resumed = await session.resume([
      { interruptId: interrupt.id, status: 'resolved', payload: { approved: true } },
    ])

    expect(resumed.answers).toEqual([
      { interruptId: interrupt.id, result: { status: 'ok', data: { id: 'T-1', closed: true } } },
    ])
    expect(resumed.turn).toEqual({ type: 'success' })
    expect(runs.close).toBe(1)
    expect(toolResultsSeen(model, 1)).toEqual([
      [
        'tickets__close',
        { type: 'json', value: { status: 'ok', data: { id: 'T-1', closed: true } } },
      ],
    ])
    // The agent never raised this interrupt, so no `resume` went to it.
    expect(server.inputs[1].resume).toBeUndefined()

    const again = await session.resume([
      { interruptId: interrupt.id, status: 'resolved', payload: { approved: true } },
    ])
    expect(again.answers[0].result).toMatchObject({
      status: 'refused',
      code: 'confirmation_expired',
    })
    expect(again.turn).toEqual({ type: 'busy' })
    expect(runs.close).toBe(1)
    expect(model.doStreamCalls).toHaveLength(2)
  })

  it('a denial reaches the model as cancelled operator; a bad payload keeps the interrupt open', async () => {
    const { tm, runs } = ticketTools()
    const { model, agent } = agentFor([
      [{ toolName: 'tickets__close', input: { id: 'T-1' } }],
      'Left open.',
    ])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const first = (await session.send('Close T-1')) as { interrupts: AgUiInterrupt[] }
    const id = first.interrupts[0].id

    const bad = await session.resume([{ interruptId: id, status: 'resolved', payload: 'yes' }])
    expect(bad.answers[0].result).toEqual({
      status: 'invalid',
      issues: [{ path: 'approved', message: 'Expected true or false' }],
    })
    expect(bad.turn).toEqual({ type: 'busy' })
    expect(session.getSnapshot().interrupts.map((i) => i.id)).toEqual([id])

    const unknown = await session.resume([{ interruptId: 'nope', status: 'cancelled' }])
    expect(unknown.answers[0].result).toMatchObject({ code: 'confirmation_expired' })

    const denied = await session.resume([
      { interruptId: id, status: 'resolved', payload: { approved: false, reason: 'not yet' } },
    ])
    expect(denied.answers[0].result).toEqual({ status: 'cancelled', by: 'operator' })
    expect(denied.turn).toEqual({ type: 'success' })
    expect(runs.close).toBe(0)
    expect(toolResultsSeen(model, 1)).toEqual([
      ['tickets__close', { type: 'json', value: { status: 'cancelled', by: 'operator' } }],
    ])
  })

  it('two calls in one run: an interrupt each, the turn goes on only once both are answered', async () => {
    const { tm, runs } = ticketTools()
    const { model, agent } = agentFor([
      [
        { toolName: 'tickets__close', input: { id: 'T-1' } },
        { toolName: 'tickets__close', input: { id: 'T-2' } },
        { toolName: 'tickets__find', input: { id: 'T-3' } },
      ],
      'Done.',
    ])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const first = (await session.send('Close both')) as { interrupts: AgUiInterrupt[] }
    expect(first.interrupts.map((i) => i.toolCallId)).toEqual(['call_1_0', 'call_1_1'])
    expect(runs.find).toBe(1)

    const one = await session.resume([
      { interruptId: first.interrupts[1].id, status: 'resolved', payload: { approved: true } },
    ])
    expect(one.turn).toEqual({ type: 'busy' })
    expect(model.doStreamCalls).toHaveLength(1)
    expect(session.getSnapshot().interrupts.map((i) => i.id)).toEqual([first.interrupts[0].id])

    // The person answers the other one in the store (as the dialog would).
    await tm.confirmations.reject(first.interrupts[0].id)
    await waitFor(() => expect(session.getSnapshot().status).toBe('idle'))
    expect(runs.close).toBe(1)
    expect(
      toolResultsSeen(model, 1).map(([name, output]) => [
        name,
        (output as { value: unknown }).value,
      ]),
    ).toEqual([
      ['tickets__close', { status: 'cancelled', by: 'operator' }],
      ['tickets__close', { status: 'ok', data: { id: 'T-2', closed: true } }],
      ['tickets__find', { status: 'ok', data: { id: 'T-3', title: 'Printer jams' } }],
    ])
  })

  it('Stop aborts the run and withdraws the pending approvals; nothing runs later', async () => {
    const { tm, runs } = ticketTools()
    const { model, agent } = agentFor([[{ toolName: 'tickets__close', input: { id: 'T-1' } }]])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const first = (await session.send('Close T-1')) as { interrupts: AgUiInterrupt[] }

    session.stop()

    expect(session.getSnapshot()).toEqual({ status: 'idle', interrupts: [] })
    await waitFor(() => expect(tm.confirmations.list()).toEqual([]))
    const late = await session.resume([
      { interruptId: first.interrupts[0].id, status: 'resolved', payload: { approved: true } },
    ])
    expect(late.answers[0].result).toMatchObject({ code: 'confirmation_expired' })
    expect(runs.close).toBe(0)
    expect(model.doStreamCalls).toHaveLength(1)
  })

  it('answers what the page cannot run with typed results: unknown tool, arguments that are not JSON', async () => {
    const { tm, runs } = ticketTools()
    const script = (input: { threadId: string; runId: string }, request: number) =>
      request === 0
        ? ([
            { type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId },
            { type: EventType.TOOL_CALL_START, toolCallId: 'c1', toolCallName: 'tickets__nope' },
            { type: EventType.TOOL_CALL_ARGS, toolCallId: 'c1', delta: '{}' },
            { type: EventType.TOOL_CALL_END, toolCallId: 'c1' },
            { type: EventType.TOOL_CALL_START, toolCallId: 'c2', toolCallName: 'tickets__find' },
            { type: EventType.TOOL_CALL_ARGS, toolCallId: 'c2', delta: '{"id": ' },
            { type: EventType.TOOL_CALL_END, toolCallId: 'c2' },
            { type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId },
          ] as BaseEvent[])
        : undefined
    const { server, agent } = agentFor(['Sorry.'], script)
    const session = createAgUiSession(tm, { agent })

    await expect(session.send('Find it')).resolves.toEqual({ type: 'success' })

    expect(runs.find).toBe(0)
    const answers = server.inputs[1].messages
      .filter((m) => m.role === 'tool')
      .map((m) => [m.toolCallId, JSON.parse(m.content as string)])
    expect(answers).toEqual([
      ['c1', expect.objectContaining({ status: 'refused', code: 'unknown_tool' })],
      [
        'c2',
        { status: 'invalid', issues: [{ path: '', message: 'The arguments are not valid JSON' }] },
      ],
    ])
  })

  it('a malformed stream fails the turn with the client’s own error and runs nothing', async () => {
    const { tm, runs } = ticketTools()
    const errors: string[] = []
    tm.events.on('error', (event) => errors.push(event.code))
    const script = (input: { threadId: string; runId: string }) =>
      [
        { type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId },
        // Arguments for a call that was never started.
        { type: EventType.TOOL_CALL_ARGS, toolCallId: 'ghost', delta: '{"id":"T-1"}' },
        { type: EventType.TOOL_CALL_END, toolCallId: 'ghost' },
        { type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId },
      ] as BaseEvent[]
    const { server, agent } = agentFor([], script)
    const session = createAgUiSession(tm, { agent })

    const outcome = await session.send('Close T-1')

    expect(outcome.type).toBe('error')
    expect((outcome as { message: string }).message).toMatch(/ghost/)
    expect(session.getSnapshot()).toMatchObject({
      status: 'idle',
      error: expect.stringMatching(/ghost/),
    })
    expect(errors).toEqual(['ag_ui_run_failed'])
    expect(runs).toEqual({ find: 0, close: 0 })
    expect(server.inputs).toHaveLength(1)
  })

  it("shows the agent's own interrupt and sends the answer on the next run", async () => {
    const { tm } = ticketTools()
    const script = (
      input: { threadId: string; runId: string; resume?: unknown },
      request: number,
    ) =>
      request === 0
        ? ([
            { type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId },
            {
              type: EventType.RUN_FINISHED,
              threadId: input.threadId,
              runId: input.runId,
              outcome: {
                type: 'interrupt',
                interrupts: [{ id: 'budget', reason: 'input_required', message: 'Budget?' }],
              },
            },
          ] as BaseEvent[])
        : undefined
    const { server, agent } = agentFor(['Thanks.'], script)
    const session = createAgUiSession(tm, { agent })

    const first = await session.send('Plan')
    expect(first).toEqual({
      type: 'interrupt',
      interrupts: [{ id: 'budget', reason: 'input_required', message: 'Budget?' }],
    })

    const resumed = await session.resume([
      { interruptId: 'budget', status: 'resolved', payload: { amount: 10 } },
    ])
    expect(resumed).toEqual({ answers: [], turn: { type: 'success' } })
    expect(server.inputs[1].resume).toEqual([
      { interruptId: 'budget', status: 'resolved', payload: { amount: 10 } },
    ])
  })
})

function Assistant({ agent }: { agent: HttpAgent }) {
  const { status, send, stop } = useAgUiSession(agent)
  return (
    <section aria-label="Assistant">
      <button onClick={() => void send('Close T-1')}>Send</button>
      <button onClick={stop}>Stop</button>
      <output aria-label="Status">{status}</output>
    </section>
  )
}

/** Renders the interrupts it is shown with its own Approve and Deny buttons, as an agent UI does. */
function InterruptAssistant({ agent }: { agent: HttpAgent }) {
  const { status, interrupts, send, resume, stop } = useAgUiSession(agent, {
    confirmations: 'interrupt',
  })
  const answer = (interruptId: string, approved: boolean) =>
    void resume([{ interruptId, status: 'resolved', payload: { approved } }])
  return (
    <section aria-label="Assistant">
      <button onClick={() => void send('Close T-1')}>Send</button>
      <button onClick={stop}>Stop</button>
      <output aria-label="Status">{status}</output>
      <ul aria-label="Interrupts">
        {interrupts.map((i) => (
          <li key={i.id}>
            {`${i.reason}: ${i.message}`}
            <button onClick={() => answer(i.id, true)}>Approve in chat</button>
            <button onClick={() => answer(i.id, false)}>Deny in chat</button>
          </li>
        ))}
      </ul>
    </section>
  )
}

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

describe('useAgUiSession', () => {
  it('waits inline for the person in <ConfirmDialog>, then sends the final result (StrictMode)', async () => {
    const tm = createToolmark({ dev: true, confirm: { questions: questions() } })
    const closed: string[] = []
    const { model, agent } = agentFor([
      [{ toolName: 'tickets__close', input: { id: 'T-1' } }],
      'Closed T-1.',
    ])
    const user = userEvent.setup()
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Tickets closed={closed} />
          <Assistant agent={agent} />
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )

    await user.click(screen.getByRole('button', { name: 'Send' }))
    const dialog = await screen.findByRole('alertdialog')
    expect(dialog).toHaveTextContent('Close T-1')
    expect(screen.getByLabelText('Status')).toHaveTextContent('running')
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }))

    await waitFor(() => expect(screen.getByLabelText('Status')).toHaveTextContent('idle'))
    expect(closed).toEqual(['T-1'])
    expect(toolResultsSeen(model, 1)).toEqual([
      [
        'tickets__close',
        { type: 'json', value: { status: 'ok', data: { id: 'T-1', closed: true } } },
      ],
    ])
  })

  it('Stop while the person decides ends the call cancelled signal and closes the dialog', async () => {
    const tm = createToolmark({ dev: true, confirm: { questions: questions() } })
    const closed: string[] = []
    const { model, agent } = agentFor([[{ toolName: 'tickets__close', input: { id: 'T-1' } }]])
    const user = userEvent.setup()
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Tickets closed={closed} />
          <Assistant agent={agent} />
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )

    await user.click(screen.getByRole('button', { name: 'Send' }))
    await screen.findByRole('alertdialog')
    await user.click(screen.getByRole('button', { name: 'Stop' }))

    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(screen.getByLabelText('Status')).toHaveTextContent('idle')
    expect(closed).toEqual([])
    expect(tm.confirmations.list()).toEqual([])
    expect(model.doStreamCalls).toHaveLength(1)
  })
  it("interrupt mode: the approval is asked in the app's interrupt UI alone; <ConfirmDialog> asks only the rest (StrictMode)", async () => {
    const tm = createToolmark({ dev: true, confirm: { questions: questions() } })
    const closed: string[] = []
    const { model, agent } = agentFor([
      [{ toolName: 'tickets__close', input: { id: 'T-1' } }],
      'Closed T-1.',
      [{ toolName: 'tickets__close', input: { id: 'T-3' } }],
      'Left T-3 open.',
    ])
    const user = userEvent.setup({ delay: null })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Tickets closed={closed} />
          <InterruptAssistant agent={agent} />
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )

    await user.click(screen.getByRole('button', { name: 'Send' }))
    await waitFor(() => expect(screen.getByLabelText('Status')).toHaveTextContent('interrupted'))
    const interrupts = screen.getByRole('list', { name: 'Interrupts' })
    expect(within(interrupts).getByRole('listitem')).toHaveTextContent('tool_approval: Close T-1')
    const [held] = tm.confirmations.list()
    expect(held).toMatchObject({ summary: 'Close T-1', caller: 'inapp', presentedByCaller: true })
    // The interrupt is the one place it is asked: the modal dialog stays closed.
    expect(screen.queryByRole('alertdialog')).toBeNull()

    // A confirmation that is not an interrupt (the app's own call) still opens the dialog, alone.
    let own!: Promise<ToolResult>
    act(() => void (own = tm.call('tickets.close', { id: 'T-2' })))
    const dialog = await screen.findByRole('alertdialog')
    expect(dialog).toHaveTextContent('Close T-2')
    expect(dialog).not.toHaveTextContent('Close T-1')
    expect(within(dialog).queryByRole('checkbox')).toBeNull()
    await expect(own).resolves.toMatchObject({ status: 'needs_confirmation' })

    // The app's interrupt button answers it; the store entry ends with it, the dialog never saw it.
    await user.click(within(interrupts).getByRole('button', { name: 'Approve in chat' }))
    await waitFor(() => expect(screen.getByLabelText('Status')).toHaveTextContent('idle'))
    expect(closed).toEqual(['T-1'])
    expect(tm.confirmations.get(held.id)).toBeUndefined()
    expect(toolResultsSeen(model, 1)).toEqual([
      [
        'tickets__close',
        { type: 'json', value: { status: 'ok', data: { id: 'T-1', closed: true } } },
      ],
    ])
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Close T-2')
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Approve' }),
    )
    await waitFor(() => expect(closed).toEqual(['T-1', 'T-2']))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())

    // A denial in the chat ends the entry too, and the dialog stays closed throughout.
    await user.click(screen.getByRole('button', { name: 'Send' }))
    await waitFor(() => expect(screen.getByLabelText('Status')).toHaveTextContent('interrupted'))
    expect(screen.queryByRole('alertdialog')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Deny in chat' }))
    await waitFor(() => expect(screen.getByLabelText('Status')).toHaveTextContent('idle'))
    expect(closed).toEqual(['T-1', 'T-2'])
    expect(tm.confirmations.list()).toEqual([])
    expect(screen.queryByRole('alertdialog')).toBeNull()
    // The model reads the denial as the call's result.
    expect(toolResultsSeen(model, 3).at(-1)).toEqual([
      'tickets__close',
      { type: 'json', value: { status: 'cancelled', by: 'operator' } },
    ])
  })
})
