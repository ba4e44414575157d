import { createToolmark, ok } from '../src/index'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('rate limits', () => {
  it('refuses calls past policy[caller].rateLimit with rate_limited', async () => {
    const tm = createToolmark({ policy: { webmcp: { rateLimit: { calls: 3, perMs: 60_000 } } } })
    const run = vi.fn(() => ok(1))
    tm.register({ name: 'read', description: 'Reads', hints: { readOnly: true }, run })
    const statuses = []
    for (let i = 0; i < 5; i++)
      statuses.push((await tm.call('read', {}, { caller: 'webmcp' })).status)
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'refused', 'refused'])
    expect(await tm.call('read', {}, { caller: 'webmcp' })).toMatchObject({
      status: 'refused',
      code: 'rate_limited',
    })
    expect(run).toHaveBeenCalledTimes(3)
  })

  it('allows calls again once the window slides past the earlier ones', async () => {
    const tm = createToolmark({ policy: { mcp: { rateLimit: { calls: 2, perMs: 1_000 } } } })
    tm.register({ name: 'read', description: 'Reads', hints: { readOnly: true }, run: () => ok(1) })
    await tm.call('read', {}, { caller: 'mcp' })
    vi.advanceTimersByTime(500)
    await tm.call('read', {}, { caller: 'mcp' })
    expect((await tm.call('read', {}, { caller: 'mcp' })).status).toBe('refused')
    vi.advanceTimersByTime(500)
    expect((await tm.call('read', {}, { caller: 'mcp' })).status).toBe('ok')
    expect((await tm.call('read', {}, { caller: 'mcp' })).status).toBe('refused')
  })

  it('counts per caller: one caller’s limit does not touch another', async () => {
    const tm = createToolmark({ policy: { mcp: { rateLimit: { calls: 1, perMs: 60_000 } } } })
    tm.register({ name: 'read', description: 'Reads', hints: { readOnly: true }, run: () => ok(1) })
    await tm.call('read', {}, { caller: 'mcp' })
    expect((await tm.call('read', {}, { caller: 'mcp' })).status).toBe('refused')
    for (let i = 0; i < 10; i++)
      expect((await tm.call('read', {}, { caller: 'inapp' })).status).toBe('ok')
  })

  it('does not count calls refused before the limit (unknown tool, policy)', async () => {
    const tm = createToolmark({
      policy: { mcp: { rateLimit: { calls: 1, perMs: 60_000 }, tools: { deny: ['secret'] } } },
    })
    tm.register({ name: 'read', description: 'Reads', hints: { readOnly: true }, run: () => ok(1) })
    tm.register({
      name: 'secret',
      description: 'Secret',
      hints: { readOnly: true },
      run: () => ok(1),
    })
    await tm.call('missing', {}, { caller: 'mcp' })
    await tm.call('secret', {}, { caller: 'mcp' })
    expect((await tm.call('read', {}, { caller: 'mcp' })).status).toBe('ok')
  })

  it('counts calls that fail validation (the agent did call)', async () => {
    const tm = createToolmark({ policy: { mcp: { rateLimit: { calls: 1, perMs: 60_000 } } } })
    tm.register({ name: 'read', description: 'Reads', hints: { readOnly: true }, run: () => ok(1) })
    expect((await tm.call('read', { unexpected: 1 }, { caller: 'mcp' })).status).toBe('invalid')
    expect(await tm.call('read', {}, { caller: 'mcp' })).toMatchObject({ code: 'rate_limited' })
  })

  it('starts fresh after setPolicy', async () => {
    const tm = createToolmark({ policy: { mcp: { rateLimit: { calls: 1, perMs: 60_000 } } } })
    tm.register({ name: 'read', description: 'Reads', hints: { readOnly: true }, run: () => ok(1) })
    await tm.call('read', {}, { caller: 'mcp' })
    expect((await tm.call('read', {}, { caller: 'mcp' })).status).toBe('refused')
    tm.setPolicy({ mcp: { rateLimit: { calls: 2, perMs: 60_000 } } })
    expect((await tm.call('read', {}, { caller: 'mcp' })).status).toBe('ok')
  })

  it('starts limiting when setPolicy gives the first limit, and stops when it takes the last away', async () => {
    const tm = createToolmark()
    tm.register({ name: 'read', description: 'Reads', hints: { readOnly: true }, run: () => ok(1) })
    for (let i = 0; i < 3; i++) {
      expect((await tm.call('read', {}, { caller: 'mcp' })).status).toBe('ok')
    }
    tm.setPolicy({ mcp: { rateLimit: { calls: 1, perMs: 60_000 } } })
    expect((await tm.call('read', {}, { caller: 'mcp' })).status).toBe('ok')
    expect(await tm.call('read', {}, { caller: 'mcp' })).toMatchObject({ code: 'rate_limited' })
    tm.setPolicy({})
    for (let i = 0; i < 3; i++) {
      expect((await tm.call('read', {}, { caller: 'mcp' })).status).toBe('ok')
    }
  })

  it('applies nothing to human', async () => {
    const tm = createToolmark({ policy: { inapp: { rateLimit: { calls: 1, perMs: 60_000 } } } })
    tm.register({ name: 'read', description: 'Reads', run: () => ok(1) })
    for (let i = 0; i < 5; i++)
      expect((await tm.call('read', {}, { caller: 'human' })).status).toBe('ok')
  })
})
