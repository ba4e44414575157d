import { Call, type Waited } from '../src/call/call'
import { deepFreeze, ok, cancelled } from '../src/base/results'
import { createScopeQueue } from '../src/tool/scopeQueue'
import { createEmitter } from '../src/events/emitter'
import { DEFAULT_LIMITS } from '../src/registry/options'
import type { RegistryInternals, ToolRecord } from '../src/tool/toolRecord'
import type { ToolResult } from '../src/types'

/** A `Call` on its own: the parts of a registry it reads, and one tool in its own scope. */
function makeCall(limits: Partial<typeof DEFAULT_LIMITS> = {}) {
  const events = createEmitter()
  const toolError = vi.fn()
  const internals = {
    limits: { ...DEFAULT_LIMITS, ...limits },
    events,
    toolError,
    normalize: (raw: unknown) => deepFreeze(raw as ToolResult),
  } as unknown as RegistryInternals
  const record = {
    name: 'notes.save',
    def: { name: 'save', description: 'Saves', run: () => ok(null) },
    scope: { path: 'notes', queue: createScopeQueue() },
  } as unknown as ToolRecord
  const call = new Call(internals, record, 'inapp', undefined, undefined)
  return { call, events, toolError, record }
}

const never = new Promise<never>(() => {})

describe('Call: the moves of one call', () => {
  it('moves checking → running → settled for a call that takes a free slot', () => {
    const { call } = makeCall()
    expect(call.phase).toBe('checking')
    expect(call.runIfFree()).toBe(true)
    expect(call.phase).toBe('running')
    call.settle(deepFreeze(ok(1)))
    expect(call.phase).toBe('settled')
  })

  it('throws naming the move when a step asks for one the table does not allow', () => {
    const { call } = makeCall()
    expect(() => call.wait(never, 'confirmation', () => {})).toThrow(
      'A call of "notes.save" cannot move from checking to confirming',
    )
    expect(call.phase).toBe('checking')
    call.runIfFree()
    expect(() => call.startRun()).toThrow('cannot move from running to running')
    expect(call.phase).toBe('running')
  })

  it('makes no move once settled: a step still under way when the call was stopped changes nothing', () => {
    const { call } = makeCall()
    call.settle(deepFreeze(cancelled('signal')))
    call.startRun()
    expect(call.enter()).toBe(true)
    expect(call.phase).toBe('settled')
  })

  it('emits one result event, whoever settles and however often', () => {
    const { call, events } = makeCall()
    const results = vi.fn()
    events.on('result', results)
    const first = call.settle(deepFreeze(ok('first')))
    const second = call.settle(deepFreeze(ok('second')))
    expect(first).toEqual({ status: 'ok', data: 'first' })
    expect(second).toEqual({ status: 'ok', data: 'second' })
    expect(results).toHaveBeenCalledTimes(1)
    expect(results.mock.calls[0][0]).toMatchObject({
      tool: 'notes.save',
      caller: 'inapp',
      result: { status: 'ok', data: 'first' },
    })
  })

  it('emits the result event of a call refused before it had a tool', () => {
    const { call, events } = makeCall()
    const results = vi.fn()
    events.on('result', results)
    const refused = Call.refuseEarly(
      call.internals,
      { status: 'refused', code: 'unknown_tool', message: 'No tool named "x"' },
      undefined,
      'x',
      'mcp',
      undefined,
    )
    expect(Object.isFrozen(refused)).toBe(true)
    expect(results).toHaveBeenCalledTimes(1)
    expect(results.mock.calls[0][0]).toMatchObject({ tool: 'x', caller: 'mcp', durationMs: 0 })
    expect(results.mock.calls[0][0].callId).toMatch(/^call_/)
  })
})

