import { createToolmark, errorResult, ok, type ToolResult } from '../../src/index'
import { createToolCallStore } from '../../src/observers/toolCallStore'

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

describe('createToolCallStore', () => {
  it('is idle until a call, running during it, then the result’s status', async () => {
    const tm = createToolmark()
    let finish!: (result: ToolResult) => void
    tm.register({
      name: 'slow',
      description: 'Slow',
      run: () => new Promise<ToolResult>((resolve) => (finish = resolve)),
    })
    const store = createToolCallStore(tm, 'slow')
    const listener = vi.fn()
    store.subscribe(listener)
    expect(store.getSnapshot()).toEqual({ status: 'idle', lastResult: undefined })

    const call = tm.call('slow', {}, { caller: 'webmcp' })
    await flush()
    expect(store.getSnapshot().status).toBe('running')
    finish(errorResult('Nope'))
    await call

    expect(store.getSnapshot()).toEqual({ status: 'error', lastResult: errorResult('Nope') })
    expect(listener).toHaveBeenCalledTimes(2)
  })

  it('shares one status between two stores of the same tool and ignores other tools', async () => {
    const tm = createToolmark()
    tm.register({ name: 'a', description: 'A', run: () => ok('a') })
    tm.register({ name: 'b', description: 'B', run: () => ok('b') })
    const one = createToolCallStore(tm, 'a')
    const two = createToolCallStore(tm, 'a')
    const listener = vi.fn()
    one.subscribe(() => {})
    two.subscribe(listener)

    await tm.call('b')
    expect(listener).not.toHaveBeenCalled()
    await tm.call('a')

    expect(one.getSnapshot()).toBe(two.getSnapshot())
    expect(two.getSnapshot().lastResult).toEqual(ok('a'))
  })

  it('keeps the status through an unsubscribe and a resubscribe in the same task, forgets it after', async () => {
    const tm = createToolmark()
    tm.register({ name: 'a', description: 'A', run: () => ok(1) })
    const store = createToolCallStore(tm, 'a')
    const off = store.subscribe(() => {})
    await tm.call('a')
    off()
    const again = store.subscribe(() => {})
    await flush()
    expect(store.getSnapshot().status).toBe('ok')

    again()
    await flush()
    expect(store.getSnapshot().status).toBe('idle')
  })

  it('stops listening to the registry when nothing is watched', async () => {
    const tm = createToolmark()
    const on = vi.spyOn(tm.events, 'on')
    const off = createToolCallStore(tm, 'a').subscribe(() => {})
    const offB = createToolCallStore(tm, 'b').subscribe(() => {})
    expect(on).toHaveBeenCalledTimes(2) // one `call` and one `result` listener for every tool
    off()
    offB()
    await flush()
    createToolCallStore(tm, 'a').subscribe(() => {})
    expect(on).toHaveBeenCalledTimes(4)
  })
})
