import { describe, expect, it, vi } from 'vitest'
import {
  createToolmark,
  grants,
  ok,
  type CallObserver,
  type CallPhase,
  type ConfirmEvent,
  type ErrorEvent,
  type Toolmark,
} from '../src/index'

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

/** What one observer heard, in order, as `kind:value`. */
function recorder() {
  const heard: string[] = []
  const observer: CallObserver = {
    started: (callId) => heard.push(`started:${callId}`),
    moved: (phase: CallPhase) => heard.push(`moved:${phase}`),
    confirm: (event: ConfirmEvent) => heard.push(`confirm:${event.status}:${event.entry.callId}`),
  }
  return { heard, observer }
}

const registerClose = (tm: Toolmark) =>
  tm.register({
    name: 'tickets.close',
    description: 'Closes a ticket',
    hints: { consequential: true },
    summary: () => 'Close the ticket',
    run: () => ok('closed'),
  })

describe('a call observer (CallOptions.observe)', () => {
  it('hears the id inside tm.call, the same id the registry events carry, then each move', async () => {
    const tm = createToolmark()
    tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })
    const ids: string[] = []
    tm.events.on('call', (event) => ids.push(event.callId))
    tm.events.on('result', (event) => ids.push(event.callId))
    const { heard, observer } = recorder()
    const pending = tm.call('ping', {}, { observe: observer })
    // Told synchronously, before tm.call returned.
    expect(heard).toEqual([`started:${ids[0]}`])
    expect(await pending).toEqual({ status: 'ok', data: 'pong' })
    expect(heard).toEqual([`started:${ids[0]}`, 'moved:running', 'moved:settled'])
    expect(ids[1]).toBe(ids[0])
  })

  it('hears its own confirmation asked and approved, and none of another call', async () => {
    const tm = createToolmark()
    registerClose(tm)
    tm.confirmations.attachPresenter()
    const mine = recorder()
    const other = recorder()
    const first = tm.call('tickets.close', {}, { caller: 'webmcp', observe: mine.observer })
    const second = tm.call('tickets.close', {}, { caller: 'webmcp', observe: other.observer })
    await tick()
    const [entryA, entryB] = tm.confirmations.list()
    const idA = mine.heard[0].slice('started:'.length)
    expect(entryA.callId).toBe(idA)
    await tm.confirmations.approve(entryA.id)
    expect(await first).toEqual({ status: 'ok', data: 'closed' })
    expect(mine.heard).toEqual([
      `started:${idA}`,
      'moved:queued',
      'moved:confirming',
      `confirm:pending:${idA}`,
      'moved:queued',
      'moved:running',
      'moved:settled',
      `confirm:approved:${idA}`,
    ])
    // The other call heard only its own request.
    expect(other.heard.filter((h) => h.startsWith('confirm:'))).toEqual([
      `confirm:pending:${entryB.callId}`,
    ])
    await tm.confirmations.reject(entryB.id)
    expect((await second).status).toBe('cancelled')
    expect(other.heard.at(-1)).toBe(`confirm:rejected:${entryB.callId}`)
  })

  it('hears a question its run asks, between its approval asked and ended', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket',
      hints: { consequential: true },
      summary: () => 'Close the ticket',
      run: async (_input, ctx) => {
        const answer = await ctx.confirm({ summary: 'Also notify the requester?' })
        return ok(answer.approved)
      },
    })
    const { heard, observer } = recorder()
    const first = tm.call('tickets.close', {}, { caller: 'webmcp', observe: observer })
    await tick()
    // The approval's run asks before it ends: the approval settles once the question is answered.
    const approving = tm.confirmations.approve(tm.confirmations.list()[0].id)
    await tick()
    const [question] = tm.confirmations.list()
    expect(question.callId).toBe(heard[0].slice('started:'.length))
    await tm.confirmations.approve(question.id)
    await approving
    expect(await first).toEqual({ status: 'ok', data: true })
    expect(heard.filter((h) => h.startsWith('confirm:')).map((h) => h.split(':')[1])).toEqual([
      'pending',
      'pending',
      'approved',
      'approved',
    ])
  })

  it('hears a call a person’s grant let through as approved by that grant', async () => {
    const tm = createToolmark({ confirm: { grants: grants() } })
    tm.confirmations.attachPresenter()
    registerClose(tm)
    const first = tm.call('tickets.close', {}, { caller: 'webmcp' })
    await tick()
    await tm.confirmations.approve(tm.confirmations.list()[0].id, { grant: { for: 'session' } })
    expect((await first).status).toBe('ok')
    const heard: ConfirmEvent[] = []
    const second = await tm.call(
      'tickets.close',
      {},
      {
        caller: 'webmcp',
        observe: { confirm: (event) => heard.push(event) },
      },
    )
    expect(second).toEqual({ status: 'ok', data: 'closed' })
    expect(heard).toHaveLength(1)
    expect(heard[0]).toMatchObject({ status: 'approved', by: 'grant' })
  })

  it('reports an observer that throws and leaves the call as it was', async () => {
    const tm = createToolmark()
    tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    const boom = () => {
      throw new Error('observer broke')
    }
    const result = await tm.call('ping', {}, { observe: { started: boom, moved: boom } })
    expect(result).toEqual({ status: 'ok', data: 'pong' })
    expect(errors.map((e) => e.code)).toEqual([
      'listener_threw',
      'listener_threw',
      'listener_threw',
    ])
    expect(errors[0]).toMatchObject({ tool: 'ping', message: 'A call observer threw' })
  })

  it('ignores an observe option that is not an object, and reads it once', async () => {
    const tm = createToolmark()
    tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })
    for (const observe of [1, 'x', null, () => {}, [() => {}]]) {
      expect(await tm.call('ping', {}, { observe } as never)).toEqual({
        status: 'ok',
        data: 'pong',
      })
    }
    const read = vi.fn(() => ({}))
    const options = Object.defineProperty({}, 'observe', { get: read })
    await tm.call('ping', {}, options)
    expect(read).toHaveBeenCalledTimes(1)
  })

  it('lets a tour step act for its starter through actingFor, which is read for tour only', async () => {
    const tm = createToolmark({ policy: { mcp: { tools: { deny: ['ping'] } } } })
    const run = vi.fn(() => ok('pong'))
    tm.register({ name: 'ping', description: 'Pings', run })
    expect(await tm.call('ping', {}, { caller: 'tour', actingFor: 'mcp' })).toMatchObject({
      code: 'not_allowed',
    })
    expect(await tm.call('ping', {}, { caller: 'tour', actingFor: 'inapp' })).toEqual({
      status: 'ok',
      data: 'pong',
    })
    // Another caller's actingFor changes nothing.
    expect(await tm.call('ping', {}, { caller: 'inapp', actingFor: 'mcp' })).toEqual({
      status: 'ok',
      data: 'pong',
    })
    // An unknown starter acts for inapp, never wider.
    expect(await tm.call('ping', {}, { caller: 'tour', actingFor: 'robot' as never })).toEqual({
      status: 'ok',
      data: 'pong',
    })
  })
})