describe('Call: waiting on what the signal cannot stop', () => {
  it('ends a check wait at once, synchronously, when the call is aborted, and only once', async () => {
    const { call } = makeCall()
    let settleWork!: (v: string) => void
    const work = new Promise<string>((resolve) => (settleWork = resolve))
    const done = vi.fn<(w: Waited<string>) => void>()
    call.wait(work, 'check', done)
    expect(done).not.toHaveBeenCalled()
    call.abort('operator')
    expect(done).toHaveBeenCalledTimes(1)
    expect(done).toHaveBeenCalledWith({ stopped: 'operator' })
    settleWork('late')
    await work
    await Promise.resolve()
    expect(done).toHaveBeenCalledTimes(1)
  })

  it('tells a wait that starts on an aborted call at once', () => {
    const { call } = makeCall()
    call.abort('signal')
    const done = vi.fn()
    call.wait(never, 'validation', done)
    expect(done).toHaveBeenCalledWith({ stopped: 'signal' })
  })

  it('hands on what the work gave, or how it failed', async () => {
    const { call } = makeCall()
    const fulfilled = new Promise<Waited<number>>((resolve) =>
      call.wait(Promise.resolve(7), 'check', resolve),
    )
    const rejected = new Promise<Waited<number>>((resolve) =>
      call.wait(Promise.reject(new Error('boom')), 'check', resolve),
    )
    expect(await fulfilled).toEqual({ value: 7 })
    expect(await rejected).toEqual({ error: new Error('boom') })
  })

  it('gives an aborted run abortGraceMs, then abandons it and reports a late settle', async () => {
    vi.useFakeTimers()
    try {
      const { call, toolError } = makeCall({ abortGraceMs: 50 })
      call.runIfFree()
      let settleRun!: (v: unknown) => void
      const done = vi.fn()
      call.wait(new Promise((resolve) => (settleRun = resolve)), 'run', done)
      call.abort('policy')
      expect(done).not.toHaveBeenCalled()
      await vi.advanceTimersByTimeAsync(49)
      expect(done).not.toHaveBeenCalled()
      await vi.advanceTimersByTimeAsync(1)
      expect(done).toHaveBeenCalledWith({ stopped: 'policy' })
      expect(toolError).not.toHaveBeenCalled()
      settleRun(ok('too late'))
      await vi.advanceTimersByTimeAsync(0)
      expect(done).toHaveBeenCalledTimes(1)
      expect(toolError).toHaveBeenCalledWith('late_result', call, ok('too late'))
    } finally {
      vi.useRealTimers()
    }
  })

  it('keeps the run’s own result when it settles within its grace period', async () => {
    vi.useFakeTimers()
    try {
      const { call, toolError } = makeCall({ abortGraceMs: 50 })
      call.runIfFree()
      let settleRun!: (v: unknown) => void
      const done = vi.fn()
      call.wait(new Promise((resolve) => (settleRun = resolve)), 'run', done)
      call.abort('signal')
      await vi.advanceTimersByTimeAsync(10)
      settleRun('saved')
      await vi.advanceTimersByTimeAsync(0)
      expect(done).toHaveBeenCalledWith({ value: 'saved' })
      await vi.advanceTimersByTimeAsync(100)
      expect(done).toHaveBeenCalledTimes(1)
      expect(toolError).not.toHaveBeenCalled()
      call.settle(deepFreeze(ok('saved')))
      expect(vi.getTimerCount()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('aborts with policy when the deadline of an async validation passes', async () => {
    vi.useFakeTimers()
    try {
      const { call, record } = makeCall()
      ;(record.def as { timeoutMs?: number }).timeoutMs = 100
      const done = vi.fn()
      call.wait(never, 'validation', done)
      await vi.advanceTimersByTimeAsync(99)
      expect(done).not.toHaveBeenCalled()
      await vi.advanceTimersByTimeAsync(1)
      expect(done).toHaveBeenCalledWith({ stopped: 'policy' })
      expect(call.abortedBy).toBe('policy')
    } finally {
      vi.useRealTimers()
    }
  })

  it('frees the slot and stops the deadline while a person decides inline', async () => {
    vi.useFakeTimers()
    try {
      const { call, record } = makeCall()
      ;(record.def as { timeoutMs?: number }).timeoutMs = 100
      const other = makeCall()
      // Both calls share one scope: the second waits for the first's slot.
      const shared = { ...other.record, scope: record.scope } as ToolRecord
      const second = new Call(other.call.internals, shared, 'inapp', undefined, undefined)
      expect(call.enter()).toBe(true)
      call.wait(Promise.resolve(), 'validation', () => {})
      const turn = second.enter()
      expect(turn).toBeInstanceOf(Promise)
      let answer!: () => void
      const done = vi.fn()
      call.wait(new Promise<void>((resolve) => (answer = resolve)), 'confirmation', done)
      expect(call.phase).toBe('confirming')
      expect(await turn).toBe(true)
      await vi.advanceTimersByTimeAsync(1_000)
      expect(call.abortedBy).toBeUndefined()
      answer()
      await vi.advanceTimersByTimeAsync(0)
      expect(done).toHaveBeenCalledWith({ value: undefined })
      await vi.advanceTimersByTimeAsync(100)
      expect(call.abortedBy).toBe('policy')
    } finally {
      vi.useRealTimers()
    }
  })
})
