import { HttpAgent } from '@ag-ui/client'
import { EventType } from '@ag-ui/core'
import type { BaseEvent, RunAgentInput } from '@ag-ui/core'
import { EventEncoder } from '@ag-ui/encoder'
import { z } from 'zod'
import { createToolmark, ok, questions } from '../../src/index'
import { createAgUiSession } from '../../src/ag-ui'
import type { AgUiInterrupt } from '../../src/ag-ui'

/**
 * An AG-UI server in process, behind a real `HttpAgent`: its first run calls the page's
 * `payments__send` once per amount, every later run answers in text. Keeps each run's input.
 */
function agentPaying(amounts: number[]) {
  const inputs: RunAgentInput[] = []
  const encoder = new EventEncoder()
  const ids = amounts.map((_, i) => `call_${i}`)
  const events = (input: RunAgentInput, request: number): BaseEvent[] => {
    const { threadId, runId } = input
    const body: BaseEvent[] =
      request === 0
        ? amounts.flatMap((amount, i) => [
            {
              type: EventType.TOOL_CALL_START,
              toolCallId: ids[i],
              toolCallName: 'payments__send',
              parentMessageId: 'a_0',
            } as BaseEvent,
            {
              type: EventType.TOOL_CALL_ARGS,
              toolCallId: ids[i],
              delta: JSON.stringify({ amount }),
            } as BaseEvent,
            { type: EventType.TOOL_CALL_END, toolCallId: ids[i] } as BaseEvent,
          ])
        : [
            { type: EventType.TEXT_MESSAGE_START, messageId: `m_${request}`, role: 'assistant' },
            { type: EventType.TEXT_MESSAGE_CONTENT, messageId: `m_${request}`, delta: 'Done.' },
            { type: EventType.TEXT_MESSAGE_END, messageId: `m_${request}` },
          ]
    return [
      { type: EventType.RUN_STARTED, threadId, runId } as BaseEvent,
      ...body,
      {
        type: EventType.RUN_FINISHED,
        threadId,
        runId,
        outcome: { type: 'success', pendingToolCallIds: request === 0 ? ids : [] },
      } as BaseEvent,
    ]
  }
  const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    const input = JSON.parse(String(init.body)) as RunAgentInput
    const request = inputs.length
    inputs.push(input)
    const text = events(input, request)
      .map((event) => encoder.encodeSSE(event))
      .join('')
    return new Response(text, { headers: { 'Content-Type': encoder.getContentType() } })
  }
  return { agent: new HttpAgent({ url: 'http://localhost/api/agent', fetch }), inputs }
}

/** A registry with a consequential payment whose run waits until `release()`, counting its runs. */
function payments() {
  const tm = createToolmark({ dev: true, confirm: { questions: questions() } })
  const paid: number[] = []
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  tm.register({
    name: 'payments.send',
    description: 'Sends a payment.',
    input: z.object({ amount: z.number() }),
    hints: { consequential: true },
    summary: ({ amount }) => `Pay ${amount}`,
    run: async ({ amount }) => {
      await gate
      paid.push(amount)
      return ok({ amount, paid: true })
    },
  })
  return { tm, paid, release }
}

/** The roles of a run's messages, with each tool message's call id and content. */
function thread(input: RunAgentInput) {
  return input.messages.map((message) =>
    message.role === 'tool'
      ? ['tool', message.toolCallId, JSON.parse(String(message.content))]
      : [message.role],
  )
}

