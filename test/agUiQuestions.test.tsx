import { StrictMode } from 'react'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { z } from 'zod'
import { HttpAgent } from '@ag-ui/client'
import { createToolmark, ok, questions } from '@toolmark/core'
import type { JsonSchema, QuestionAnswer, Toolmark } from '@toolmark/core'
import { createAgUiSession } from '@toolmark/core/ag-ui'
import type { AgUiInterrupt, AgUiTurnOutcome } from '@toolmark/core/ag-ui'
import { ConfirmDialog, ToolProvider, questionForm, useTool } from '@toolmark/react'
import { useAgUiSession } from '@toolmark/react/ag-ui'
import { agUiServer, scriptedModel } from './agUiServer'
import type { ModelStep } from './agUiServer'

const FLOOR: JsonSchema = {
  type: 'object',
  properties: { floor: { type: 'integer', minimum: 0, title: 'Floor' } },
  required: ['floor'],
}
const ROOM: JsonSchema = { enum: ['A', 'B'] }

/** What the model read in its n-th request: the tool results, as JSON values. */
function toolResultsSeen(model: ReturnType<typeof scriptedModel>, request: number) {
  return model.doStreamCalls[request].prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content)
    .map((part) =>
      part.type === 'tool-result' ? [part.toolName, (part.output as { value: unknown }).value] : [],
    )
}

/**
 * A registry with `tickets.file`, whose run asks which floor the ticket is on (`times` times),
 * and a read-only `tickets.find`; `runs` counts the runs, `heard` what each ask resolved with.
 */
function ticketTools(options: { expiryMs?: number; times?: number } = {}) {
  const tm: Toolmark = createToolmark({
    dev: true,
    ...(options.expiryMs ? { limits: { confirmationExpiryMs: options.expiryMs } } : {}),
    // The runs ask: the registry brings the questions' code (interrupt mode requires it).
    confirm: { questions: questions() },
  })
  const runs = { file: 0, find: 0, book: 0 }
  const heard: [string, QuestionAnswer][] = []
  // Calls of one scope run one at a time; a run that asks keeps its scope's slot.
  const tickets = tm.scope('tickets')
  tm.register(
    {
      name: 'book',
      description: 'Books a room for a ticket, asking which one.',
      input: z.object({ id: z.string() }),
      run: async ({ id }, ctx) => {
        runs.book++
        const answer = await ctx.ask({ prompt: `Which room for ${id}?`, schema: ROOM })
        heard.push([id, answer])
        return ok(answer.answered ? { id, room: answer.value } : { id, unanswered: answer.reason })
      },
    },
    { scope: tm.scope('rooms') },
  )
  tm.register(
    {
      name: 'file',
      description: 'Files a ticket, asking which floor it is on.',
      input: z.object({ id: z.string() }),
      run: async ({ id }, ctx) => {
        runs.file++
        let answer: QuestionAnswer = { answered: false, reason: 'cancelled' }
        for (let i = 0; i < (options.times ?? 1); i++) {
          answer = await ctx.ask({ prompt: `Which floor is ${id} on?`, schema: FLOOR })
          heard.push([id, answer])
        }
        return ok(answer.answered ? { id, filed: answer.value } : { id, unanswered: answer.reason })
      },
    },
    { scope: tickets },
  )
  tm.register(
    {
      name: 'find',
      description: 'Finds a ticket by id.',
      input: z.object({ id: z.string() }),
      hints: { readOnly: true },
      run: ({ id }) => (runs.find++, ok({ id, title: 'Printer jams' })),
    },
    { scope: tickets },
  )
  return { tm, runs, heard }
}

function agentFor(steps: ModelStep[]) {
  const model = scriptedModel(steps)
  const server = agUiServer(model)
  const agent = new HttpAgent({ url: 'http://localhost/api/agent', fetch: server.fetch })
  return { model, server, agent }
}

const interruptsOf = (outcome: AgUiTurnOutcome) =>
  outcome.type === 'interrupt' ? outcome.interrupts : []

