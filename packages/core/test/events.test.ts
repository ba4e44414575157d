import { z } from 'zod'
import {
  createToolmark,
  ok,
  type CallEvent,
  type ErrorEvent,
  type ProgressEvent,
  type ResultEvent,
  type ToolmarkEventType,
} from '../src/index'

describe('events', () => {
  it('delivers each event type to its own listeners only', async () => {
    const tm = createToolmark()
    const seen: string[] = []
    for (const type of [
      'call',
      'result',
      'progress',
      'confirm',
      'undo',
      'change',
      'error',
    ] as ToolmarkEventType[]) {
      tm.events.on(type, () => seen.push(type))
    }
    tm.register({
      name: 'a',
      description: 'A',
      run: (_i, ctx) => {
        ctx.progress({ done: 1 })
        ctx.registerUndo(() => ok(null))
        return ok(ctx.callId)
      },
    })
    const result = (await tm.call('a')) as { data: string }
    await tm.undo(result.data)
    expect(seen).toEqual(['call', 'change', 'progress', 'result', 'undo'])
  })

  it('stops delivering after unsubscribe; the same function can listen twice', async () => {
    const tm = createToolmark()
    tm.register({ name: 'a', description: 'A', run: () => ok(1) })
    const listener = vi.fn()
    const off1 = tm.events.on('result', listener)
    const off2 = tm.events.on('result', listener)
    await tm.call('a')
    expect(listener).toHaveBeenCalledTimes(2)
    off1()
    await tm.call('a')
    expect(listener).toHaveBeenCalledTimes(3)
    off2()
    off2()
    await tm.call('a')
    expect(listener).toHaveBeenCalledTimes(3)
  })

  it('isolates a throwing listener: the call succeeds, others still hear, listener_threw is emitted', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.events.on('call', () => {
      throw new Error('listener bug')
    })
    tm.events.on('result', () => {
      throw new Error('listener bug')
    })
    const after = vi.fn()
    tm.events.on('call', after)
    tm.register({ name: 'a', description: 'A', run: () => ok(1) })
    expect(await tm.call('a')).toEqual({ status: 'ok', data: 1 })
    expect(after).toHaveBeenCalledTimes(1)
    expect(errors.map((e) => e.code)).toEqual(['listener_threw', 'listener_threw'])
    expect(errors[0].message).toContain('"call"')
  })

  it('drops a throwing error listener silently rather than looping', async () => {
    const tm = createToolmark()
    tm.events.on('error', () => {
      throw new Error('error listener bug')
    })
    tm.register({
      name: 'a',
      description: 'A',
      run: () => {
        throw new Error('tool bug')
      },
    })
    expect(await tm.call('a')).toEqual({ status: 'error', message: 'Tool failed' })
  })

  it('redacts inputs in call events and never touches the caller’s object', async () => {
    const tm = createToolmark()
    const calls: CallEvent[] = []
    tm.events.on('call', (e) => calls.push(e))
    tm.register({
      name: 'signup',
      description: 'Signs up',
      input: z.object({
        email: z.string(),
        password: z.string(),
        profile: z.object({ ssn: z.string() }),
      }),
      sensitive: ['password', 'profile.ssn'],
      run: () => ok(null),
    })
    const input = { email: 'a@x.io', password: 'hunter2', profile: { ssn: '123-45-6789' } }
    await tm.call('signup', input)
    expect(calls[0].input).toEqual({
      email: 'a@x.io',
      password: '[redacted]',
      profile: { ssn: '[redacted]' },
    })
    expect(input.password).toBe('hunter2')
  })

  it('emits result events with the frozen result and a durationMs for every outcome', async () => {
    const tm = createToolmark()
    const results: ResultEvent[] = []
    tm.events.on('result', (e) => results.push(e))
    tm.register({
      name: 'slow',
      description: 'Slow',
      run: () => new Promise((r) => setTimeout(() => r(ok(1)), 20)),
    })
    await tm.call('slow')
    await tm.call('missing')
    expect(results).toHaveLength(2)
    expect(results[0].durationMs).toBeGreaterThanOrEqual(15)
    for (const e of results) expect(Object.isFrozen(e.result)).toBe(true)
  })

  it('emits progress events while the run is under way, with the caller that asked', async () => {
    const tm = createToolmark()
    const progress: ProgressEvent[] = []
    tm.events.on('progress', (e) => progress.push(e))
    let late!: () => void
    tm.register({
      name: 'import',
      description: 'Imports',
      run: (_i, ctx) => {
        ctx.progress({ done: 1, total: 3, message: 'first' })
        ctx.progress({ done: 2 })
        ctx.progress({ done: Number.NaN })
        ctx.progress('junk' as never)
        late = () => ctx.progress({ done: 3, total: 3 })
        return ok(null)
      },
    })
    let callId = ''
    tm.events.on('call', (e) => (callId = e.callId))
    await tm.call('import', {}, { caller: 'mcp' })
    late()
    expect(progress).toEqual([
      { callId, tool: 'import', caller: 'mcp', done: 1, total: 3, message: 'first' },
      { callId, tool: 'import', caller: 'mcp', done: 2 },
    ])
  })

  it('emits change events with the rev, once per tick', async () => {
    const tm = createToolmark()
    const changes: unknown[] = []
    tm.events.on('change', (e) => changes.push(e))
    tm.register({ name: 'a', description: 'A', run: () => ok(1) })
    tm.register({ name: 'b', description: 'B', run: () => ok(1) })
    await Promise.resolve()
    tm.scope('s', { when: false })
    await Promise.resolve()
    expect(changes).toEqual([{ rev: 1 }, { rev: 2 }])
  })

  it('emits error events with code, message, tool and callId (cause only there)', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const cause = new Error('secret detail')
    tm.register({
      name: 'boom',
      description: 'Throws',
      run: () => {
        throw cause
      },
    })
    const results: ResultEvent[] = []
    tm.events.on('result', (e) => results.push(e))
    await tm.call('boom')
    expect(errors).toEqual([
      {
        code: 'tool_threw',
        message: 'Tool "boom" threw',
        tool: 'boom',
        callId: results[0].callId,
        cause,
      },
    ])
    expect(JSON.stringify(results)).not.toContain('secret detail')
  })
})
