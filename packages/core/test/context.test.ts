import { z } from 'zod'
import { createToolmark, ok, type Caller, type ToolContext } from '../src/index'

describe('ctx', () => {
  it('carries the call’s id, the caller and a live AbortSignal', async () => {
    const tm = createToolmark()
    const seen: ToolContext[] = []
    tm.register({ name: 'a', description: 'A', run: (_i, ctx) => (seen.push(ctx), ok(null)) })
    let callId = ''
    tm.events.on('call', (e) => (callId = e.callId))
    await tm.call('a', {}, { caller: 'webmcp' })
    expect(seen[0].callId).toBe(callId)
    expect(seen[0].caller).toBe('webmcp')
    expect(seen[0].signal).toBeInstanceOf(AbortSignal)
    expect(seen[0].signal.aborted).toBe(false)
  })

  it('tells the run which caller it serves, for each caller', async () => {
    const tm = createToolmark()
    const callers: Caller[] = []
    tm.register({
      name: 'a',
      description: 'A',
      run: (_i, ctx) => (callers.push(ctx.caller), ok(null)),
    })
    for (const caller of ['inapp', 'webmcp', 'mcp', 'test', 'human'] as const) {
      await tm.call('a', {}, { caller })
    }
    expect(callers).toEqual(['inapp', 'webmcp', 'mcp', 'test', 'human'])
  })

  it('defaults the caller to inapp', async () => {
    const tm = createToolmark()
    let caller: Caller | undefined
    tm.register({
      name: 'a',
      description: 'A',
      run: (_i, ctx) => ((caller = ctx.caller), ok(null)),
    })
    await tm.call('a')
    expect(caller).toBe('inapp')
  })

  it('gives the run a signal separate from the caller’s, aborted when the caller’s aborts', async () => {
    const tm = createToolmark()
    const controller = new AbortController()
    let signal!: AbortSignal
    tm.register({
      name: 'a',
      description: 'A',
      run: (_i, ctx) =>
        new Promise((_, reject) => {
          signal = ctx.signal
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))
        }),
    })
    const pending = tm.call('a', {}, { signal: controller.signal })
    await new Promise((r) => setTimeout(r, 0))
    expect(signal).not.toBe(controller.signal)
    controller.abort()
    await pending
    expect(signal.aborted).toBe(true)
  })

  it('stops listening to the caller’s signal once the call is over', async () => {
    const tm = createToolmark()
    const controller = new AbortController()
    const add = vi.spyOn(controller.signal, 'addEventListener')
    const remove = vi.spyOn(controller.signal, 'removeEventListener')
    tm.register({ name: 'a', description: 'A', run: () => ok(null) })
    await tm.call('a', {}, { signal: controller.signal })
    expect(add).toHaveBeenCalledTimes(1)
    expect(remove).toHaveBeenCalledWith('abort', add.mock.calls[0][1])
  })

  it('calls run with this registry’s ctx even when run is a method reading this', async () => {
    const tm = createToolmark()
    const tool = {
      name: 'm',
      description: 'A method',
      prefix: 'hi',
      run(this: { prefix: string }) {
        return ok(this.prefix)
      },
    }
    tm.register(tool)
    expect(await tm.call('m')).toEqual({ status: 'ok', data: 'hi' })
  })

  it('lets a run destructure ctx', async () => {
    const tm = createToolmark()
    const progress: unknown[] = []
    tm.events.on('progress', (e) => progress.push(e.done))
    tm.register({
      name: 'a',
      description: 'A',
      run: (_input, { signal, callId, caller, progress: report, registerUndo }) => {
        report({ done: 1 })
        registerUndo(() => ok(null))
        return ok([signal.aborted, typeof callId, caller])
      },
    })
    expect(await tm.call('a', {})).toEqual({ status: 'ok', data: [false, 'string', 'inapp'] })
    expect(progress).toEqual([1])
  })

  it('hands a run that reads ctx.signal only after the abort an already-aborted signal', async () => {
    const tm = createToolmark()
    let read!: () => AbortSignal
    let finish!: () => void
    tm.register({
      name: 'a',
      description: 'A',
      run: (_i, ctx) =>
        new Promise((resolve) => {
          read = () => ctx.signal
          finish = () => resolve(ok(null))
        }),
    })
    const controller = new AbortController()
    const pending = tm.call('a', {}, { signal: controller.signal })
    await new Promise((r) => setTimeout(r, 0))
    controller.abort()
    const signal = read()
    expect(signal.aborted).toBe(true)
    expect((signal.reason as Error).name).toBe('AbortError')
    finish()
    expect(await pending).toEqual({ status: 'ok', data: null })
  })

  it('never starts run inside the tm.call() frame, even with a synchronous schema', async () => {
    const tm = createToolmark()
    const run = vi.fn(() => ok(1))
    tm.register({ name: 'a', description: 'A', input: z.object({}), run })
    const pending = tm.call('a', {})
    expect(run).not.toHaveBeenCalled()
    expect(await pending).toEqual({ status: 'ok', data: 1 })
    expect(run).toHaveBeenCalledTimes(1)
  })

  it('mints distinct call ids across many calls', async () => {
    const tm = createToolmark()
    const ids = new Set<string>()
    tm.register({ name: 'a', description: 'A', run: (_i, ctx) => (ids.add(ctx.callId), ok(null)) })
    await Promise.all(Array.from({ length: 1000 }, () => tm.call('a', {})))
    expect(ids.size).toBe(1000)
    for (const id of ids) expect(id).toMatch(/^call_[0-9a-f]{32}$/)
  })
})