describe('AG-UI interrupts for questions (ctx.ask)', () => {
  it('ends the run with a question interrupt and goes on with the answer given to resume', async () => {
    const { tm, runs, heard } = ticketTools()
    const { model, server, agent } = agentFor([
      [{ toolName: 'tickets__file', input: { id: 'T-1' } }],
      'Filed on floor 3.',
    ])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const before = Date.now()

    const first = await session.send('File T-1')

    expect(first.type).toBe('interrupt')
    const [interrupt] = interruptsOf(first)
    const [entry] = tm.confirmations.list()
    expect(interrupt).toEqual({
      id: entry.id,
      reason: 'tool_question',
      message: 'Which floor is T-1 on?',
      toolCallId: 'call_1_0',
      responseSchema: entry.question!.schema,
      expiresAt: new Date(entry.expiresAt).toISOString(),
      metadata: { toolmark: { tool: 'tickets.file' } },
    })
    expect(interrupt.responseSchema).toMatchObject({ properties: { floor: { type: 'integer' } } })
    expect(Date.parse(interrupt.expiresAt!)).toBeGreaterThan(before + 9 * 60_000)
    expect(entry).toMatchObject({ tool: 'tickets.file', caller: 'inapp' })
    expect(session.getSnapshot()).toEqual({ status: 'interrupted', interrupts: [interrupt] })
    await expect(session.send('again')).resolves.toEqual({ type: 'busy' })
    expect(model.doStreamCalls).toHaveLength(1)

    const resumed = await session.resume([
      { interruptId: interrupt.id, status: 'resolved', payload: { floor: 3 } },
    ])

    expect(resumed.answers).toEqual([{ interruptId: interrupt.id, result: ok(null) }])
    expect(resumed.turn).toEqual({ type: 'success' })
    expect(heard).toEqual([['T-1', { answered: true, value: { floor: 3 } }]])
    expect(runs.file).toBe(1)
    expect(toolResultsSeen(model, 1)).toEqual([
      ['tickets__file', { status: 'ok', data: { id: 'T-1', filed: { floor: 3 } } }],
    ])
    // The agent never raised this interrupt, so no `resume` went to it.
    expect(server.inputs[1].resume).toBeUndefined()
    expect(tm.confirmations.list()).toEqual([])
    expect(session.getSnapshot()).toEqual({ status: 'idle', interrupts: [] })

    const again = await session.resume([
      { interruptId: interrupt.id, status: 'resolved', payload: { floor: 4 } },
    ])
    expect(again.answers[0].result).toMatchObject({
      status: 'refused',
      code: 'confirmation_expired',
    })
    expect(again.turn).toEqual({ type: 'busy' })
    expect(runs.file).toBe(1)
    expect(model.doStreamCalls).toHaveLength(2)
  })

  it('two calls in different scopes ask at once: each question is its own call’s, answered by resume and by the store', async () => {
    const { tm, runs, heard } = ticketTools()
    const { model, agent } = agentFor([
      [
        { toolName: 'tickets__file', input: { id: 'T-1' } },
        { toolName: 'rooms__book', input: { id: 'T-1' } },
        { toolName: 'tickets__find', input: { id: 'T-3' } },
      ],
      'Filed and booked.',
    ])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })

    const first = await session.send('File T-1 and book a room')

    const interrupts = interruptsOf(first)
    expect(interrupts.map((i) => [i.toolCallId, i.message, i.responseSchema])).toEqual([
      ['call_1_0', 'Which floor is T-1 on?', FLOOR],
      ['call_1_1', 'Which room for T-1?', ROOM],
    ])
    expect(tm.confirmations.list().map((e) => [e.id, e.tool])).toEqual([
      [interrupts[0].id, 'tickets.file'],
      [interrupts[1].id, 'rooms.book'],
    ])
    // The lookup waits in line behind the question of its scope, and is held with them.
    expect(runs.find).toBe(0)
    expect(model.doStreamCalls).toHaveLength(1)

    const one = await session.resume([
      { interruptId: interrupts[1].id, status: 'resolved', payload: 'B' },
    ])
    expect(one.answers[0].result).toEqual(ok(null))
    expect(one.turn).toEqual({ type: 'busy' })
    expect(session.getSnapshot().interrupts).toEqual([interrupts[0]])
    expect(model.doStreamCalls).toHaveLength(1)

    // The person answers the other one in the store, as the dialog would.
    await expect(tm.confirmations.answer(interrupts[0].id, { floor: 1 })).resolves.toEqual(ok(null))
    await waitFor(() => expect(session.getSnapshot().status).toBe('idle'))

    expect(heard).toEqual([
      ['T-1', { answered: true, value: 'B' }],
      ['T-1', { answered: true, value: { floor: 1 } }],
    ])
    expect(runs).toEqual({ file: 1, book: 1, find: 1 })
    expect(toolResultsSeen(model, 1)).toEqual([
      ['tickets__file', { status: 'ok', data: { id: 'T-1', filed: { floor: 1 } } }],
      ['rooms__book', { status: 'ok', data: { id: 'T-1', room: 'B' } }],
      ['tickets__find', { status: 'ok', data: { id: 'T-3', title: 'Printer jams' } }],
    ])
    expect(model.doStreamCalls).toHaveLength(2)
  })

  it('two calls of one tool: the second asks once the first is answered, and the turn stays interrupted', async () => {
    const { tm, runs, heard } = ticketTools()
    const { model, agent } = agentFor([
      [
        { toolName: 'tickets__file', input: { id: 'T-1' } },
        { toolName: 'tickets__file', input: { id: 'T-2' } },
      ],
      'Both filed.',
    ])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })

    const first = await session.send('File both')
    const [q1] = interruptsOf(first)
    expect(interruptsOf(first)).toHaveLength(1)
    expect(q1).toMatchObject({ toolCallId: 'call_1_0', message: 'Which floor is T-1 on?' })

    const next = await session.resume([
      { interruptId: q1.id, status: 'resolved', payload: { floor: 1 } },
    ])
    const [q2] = interruptsOf(next.turn)
    expect(interruptsOf(next.turn)).toHaveLength(1)
    expect(q2).toMatchObject({ toolCallId: 'call_1_1', message: 'Which floor is T-2 on?' })
    expect(model.doStreamCalls).toHaveLength(1)

    const last = await session.resume([
      { interruptId: q2.id, status: 'resolved', payload: { floor: 2 } },
    ])
    expect(last.turn).toEqual({ type: 'success' })
    expect(heard.map(([id, a]) => [id, a.answered && a.value])).toEqual([
      ['T-1', { floor: 1 }],
      ['T-2', { floor: 2 }],
    ])
    expect(runs.file).toBe(2)
    expect(toolResultsSeen(model, 1)).toEqual([
      ['tickets__file', { status: 'ok', data: { id: 'T-1', filed: { floor: 1 } } }],
      ['tickets__file', { status: 'ok', data: { id: 'T-2', filed: { floor: 2 } } }],
    ])
  })

  it('never takes up a question of a call it did not start, of the same tool or another caller', async () => {
    const { tm, heard } = ticketTools()
    const { model, agent } = agentFor([
      [{ toolName: 'tickets__file', input: { id: 'T-1' } }],
      'Filed.',
    ])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const calls: string[] = []
    tm.events.on('call', (event) => calls.push(`${event.caller} ${event.tool}`))
    // A dialog is mounted, so the app's own calls can ask too.
    const detach = tm.confirmations.attachPresenter()
    const appCall = tm.call('tickets.file', { id: 'APP' }, { caller: 'inapp' })
    const webmcpCall = tm.call('rooms.book', { id: 'WEB' }, { caller: 'webmcp' })
    await waitFor(() => expect(tm.confirmations.list()).toHaveLength(2))
    const [app, web] = tm.confirmations.list()

    const turn = session.send('File T-1')
    // The session's call waits in line behind the app's question, which is not the session's.
    await waitFor(() => expect(calls).toHaveLength(3))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(session.getSnapshot()).toEqual({ status: 'running', interrupts: [] })
    const strangers = await session.resume([
      { interruptId: app.id, status: 'resolved', payload: { floor: 9 } },
      { interruptId: web.id, status: 'cancelled' },
    ])
    expect(strangers.answers.map((a) => a.result)).toEqual([
      expect.objectContaining({ code: 'confirmation_expired' }),
      expect.objectContaining({ code: 'confirmation_expired' }),
    ])
    expect(tm.confirmations.list()).toEqual([app, web])

    await tm.confirmations.answer(app.id, { floor: 5 })
    await expect(appCall).resolves.toMatchObject({ status: 'ok', data: { id: 'APP' } })
    const [ours] = interruptsOf(await turn)
    expect(ours).toMatchObject({ toolCallId: 'call_1_0', message: 'Which floor is T-1 on?' })
    expect([app.id, web.id]).not.toContain(ours.id)
    expect(session.getSnapshot().interrupts).toEqual([ours])

    const resumed = await session.resume([
      { interruptId: ours.id, status: 'resolved', payload: { floor: 1 } },
    ])
    expect(resumed.turn).toEqual({ type: 'success' })
    expect(toolResultsSeen(model, 1)).toEqual([
      ['tickets__file', { status: 'ok', data: { id: 'T-1', filed: { floor: 1 } } }],
    ])
    // The other caller's question still waits for the person, untouched.
    expect(tm.confirmations.list()).toEqual([web])
    await tm.confirmations.answer(web.id, 'A')
    await expect(webmcpCall).resolves.toMatchObject({ status: 'ok', data: { room: 'A' } })
    expect(heard.map(([id]) => id)).toEqual(['APP', 'T-1', 'WEB'])
    detach()
  })

  it('an answer that fails the schema stays open with its issues; the valid one runs the rest once', async () => {
    const { tm, runs, heard } = ticketTools()
    const { model, agent } = agentFor([
      [{ toolName: 'tickets__file', input: { id: 'T-1' } }],
      'Filed.',
    ])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const [interrupt] = interruptsOf(await session.send('File T-1'))

    const bad = await session.resume([
      { interruptId: interrupt.id, status: 'resolved', payload: { floor: -1 } },
    ])
    expect(bad.answers[0].result).toMatchObject({
      status: 'invalid',
      issues: [{ path: 'floor', message: 'At least 0' }],
    })
    expect(bad.turn).toEqual({ type: 'busy' })
    expect(session.getSnapshot()).toEqual({ status: 'interrupted', interrupts: [interrupt] })
    const notObject = await session.resume([{ interruptId: interrupt.id, status: 'resolved' }])
    expect(notObject.answers[0].result).toMatchObject({ status: 'invalid' })
    expect(heard).toEqual([])

    const good = await session.resume([
      { interruptId: interrupt.id, status: 'resolved', payload: { floor: 0 } },
    ])
    expect(good.turn).toEqual({ type: 'success' })
    expect(heard).toEqual([['T-1', { answered: true, value: { floor: 0 } }]])
    expect(runs.file).toBe(1)
    expect(model.doStreamCalls).toHaveLength(2)
  })

  it('a resume and the store answering one question at once: one answer counts, the tool runs once', async () => {
    const { tm, runs, heard } = ticketTools()
    const { model, agent } = agentFor([
      [{ toolName: 'tickets__file', input: { id: 'T-1' } }],
      'Filed.',
    ])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const [interrupt] = interruptsOf(await session.send('File T-1'))

    const [viaStore, viaResume] = await Promise.all([
      tm.confirmations.answer(interrupt.id, { floor: 1 }),
      session.resume([{ interruptId: interrupt.id, status: 'resolved', payload: { floor: 2 } }]),
    ])

    expect([viaStore, viaResume.answers[0].result]).toContainEqual(ok(null))
    expect([viaStore, viaResume.answers[0].result]).toContainEqual(
      expect.objectContaining({ status: 'refused' }),
    )
    await waitFor(() => expect(session.getSnapshot().status).toBe('idle'))
    expect(heard).toHaveLength(1)
    expect(runs.file).toBe(1)
    expect(model.doStreamCalls).toHaveLength(2)
    expect(agent.messages.filter((m) => m.role === 'tool')).toHaveLength(1)
  })

  it('a cancelled resume declines the question; the tool goes on and its result goes back', async () => {
    const { tm, heard } = ticketTools()
    const { model, agent } = agentFor([
      [{ toolName: 'tickets__file', input: { id: 'T-1' } }],
      'Not filed.',
    ])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const [interrupt] = interruptsOf(await session.send('File T-1'))

    const resumed = await session.resume([{ interruptId: interrupt.id, status: 'cancelled' }])

    expect(resumed.answers[0].result).toEqual({ status: 'cancelled', by: 'operator' })
    expect(resumed.turn).toEqual({ type: 'success' })
    expect(heard).toEqual([['T-1', { answered: false, reason: 'declined' }]])
    expect(toolResultsSeen(model, 1)).toEqual([
      ['tickets__file', { status: 'ok', data: { id: 'T-1', unanswered: 'declined' } }],
    ])
  })

  it('a tool that asks twice keeps the turn interrupted with its second question', async () => {
    const { tm, runs, heard } = ticketTools({ times: 2 })
    const { model, agent } = agentFor([
      [{ toolName: 'tickets__file', input: { id: 'T-1' } }],
      'Filed.',
    ])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const [q1] = interruptsOf(await session.send('File T-1'))

    const first = await session.resume([
      { interruptId: q1.id, status: 'resolved', payload: { floor: 1 } },
    ])

    expect(first.turn.type).toBe('interrupt')
    const [q2] = interruptsOf(first.turn)
    expect(q2).toMatchObject({ reason: 'tool_question', toolCallId: q1.toolCallId })
    expect(q2.id).not.toBe(q1.id)
    expect(session.getSnapshot()).toEqual({ status: 'interrupted', interrupts: [q2] })
    // The agent has not heard anything yet: the call is not over.
    expect(model.doStreamCalls).toHaveLength(1)

    const second = await session.resume([
      { interruptId: q2.id, status: 'resolved', payload: { floor: 2 } },
    ])
    expect(second.turn).toEqual({ type: 'success' })
    expect(heard.map(([, a]) => a)).toEqual([
      { answered: true, value: { floor: 1 } },
      { answered: true, value: { floor: 2 } },
    ])
    expect(runs.file).toBe(1)
    expect(toolResultsSeen(model, 1)).toEqual([
      ['tickets__file', { status: 'ok', data: { id: 'T-1', filed: { floor: 2 } } }],
    ])
  })

  it('a tool that needs approval and then asks: the approval gives way to the question, and the call runs once', async () => {
    const { tm, heard } = ticketTools()
    let runs = 0
    tm.register({
      name: 'printers.replace',
      description: 'Replaces a printer, asking which model.',
      input: z.object({ id: z.string() }),
      hints: { consequential: true },
      summary: ({ id }) => `Replace the printer of ${id}`,
      run: async ({ id }, ctx) => {
        runs++
        const answer = await ctx.ask({ prompt: 'Which model?', schema: ROOM })
        heard.push([id, answer])
        return ok({ id, model: answer.answered ? answer.value : null })
      },
    })
    const { model, agent } = agentFor([
      [{ toolName: 'printers__replace', input: { id: 'T-1' } }],
      'Replaced.',
    ])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const [approval] = interruptsOf(await session.send('Replace it'))
    expect(approval).toMatchObject({ reason: 'tool_approval', toolCallId: 'call_1_0' })

    const approved = await session.resume([
      { interruptId: approval.id, status: 'resolved', payload: { approved: true } },
    ])

    const [question] = session.getSnapshot().interrupts
    expect(question).toMatchObject({
      reason: 'tool_question',
      message: 'Which model?',
      toolCallId: 'call_1_0',
      responseSchema: ROOM,
    })
    expect(approved.answers).toEqual([
      {
        interruptId: approval.id,
        result: { status: 'needs_confirmation', confirmId: question.id, summary: 'Which model?' },
      },
    ])
    expect(approved.turn).toEqual({ type: 'busy' })
    expect(session.getSnapshot().status).toBe('interrupted')
    expect(model.doStreamCalls).toHaveLength(1)

    const answered = await session.resume([
      { interruptId: question.id, status: 'resolved', payload: 'A' },
    ])
    expect(answered.turn).toEqual({ type: 'success' })
    expect(runs).toBe(1)
    expect(heard).toEqual([['T-1', { answered: true, value: 'A' }]])
    expect(toolResultsSeen(model, 1)).toEqual([
      ['printers__replace', { status: 'ok', data: { id: 'T-1', model: 'A' } }],
    ])
    expect(tm.confirmations.list()).toEqual([])
  })

  it('a ctx.confirm in a run becomes an approval interrupt, with no dialog mounted, and the run goes on with the answer', async () => {
    const { tm } = ticketTools()
    const confirmed: unknown[] = []
    tm.register({
      name: 'printers.reprint',
      description: 'Reprints a ticket’s jobs, confirming first.',
      input: z.object({ id: z.string() }),
      run: async ({ id }, ctx) => {
        const answer = await ctx.confirm({ summary: `Reprint every job of ${id}?` })
        confirmed.push(answer)
        return ok({ id, reprinted: answer.approved })
      },
    })
    const { model, agent } = agentFor([
      [{ toolName: 'printers__reprint', input: { id: 'T-1' } }],
      'Reprinted.',
    ])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    expect(tm.confirmations.hasPresenter()).toBe(false)

    const [interrupt] = interruptsOf(await session.send('Reprint T-1'))

    expect(interrupt).toMatchObject({
      reason: 'tool_approval',
      message: 'Reprint every job of T-1?',
      toolCallId: 'call_1_0',
    })
    expect(tm.confirmations.list()).toMatchObject([
      { id: interrupt.id, inRun: true, presentedByCaller: true },
    ])
    const resumed = await session.resume([
      { interruptId: interrupt.id, status: 'resolved', payload: { approved: true } },
    ])
    expect(resumed.turn).toEqual({ type: 'success' })
    expect(confirmed).toEqual([{ approved: true }])
    expect(toolResultsSeen(model, 1)).toEqual([
      ['printers__reprint', { status: 'ok', data: { id: 'T-1', reprinted: true } }],
    ])
    expect(tm.confirmations.list()).toEqual([])
  })

  it('a tool that needs approval and then confirms: the ctx.confirm takes the approval’s place, and the call runs once', async () => {
    const { tm } = ticketTools()
    let runs = 0
    tm.register({
      name: 'printers.wipe',
      description: 'Wipes a printer, confirming the jobs it drops.',
      input: z.object({ id: z.string() }),
      hints: { consequential: true },
      summary: ({ id }) => `Wipe the printer of ${id}`,
      run: async ({ id }, ctx) => {
        runs++
        const answer = await ctx.confirm({ summary: 'Drop the 3 queued jobs too?' })
        return ok({ id, dropped: answer.approved })
      },
    })
    const { model, agent } = agentFor([
      [{ toolName: 'printers__wipe', input: { id: 'T-1' } }],
      'Wiped.',
    ])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const [approval] = interruptsOf(await session.send('Wipe it'))
    expect(approval).toMatchObject({ reason: 'tool_approval', message: 'Wipe the printer of T-1' })

    const approved = await session.resume([
      { interruptId: approval.id, status: 'resolved', payload: { approved: true } },
    ])

    const [asked] = session.getSnapshot().interrupts
    expect(asked).toMatchObject({
      reason: 'tool_approval',
      message: 'Drop the 3 queued jobs too?',
      toolCallId: 'call_1_0',
    })
    expect(approved.answers).toEqual([
      {
        interruptId: approval.id,
        result: {
          status: 'needs_confirmation',
          confirmId: asked.id,
          summary: 'Drop the 3 queued jobs too?',
        },
      },
    ])
    expect(tm.confirmations.list()).toMatchObject([{ id: asked.id, presentedByCaller: true }])

    const answered = await session.resume([
      { interruptId: asked.id, status: 'resolved', payload: { approved: false } },
    ])
    expect(answered.turn).toEqual({ type: 'success' })
    expect(runs).toBe(1)
    expect(toolResultsSeen(model, 1)).toEqual([
      ['printers__wipe', { status: 'ok', data: { id: 'T-1', dropped: false } }],
    ])
    expect(tm.confirmations.list()).toEqual([])
  })

  it('a run that asks two questions at once: the second becomes the interrupt once the first is answered', async () => {
    const { tm } = ticketTools()
    tm.register({
      name: 'desks.move',
      description: 'Moves a desk, asking the floor and the room at once.',
      input: z.object({ id: z.string() }),
      run: async ({ id }, ctx) => {
        const [floor, room] = await Promise.all([
          ctx.ask({ prompt: 'Which floor?', schema: FLOOR }),
          ctx.ask({ prompt: 'Which room?', schema: ROOM }),
        ])
        return ok({ id, floor: floor.answered && floor.value, room: room.answered && room.value })
      },
    })
    const { model, agent } = agentFor([
      [{ toolName: 'desks__move', input: { id: 'D-1' } }],
      'Moved.',
    ])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })

    const [first] = interruptsOf(await session.send('Move D-1'))
    expect(first).toMatchObject({ reason: 'tool_question', message: 'Which floor?' })
    // Both are pending, both are the chat's to ask: neither is left to a dialog.
    expect(tm.confirmations.list()).toMatchObject([
      { presentedByCaller: true },
      { presentedByCaller: true },
    ])

    const floor = await session.resume([
      { interruptId: first.id, status: 'resolved', payload: { floor: 2 } },
    ])
    expect(floor.turn).toEqual({ type: 'busy' })
    const [second] = session.getSnapshot().interrupts
    expect(second).toMatchObject({
      reason: 'tool_question',
      message: 'Which room?',
      toolCallId: 'call_1_0',
    })
    expect(session.getSnapshot().status).toBe('interrupted')

    const room = await session.resume([
      { interruptId: second.id, status: 'resolved', payload: 'B' },
    ])
    expect(room.turn).toEqual({ type: 'success' })
    expect(toolResultsSeen(model, 1)).toEqual([
      ['desks__move', { status: 'ok', data: { id: 'D-1', floor: { floor: 2 }, room: 'B' } }],
    ])
    expect(tm.confirmations.list()).toEqual([])
  })

  it('an approved run that asks after the session is gone is declined at once, never left waiting', async () => {
    const { tm } = ticketTools()
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const heard: QuestionAnswer[] = []
    tm.register({
      name: 'printers.replace',
      description: 'Replaces a printer, asking which model.',
      input: z.object({ id: z.string() }),
      hints: { consequential: true },
      summary: ({ id }) => `Replace the printer of ${id}`,
      run: async ({ id }, ctx) => {
        await gate
        const answer = await ctx.ask({ prompt: 'Which model?', schema: ROOM })
        heard.push(answer)
        return ok({ id })
      },
    })
    const { agent } = agentFor([[{ toolName: 'printers__replace', input: { id: 'T-1' } }]])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const [approval] = interruptsOf(await session.send('Replace it'))
    void session.resume([
      { interruptId: approval.id, status: 'resolved', payload: { approved: true } },
    ])

    session.dispose()
    release()

    await waitFor(() => expect(heard).toEqual([{ answered: false, reason: 'declined' }]))
    expect(tm.confirmations.list()).toEqual([])
  })

  it('Stop withdraws the question and aborts the call; nothing is left pending or sent', async () => {
    const { tm, heard } = ticketTools()
    const { model, agent } = agentFor([[{ toolName: 'tickets__file', input: { id: 'T-1' } }]])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const results: string[] = []
    tm.events.on('result', (event) => results.push(`${event.tool} ${event.result.status}`))
    const [interrupt] = interruptsOf(await session.send('File T-1'))

    session.stop()

    expect(session.getSnapshot()).toEqual({ status: 'idle', interrupts: [] })
    // The run heard the question withdrawn and ended; its answer goes nowhere.
    await waitFor(() => expect(heard).toEqual([['T-1', { answered: false, reason: 'cancelled' }]]))
    await waitFor(() => expect(results).toHaveLength(1))
    expect(tm.confirmations.list()).toEqual([])
    const late = await session.resume([
      { interruptId: interrupt.id, status: 'resolved', payload: { floor: 1 } },
    ])
    expect(late.answers[0].result).toMatchObject({ code: 'confirmation_expired' })
    expect(model.doStreamCalls).toHaveLength(1)
    expect(agent.messages.filter((m) => m.role === 'tool')).toEqual([])
  })

  it('an expired question ends its interrupt, and the tool’s result goes back as usual', async () => {
    const { tm, heard } = ticketTools({ expiryMs: 150 })
    const { model, agent } = agentFor([
      [{ toolName: 'tickets__file', input: { id: 'T-1' } }],
      'Nobody answered.',
    ])
    const session = createAgUiSession(tm, { agent, confirmations: 'interrupt' })
    const [interrupt] = interruptsOf(await session.send('File T-1'))
    expect(session.getSnapshot().status).toBe('interrupted')

    await waitFor(() => expect(model.doStreamCalls).toHaveLength(2))
    await waitFor(() => expect(session.getSnapshot().status).toBe('idle'))

    expect(heard).toEqual([['T-1', { answered: false, reason: 'expired' }]])
    expect(toolResultsSeen(model, 1)).toEqual([
      ['tickets__file', { status: 'ok', data: { id: 'T-1', unanswered: 'expired' } }],
    ])
    expect(tm.confirmations.list()).toEqual([])
    const late = await session.resume([
      { interruptId: interrupt.id, status: 'resolved', payload: { floor: 1 } },
    ])
    expect(late.answers[0].result).toMatchObject({ code: 'confirmation_expired' })
    expect(model.doStreamCalls).toHaveLength(2)
  })

  it('inline mode leaves questions to the dialog: the call waits and the agent gets the final result', async () => {
    // The registry asks (`questions()`), and a presenter of the test's own stands in for the dialog.
    const { tm, heard } = ticketTools()
    const { model, agent } = agentFor([
      [{ toolName: 'tickets__file', input: { id: 'T-1' } }],
      'Filed.',
    ])
    const detach = tm.confirmations.attachPresenter()
    const session = createAgUiSession(tm, { agent })

    const turn = session.send('File T-1')
    await waitFor(() => expect(tm.confirmations.list()).toHaveLength(1))
    expect(session.getSnapshot()).toEqual({ status: 'running', interrupts: [] })
    await tm.confirmations.answer(tm.confirmations.list()[0].id, { floor: 7 })

    await expect(turn).resolves.toEqual({ type: 'success' })
    expect(heard).toEqual([['T-1', { answered: true, value: { floor: 7 } }]])
    expect(toolResultsSeen(model, 1)).toEqual([
      ['tickets__file', { status: 'ok', data: { id: 'T-1', filed: { floor: 7 } } }],
    ])
    detach()
  })
})