describe('AG-UI session: Stop just after an approval', () => {
  it('interrupt mode: the approved run goes on, and its real result goes back once, before the next message', async () => {
    const { tm, paid, release } = payments()
    const { agent, inputs } = agentPaying([10])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const first = (await session.send('Pay 10')) as { interrupts: AgUiInterrupt[] }
    const [interrupt] = first.interrupts

    void session.resume([
      { interruptId: interrupt.id, status: 'resolved', payload: { approved: true } },
    ])
    session.stop()

    expect(session.getSnapshot()).toEqual({ status: 'idle', interrupts: [] })
    // The next message waits for the approved run before anything goes to the agent.
    const next = session.send('Anything else?')
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(inputs).toHaveLength(1)
    expect(session.getSnapshot().status).toBe('running')

    release()

    await expect(next).resolves.toEqual({ type: 'success' })
    expect(paid).toEqual([10])
    expect(inputs).toHaveLength(2)
    expect(thread(inputs[1])).toEqual([
      ['user'],
      ['assistant'],
      ['tool', 'call_0', { status: 'ok', data: { amount: 10, paid: true } }],
      ['user'],
    ])
    expect(inputs[1].messages.at(-1)).toMatchObject({ role: 'user', content: 'Anything else?' })
    expect(session.getSnapshot()).toEqual({ status: 'idle', interrupts: [] })
  })

  it('inline mode: the run approved in the dialog goes on, and its real result goes back once, before the next message', async () => {
    const { tm, paid, release } = payments()
    tm.confirmations.attachPresenter()
    const { agent, inputs } = agentPaying([10])
    const session = createAgUiSession(tm, { agent })
    const turn = session.send('Pay 10')
    await vi.waitFor(() => expect(tm.confirmations.list()).toHaveLength(1))
    const [entry] = tm.confirmations.list()

    // As the dialog's Approve button would, then Stop at once.
    void tm.confirmations.approve(entry.id, { by: 'dialog' })
    session.stop()

    await expect(turn).resolves.toEqual({ type: 'cancelled' })
    release()
    await vi.waitFor(() => expect(paid).toEqual([10]))

    await expect(session.send('Anything else?')).resolves.toEqual({ type: 'success' })
    expect(paid).toEqual([10])
    expect(inputs).toHaveLength(2)
    expect(thread(inputs[1])).toEqual([
      ['user'],
      ['assistant'],
      ['tool', 'call_0', { status: 'ok', data: { amount: 10, paid: true } }],
      ['user'],
    ])
    expect(inputs[1].messages.at(-1)).toMatchObject({ role: 'user', content: 'Anything else?' })
  })

  it('interrupt mode: of two calls, the approved one reports its result; the one still waiting is withdrawn as before', async () => {
    const { tm, paid, release } = payments()
    const { agent, inputs } = agentPaying([10, 20])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const first = (await session.send('Pay 10 and 20')) as { interrupts: AgUiInterrupt[] }
    const [approved, waiting] = first.interrupts

    void session.resume([
      { interruptId: approved.id, status: 'resolved', payload: { approved: true } },
    ])
    session.stop()
    release()

    await expect(session.send('Anything else?')).resolves.toEqual({ type: 'success' })
    expect(paid).toEqual([10])
    expect(tm.confirmations.get(waiting.id)).toBeUndefined()
    expect(thread(inputs[1])).toEqual([
      ['user'],
      ['assistant'],
      ['tool', 'call_0', { status: 'ok', data: { amount: 10, paid: true } }],
      ['user'],
    ])
  })

  it('interrupt mode: an approved run that asks after the Stop is declined at once, and its result still goes back', async () => {
    const tm = createToolmark({ dev: true, confirm: { questions: questions() } })
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let runs = 0
    tm.register({
      name: 'payments.send',
      description: 'Sends a payment, asking for a note.',
      input: z.object({ amount: z.number() }),
      hints: { consequential: true },
      summary: ({ amount }) => `Pay ${amount}`,
      run: async ({ amount }, ctx) => {
        runs++
        await gate
        const note = await ctx.ask({ prompt: 'A note?', schema: { type: 'string' } })
        return ok({ amount, noted: note.answered })
      },
    })
    const { agent, inputs } = agentPaying([10])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const first = (await session.send('Pay 10')) as { interrupts: AgUiInterrupt[] }

    void session.resume([
      { interruptId: first.interrupts[0].id, status: 'resolved', payload: { approved: true } },
    ])
    session.stop()
    release()

    await expect(session.send('Anything else?')).resolves.toEqual({ type: 'success' })
    expect(runs).toBe(1)
    expect(tm.confirmations.list()).toEqual([])
    expect(session.getSnapshot().interrupts).toEqual([])
    expect(thread(inputs[1])).toEqual([
      ['user'],
      ['assistant'],
      ['tool', 'call_0', { status: 'ok', data: { amount: 10, noted: false } }],
      ['user'],
    ])
  })

  it('interrupt mode: a call not yet approved at Stop is withdrawn, never runs and sends nothing', async () => {
    const { tm, paid, release } = payments()
    const { agent, inputs } = agentPaying([10])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const first = (await session.send('Pay 10')) as { interrupts: AgUiInterrupt[] }

    session.stop()
    release()

    expect(tm.confirmations.list()).toEqual([])
    const late = await session.resume([
      { interruptId: first.interrupts[0].id, status: 'resolved', payload: { approved: true } },
    ])
    expect(late.answers[0].result).toMatchObject({ code: 'confirmation_expired' })
    await expect(session.send('Anything else?')).resolves.toEqual({ type: 'success' })
    expect(paid).toEqual([])
    expect(thread(inputs[1])).toEqual([['user'], ['assistant'], ['user']])
  })

  it('inline mode: a call rejected by the Stop before anyone approved it never runs and sends nothing', async () => {
    const { tm, paid, release } = payments()
    tm.confirmations.attachPresenter()
    const { agent, inputs } = agentPaying([10])
    const session = createAgUiSession(tm, { agent })
    const turn = session.send('Pay 10')
    await vi.waitFor(() => expect(tm.confirmations.list()).toHaveLength(1))

    session.stop()
    release()

    await expect(turn).resolves.toEqual({ type: 'cancelled' })
    await vi.waitFor(() => expect(tm.confirmations.list()).toEqual([]))
    await expect(session.send('Anything else?')).resolves.toEqual({ type: 'success' })
    expect(paid).toEqual([])
    expect(thread(inputs[1])).toEqual([['user'], ['assistant'], ['user']])
  })
})
