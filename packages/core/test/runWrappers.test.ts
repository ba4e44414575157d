import { callSeamOf, toolDescription, wrapRuns, type RunInfo } from '../src/call/runWrappers'
import { createToolmark, ok, type Toolmark } from '../src/index'
import { createTestToolmark } from '../src/testing'

const seamOf = (tm: Toolmark) => {
  const seam = callSeamOf(tm)
  if (!seam) throw new Error('a registry made by createToolmark has a seam')
  return seam
}

describe('the run seam', () => {
  it('wraps each run, the first wrapper outermost, and runs the tool once', async () => {
    const tm = createToolmark()
    const order: string[] = []
    const infos: RunInfo[] = []
    wrapRuns(seamOf(tm), (info, execute) => {
      infos.push(info)
      order.push('outer in')
      const out = execute()
      order.push('outer out')
      return out
    })
    wrapRuns(seamOf(tm), (_info, execute) => {
      order.push('inner in')
      const out = execute()
      order.push('inner out')
      return out
    })
    tm.register({
      name: 'count',
      description: 'Counts',
      run: () => {
        order.push('run')
        return ok(1)
      },
    })

    expect(await tm.call('count', {}, { caller: 'mcp' })).toEqual({ status: 'ok', data: 1 })
    expect(order).toEqual(['outer in', 'inner in', 'run', 'inner out', 'outer out'])
    expect(infos).toEqual([
      { callId: expect.stringMatching(/^call_/), tool: 'count', caller: 'mcp' },
    ])
  })

  it('lets the wrapper watch the outcome of an async run, and keeps the result its own', async () => {
    const tm = createToolmark()
    const seen: unknown[] = []
    wrapRuns(seamOf(tm), (_info, execute) => {
      const out = execute()
      void Promise.resolve(out).then((result) => seen.push(result))
      return out
    })
    tm.register({
      name: 'slow',
      description: 'Waits',
      run: async () => {
        await new Promise((r) => setTimeout(r, 1))
        return ok('done')
      },
    })

    expect(await tm.call('slow')).toEqual({ status: 'ok', data: 'done' })
    expect(seen).toEqual([{ status: 'ok', data: 'done' }])
  })

  it('stops wrapping once removed, and a second removal changes nothing', async () => {
    const tm = createToolmark()
    let wrapped = 0
    const remove = wrapRuns(seamOf(tm), (_info, execute) => {
      wrapped++
      return execute()
    })
    tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })
    const other = wrapRuns(seamOf(tm), (_info, execute) => execute())
    await tm.call('ping')
    remove()
    remove() // a second removal takes no other wrapper with it
    await tm.call('ping')
    expect(wrapped).toBe(1)
    other()
  })

  it('tells the run of an approved deferred call as human', async () => {
    const tm = createTestToolmark()
    const callers: string[] = []
    wrapRuns(seamOf(tm), (info, execute) => {
      callers.push(info.caller)
      return execute()
    })
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      summary: () => 'Close it',
      run: () => ok('closed'),
    })
    const asked = await tm.call('close', {}, { caller: 'inapp' })
    expect(callers).toEqual([])
    await tm.confirmations.approve(asked.status === 'needs_confirmation' ? asked.confirmId : '')
    expect(callers).toEqual(['human'])
  })

  it('is no part of the public shape: not enumerable, absent on other objects', () => {
    const tm = createToolmark()
    expect(Object.keys(tm).some((key) => key.includes('Seam'))).toBe(false)
    // The seam is part of the registry's body, held in a private field: no key, no symbol.
    expect(Object.getOwnPropertySymbols(tm)).toEqual([])
    expect(callSeamOf(tm)).toBeDefined()
    expect(callSeamOf({ ...tm })).toBeUndefined()
    expect(toolDescription(seamOf(tm), 'nothing')).toBeUndefined()
    tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })
    expect(toolDescription(seamOf(tm), 'ping')).toBe('Pings')
  })
})
