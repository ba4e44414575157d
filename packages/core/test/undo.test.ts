import {
  createToolmark,
  errorResult,
  ok,
  type ErrorEvent,
  type Toolmark,
  type UndoEvent,
} from '../src/index'

/** A tool that sets a value and registers the inverse. */
const registerSetter = (tm: Toolmark, state: { value: number }, name = 'set') => {
  const callIds: string[] = []
  tm.register({
    name,
    description: 'Sets the value',
    input: {
      '~standard': {
        version: 1,
        vendor: 't',
        validate: (v: unknown) => ({ value: v as { to: number } }),
      },
    },
    inputSchema: {},
    run: (input, ctx) => {
      const before = state.value
      state.value = input.to
      callIds.push(ctx.callId)
      ctx.registerUndo(() => {
        state.value = before
        return ok({ restored: before })
      })
      return ok(state.value)
    },
  })
  return callIds
}

describe('undo', () => {
  it('runs the registered inverse once and returns its result', async () => {
    const tm = createToolmark()
    const state = { value: 1 }
    const callIds = registerSetter(tm, state)
    await tm.call('set', { to: 5 })
    expect(state.value).toBe(5)
    expect(tm.canUndo(callIds[0])).toBe(true)
    const result = await tm.undo(callIds[0])
    expect(result).toEqual({ status: 'ok', data: { restored: 1 } })
    expect(Object.isFrozen(result)).toBe(true)
    expect(state.value).toBe(1)
    expect(tm.canUndo(callIds[0])).toBe(false)
  })

  it('refuses a second undo of the same call with undo_unavailable', async () => {
    const tm = createToolmark()
    const state = { value: 1 }
    const callIds = registerSetter(tm, state)
    await tm.call('set', { to: 5 })
    await tm.undo(callIds[0])
    state.value = 9
    expect(await tm.undo(callIds[0])).toEqual({
      status: 'refused',
      code: 'undo_unavailable',
      message: expect.any(String),
    })
    expect(state.value).toBe(9)
  })

  it('runs the inverse once even for two concurrent undos', async () => {
    const tm = createToolmark()
    const restore = vi.fn(async () => ok(null))
    let callId = ''
    tm.register({
      name: 'w',
      description: 'W',
      run: (_i, ctx) => {
        callId = ctx.callId
        ctx.registerUndo(restore)
        return ok(null)
      },
    })
    await tm.call('w')
    const [a, b] = await Promise.all([tm.undo(callId), tm.undo(callId)])
    expect([a.status, b.status].sort()).toEqual(['ok', 'refused'])
    expect(restore).toHaveBeenCalledTimes(1)
  })

  it('refuses undo_unavailable for a call that registered nothing, an unknown id or a non-string', async () => {
    const tm = createToolmark()
    let callId = ''
    tm.register({
      name: 'plain',
      description: 'Plain',
      run: (_i, ctx) => ((callId = ctx.callId), ok(1)),
    })
    await tm.call('plain')
    for (const id of [callId, 'call_nope', 42, undefined]) {
      expect(await tm.undo(id as never)).toMatchObject({
        status: 'refused',
        code: 'undo_unavailable',
      })
      expect(tm.canUndo(id as never)).toBe(false)
    }
  })

  it('resolves undo_unavailable for an id whose toString throws, a symbol or a proxy', async () => {
    const tm = createToolmark()
    const hostile = [
      {
        toString() {
          throw new Error('boom')
        },
      },
      Symbol('id'),
      new Proxy(
        {},
        {
          get() {
            throw new Error('trap')
          },
        },
      ),
    ]
    for (const id of hostile) {
      await expect(tm.undo(id as never)).resolves.toMatchObject({
        status: 'refused',
        code: 'undo_unavailable',
      })
      expect(tm.canUndo(id as never)).toBe(false)
    }
  })

  it('keeps the last 100 entries: the oldest is evicted', async () => {
    const tm = createToolmark()
    const state = { value: 0 }
    const callIds = registerSetter(tm, state)
    for (let i = 1; i <= 101; i++) await tm.call('set', { to: i })
    expect(tm.canUndo(callIds[0])).toBe(false)
    expect(await tm.undo(callIds[0])).toMatchObject({ code: 'undo_unavailable' })
    expect(tm.canUndo(callIds[1])).toBe(true)
    expect(tm.canUndo(callIds[100])).toBe(true)
  })

  it('honours limits.undoJournal', async () => {
    const tm = createToolmark({ limits: { undoJournal: 2 } })
    const callIds = registerSetter(tm, { value: 0 })
    for (let i = 0; i < 3; i++) await tm.call('set', { to: i })
    expect(callIds.map((id) => tm.canUndo(id))).toEqual([false, true, true])
  })

  it('drops a tool’s entries when the tool goes away', async () => {
    const tm = createToolmark()
    const state = { value: 1 }
    registerSetter(tm, state, 'keep')
    const handle = tm.register({
      name: 'gone',
      description: 'Goes away',
      run: (_i, ctx) => {
        ctx.registerUndo(() => ok('should not run'))
        return ok(ctx.callId)
      },
    })
    const gone = (await tm.call('gone')) as { data: string }
    await tm.call('keep', { to: 2 })
    handle.dispose()
    expect(tm.canUndo(gone.data)).toBe(false)
    expect(await tm.undo(gone.data)).toMatchObject({ code: 'undo_unavailable' })
  })

  it('keeps only the last registerUndo of one call', async () => {
    const tm = createToolmark()
    let callId = ''
    tm.register({
      name: 'twice',
      description: 'Registers twice',
      run: (_i, ctx) => {
        callId = ctx.callId
        ctx.registerUndo(() => ok('first'))
        ctx.registerUndo(() => ok('second'))
        return ok(null)
      },
    })
    await tm.call('twice')
    expect(await tm.undo(callId)).toEqual({ status: 'ok', data: 'second' })
  })

  it('emits an undo event with the call, the tool and the result', async () => {
    const tm = createToolmark()
    const events: UndoEvent[] = []
    tm.events.on('undo', (e) => events.push(e))
    const callIds = registerSetter(tm, { value: 1 })
    await tm.call('set', { to: 2 })
    await tm.undo(callIds[0])
    expect(events).toEqual([
      { callId: callIds[0], tool: 'set', result: { status: 'ok', data: { restored: 1 } } },
    ])
  })

  it('turns a throwing inverse into error "Tool failed" plus tool_threw, and it is still used up', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    let callId = ''
    tm.register({
      name: 'w',
      description: 'W',
      run: (_i, ctx) => {
        callId = ctx.callId
        ctx.registerUndo(() => {
          throw new Error('cannot restore')
        })
        return ok(null)
      },
    })
    await tm.call('w')
    expect(await tm.undo(callId)).toEqual({ status: 'error', message: 'Tool failed' })
    expect(errors.map((e) => e.code)).toEqual(['tool_threw'])
    expect(await tm.undo(callId)).toMatchObject({ code: 'undo_unavailable' })
  })

  it('normalizes what the inverse returns: its own error passes, a non-result becomes Tool failed', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const ids: string[] = []
    const inverses = [() => errorResult('Server said no'), () => 'restored' as never]
    tm.register({
      name: 'w',
      description: 'W',
      run: (_i, ctx) => {
        ctx.registerUndo(inverses[ids.length])
        ids.push(ctx.callId)
        return ok(null)
      },
    })
    await tm.call('w')
    await tm.call('w')
    expect(await tm.undo(ids[0])).toEqual({ status: 'error', message: 'Server said no' })
    expect(await tm.undo(ids[1])).toEqual({ status: 'error', message: 'Tool failed' })
    expect(errors.map((e) => e.code)).toEqual(['invalid_result'])
  })

  it('registers undo for a call approved from a deferred confirmation under the original callId', async () => {
    const tm = createToolmark()
    const state = { value: 1 }
    tm.register({
      name: 'reset',
      description: 'Resets',
      hints: { consequential: true },
      run: (_i, ctx) => {
        const before = state.value
        state.value = 0
        ctx.registerUndo(() => ((state.value = before), ok(null)))
        return ok(null)
      },
    })
    let callId = ''
    tm.events.on('call', (e) => (callId = e.callId))
    const pending = (await tm.call('reset')) as { confirmId: string }
    await tm.confirmations.approve(pending.confirmId)
    expect(state.value).toBe(0)
    expect((await tm.undo(callId)).status).toBe('ok')
    expect(state.value).toBe(1)
  })

  it('throws in development when registerUndo gets no function; reports invalid_undo in production', async () => {
    const dev = createToolmark({ dev: true })
    const devErrors: ErrorEvent[] = []
    dev.events.on('error', (e) => devErrors.push(e))
    dev.register({
      name: 'w',
      description: 'W',
      run: (_i, ctx) => (ctx.registerUndo('nope' as never), ok(1)),
    })
    // The throw happens inside run, so the call ends "Tool failed" with the error as its cause.
    expect(await dev.call('w')).toEqual({ status: 'error', message: 'Tool failed' })
    expect(String((devErrors[0].cause as Error).message)).toMatch(
      /registerUndo\(\) in "w" takes a function/,
    )

    const prod = createToolmark({ dev: false })
    const errors: ErrorEvent[] = []
    prod.events.on('error', (e) => errors.push(e))
    prod.register({
      name: 'w',
      description: 'W',
      run: (_i, ctx) => (ctx.registerUndo('nope' as never), ok(1)),
    })
    expect(await prod.call('w')).toEqual({ status: 'ok', data: 1 })
    expect(errors.map((e) => e.code)).toEqual(['invalid_undo'])
  })
})