function FileTicket({ filed }: { filed: unknown[] }) {
  useTool({
    name: 'tickets.file',
    title: 'File ticket',
    description: 'Files a ticket, asking which floor it is on.',
    input: z.object({ id: z.string() }),
    run: async ({ id }, ctx) => {
      const answer = await ctx.ask({ prompt: `Which floor is ${id} on?`, schema: FLOOR })
      filed.push(answer)
      return ok({ id, answer })
    },
  })
  return null
}

/**
 * An assistant that lists the interrupts it is shown, as a UI rendering AG-UI interrupts does,
 * and answers a question with the floor typed beside it.
 */
function Assistant({ agent }: { agent: HttpAgent }) {
  const { status, interrupts, send, resume } = useAgUiSession(agent, {
    confirmations: 'interrupt',
  })
  return (
    <section aria-label="Assistant">
      <button onClick={() => void send('File T-1')}>Send</button>
      <output aria-label="Status">{status}</output>
      <ul aria-label="Interrupts">
        {interrupts.map((i: AgUiInterrupt) => (
          <li key={i.id}>
            {`${i.reason}: ${i.message}`}
            <form
              onSubmit={(event) => {
                event.preventDefault()
                const floor = Number(new FormData(event.currentTarget).get('floor'))
                void resume([{ interruptId: i.id, status: 'resolved', payload: { floor } }])
              }}
            >
              <label>
                Floor <input name="floor" type="number" />
              </label>
              <button>Answer in chat</button>
            </form>
          </li>
        ))}
      </ul>
    </section>
  )
}

