import { createToolmark, ok } from '../../src/index'
import { createAgUiSession } from '../../src/ag-ui'
import type { AgUiAgent, AgUiMessage, AgUiSubscriber } from '../../src/ag-ui'
import { AgUiSessionState } from '../../src/ag-ui/agUiSessionState'

/** An agent whose runs follow a script: each step says how the run ends. */
function scriptedAgent(steps: ((messages: AgUiMessage[], s: AgUiSubscriber) => void)[]) {
  const agent: AgUiAgent & { runs: number } = {
    runs: 0,
    messages: [],
    addMessage(message) {
      agent.messages.push(message)
    },
    async runAgent(_parameters, subscriber = {}) {
      const step = steps[agent.runs++]
      await Promise.resolve()
      step(agent.messages, subscriber)
    },
    abortRun() {},
  }
  return agent
}

describe('AgUiSessionState', () => {
  it('moves by its table: idle → running → interrupted → running → idle', () => {
    const state = new AgUiSessionState(createToolmark({ dev: true }))
    const seen: string[] = []
    state.subscribe(() => seen.push(state.getSnapshot().status))
    state.move('running', [])
    state.move('interrupted', [{ id: 'i1', reason: 'x' }])
    state.move('running', [])
    state.move('idle', [], 'boom')
    expect(seen).toEqual(['running', 'interrupted', 'running', 'idle'])
    expect(state.getSnapshot()).toEqual({ status: 'idle', interrupts: [], error: 'boom' })
    expect(Object.isFrozen(state.getSnapshot())).toBe(true)
  })

  it('throws on a move the table does not have, and stays where it was', () => {
    const state = new AgUiSessionState(createToolmark({ dev: true }))
    // idle → interrupted skips the turn's start: never allowed.
    expect(() => state.move('interrupted', [])).toThrow(
      '[toolmark] An AG-UI session cannot move from idle to interrupted',
    )
    expect(state.getSnapshot().status).toBe('idle')
  })

  it('keeps the same snapshot, and notifies no one, when nothing changed', () => {
    const state = new AgUiSessionState(createToolmark({ dev: true }))
    const listener = vi.fn()
    state.subscribe(listener)
    const before = state.getSnapshot()
    state.move('idle', [])
    state.interrupts([])
    expect(state.getSnapshot()).toBe(before)
    expect(listener).not.toHaveBeenCalled()
    state.move('running', [])
    const interrupt = { id: 'i1', reason: 'x' }
    state.move('interrupted', [interrupt])
    const held = state.getSnapshot()
    state.interrupts([interrupt])
    expect(state.getSnapshot()).toBe(held)
    expect(listener).toHaveBeenCalledTimes(2)
  })

  it('reports a listener that throws as an error event and still tells the others', () => {
    const tm = createToolmark({ dev: true })
    const errors: string[] = []
    tm.events.on('error', (event) => errors.push(event.code))
    const state = new AgUiSessionState(tm)
    const other = vi.fn()
    state.subscribe(() => {
      throw new Error('listener')
    })
    state.subscribe(other)
    state.move('running', [])
    expect(errors).toEqual(['listener_threw'])
    expect(other).toHaveBeenCalledTimes(1)
  })
})

describe('createAgUiSession status, as a UI reads it', () => {
  it('walks idle → running → idle for a turn whose tool call the page answers', async () => {
    const tm = createToolmark({ dev: true })
    tm.register({
      name: 'notes.count',
      description: 'Counts notes.',
      hints: { readOnly: true },
      run: () => ok({ count: 3 }),
    })
    const agent = scriptedAgent([
      (messages, s) => {
        messages.push({
          id: 'a1',
          role: 'assistant',
          toolCalls: [
            { id: 'c1', type: 'function', function: { name: 'notes__count', arguments: '' } },
          ],
        })
        s.onRunFinishedEvent?.({ outcome: 'success', pendingToolCallIds: ['c1'] })
      },
      (_messages, s) => s.onRunFinishedEvent?.({ outcome: 'success', pendingToolCallIds: [] }),
    ])
    const session = createAgUiSession(tm, { agent })
    const statuses: string[] = []
    session.subscribe(() => statuses.push(session.getSnapshot().status))
    await expect(session.send('how many?')).resolves.toEqual({ type: 'success' })
    expect(statuses).toEqual(['running', 'idle'])
    expect(agent.runs).toBe(2)
    const tool = agent.messages.find((m) => m.role === 'tool')
    expect(tool?.toolCallId).toBe('c1')
    expect(JSON.parse(String(tool?.content))).toEqual({ status: 'ok', data: { count: 3 } })
  })

  it("holds the agent's own interrupt, answers it with resume and goes on (interrupted → running)", async () => {
    const tm = createToolmark({ dev: true })
    const resumes: unknown[] = []
    const agent = scriptedAgent([
      (_m, s) =>
        s.onRunFinishedEvent?.({
          outcome: 'interrupt',
          interrupts: [{ id: 'own', reason: 'agent_question' }],
        }),
      (_m, s) => s.onRunFinishedEvent?.({ outcome: 'success', pendingToolCallIds: [] }),
    ])
    const run = agent.runAgent.bind(agent)
    agent.runAgent = (parameters, subscriber) => (
      resumes.push(parameters?.resume),
      run(parameters, subscriber)
    )
    const session = createAgUiSession(tm, { agent })
    const statuses: string[] = []
    session.subscribe(() => statuses.push(session.getSnapshot().status))
    const first = await session.send('go')
    expect(first.type).toBe('interrupt')
    expect(session.getSnapshot()).toMatchObject({
      status: 'interrupted',
      interrupts: [{ id: 'own' }],
    })
    // A second send while interrupted sends nothing.
    await expect(session.send('again')).resolves.toEqual({ type: 'busy' })
    const outcome = await session.resume([{ interruptId: 'own', status: 'resolved', payload: 1 }])
    expect(outcome.turn).toEqual({ type: 'success' })
    expect(resumes[1]).toEqual([{ interruptId: 'own', status: 'resolved', payload: 1 }])
    expect(statuses).toEqual(['running', 'interrupted', 'running', 'idle'])
  })

  it('ends a failed turn idle with its error, and Stop from interrupted goes idle at once', async () => {
    const tm = createToolmark({ dev: true })
    const errors: string[] = []
    tm.events.on('error', (event) => errors.push(event.code))
    const agent = scriptedAgent([
      (_m, s) => s.onRunFailed?.({ error: new Error('network down') }),
      (_m, s) =>
        s.onRunFinishedEvent?.({ outcome: 'interrupt', interrupts: [{ id: 'x', reason: 'r' }] }),
    ])
    const session = createAgUiSession(tm, { agent })
    await expect(session.send()).resolves.toEqual({ type: 'error', message: 'network down' })
    expect(session.getSnapshot()).toEqual({ status: 'idle', interrupts: [], error: 'network down' })
    expect(errors).toEqual(['ag_ui_run_failed'])
    await session.send()
    expect(session.getSnapshot().status).toBe('interrupted')
    session.stop()
    expect(session.getSnapshot()).toEqual({ status: 'idle', interrupts: [] })
    // A late answer to the stopped turn's interrupt is refused, and nothing moves.
    const late = await session.resume([{ interruptId: 'x', status: 'resolved' }])
    expect(late.answers).toEqual([
      { interruptId: 'x', result: expect.objectContaining({ code: 'confirmation_expired' }) },
    ])
    expect(late.turn).toEqual({ type: 'busy' })
    expect(session.getSnapshot().status).toBe('idle')
  })
})