describe('useAgUiSession with questions', () => {
  it('shows the question as an interrupt only: <ConfirmDialog> leaves it to the chat, whose answer sends the turn on (StrictMode)', async () => {
    const tm = createToolmark({ dev: true, confirm: { questions: questions() } })
    const filed: unknown[] = []
    const { model, agent } = agentFor([
      [{ toolName: 'tickets__file', input: { id: 'T-1' } }],
      'Filed on floor 4.',
    ])
    const user = userEvent.setup({ delay: null })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <FileTicket filed={filed} />
          <Assistant agent={agent} />
          <ConfirmDialog questions={questionForm} />
        </ToolProvider>
      </StrictMode>,
    )

    await user.click(screen.getByRole('button', { name: 'Send' }))
    await waitFor(() => expect(screen.getByLabelText('Status')).toHaveTextContent('interrupted'))
    expect(
      within(screen.getByRole('list', { name: 'Interrupts' })).getByRole('listitem'),
    ).toHaveTextContent('tool_question: Which floor is T-1 on?')
    expect(tm.confirmations.list()).toMatchObject([{ presentedByCaller: true }])
    // Asked in the chat alone: the dialog, mounted with a question form, stays closed.
    expect(screen.queryByRole('alertdialog')).toBeNull()
    const chat = screen.getByRole('list', { name: 'Interrupts' })
    await user.type(within(chat).getByRole('spinbutton', { name: 'Floor' }), '4')
    await user.click(within(chat).getByRole('button', { name: 'Answer in chat' }))

    await waitFor(() => expect(screen.getByLabelText('Status')).toHaveTextContent('idle'))
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(tm.confirmations.list()).toEqual([])
    expect(screen.queryByRole('listitem')).toBeNull()
    expect(filed).toEqual([{ answered: true, value: { floor: 4 } }])
    expect(toolResultsSeen(model, 1)).toEqual([
      [
        'tickets__file',
        { status: 'ok', data: { id: 'T-1', answer: { answered: true, value: { floor: 4 } } } },
      ],
    ])
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Filed on floor 4.' })
  })
})
