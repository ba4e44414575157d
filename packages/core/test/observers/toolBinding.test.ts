import { z } from 'zod'
import {
  createToolmark,
  grants,
  ok,
  type ErrorEvent,
  type ToolDefinition,
  type ToolResult,
  type Toolmark,
} from '../../src/index'
import { createToolBinding } from '../../src/observers'
import { webauthnVerifier } from '../../src/passkey'

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
}

/** Counts live registrations on a registry: registered minus disposed. */
function countRegistrations(tm: Toolmark) {
  const register = tm.register.bind(tm)
  const stats = { registered: 0, disposed: 0 }
  vi.spyOn(tm, 'register').mockImplementation((def, options) => {
    const handle = register(def, options)
    stats.registered++
    return {
      name: handle.name,
      dispose() {
        stats.disposed++
        handle.dispose()
      },
    }
  })
  return stats
}

const greet = (run = () => ok('hello')): ToolDefinition => ({
  name: 'greet',
  description: 'Says hello',
  run,
})

describe('createToolBinding', () => {
  it('registers nothing until the first subscriber and unregisters after the last', async () => {
    const tm = createToolmark()
    const binding = createToolBinding({ toolmark: tm, definition: greet() })
    await flush()
    expect(tm.manifest().tools).toEqual([])

    const off1 = binding.subscribe(() => {})
    const off2 = binding.subscribe(() => {})
    expect(tm.manifest().tools.map((t) => t.name)).toEqual(['greet'])
    off1()
    expect(tm.manifest().tools.map((t) => t.name)).toEqual(['greet'])
    off2()
    expect(tm.manifest().tools).toEqual([])
  })

  it('runs the latest definition without registering again for an equal one', async () => {
    const tm = createToolmark()
    const stats = countRegistrations(tm)
    const binding = createToolBinding({ toolmark: tm, definition: greet(() => ok('first')) })
    binding.subscribe(() => {})
    await flush()
    const rev = tm.rev

    binding.setOptions({
      toolmark: tm,
      definition: { ...greet(() => ok('second')), hints: { readOnly: false } },
    })
    await flush()

    expect(stats).toEqual({ registered: 1, disposed: 0 })
    expect(tm.rev).toBe(rev)
    expect(await tm.call('greet')).toEqual({ status: 'ok', data: 'second' })
  })

  it('registers again when what agents see changes: description, hints, sensitive paths, deadline', async () => {
    const tm = createToolmark()
    const stats = countRegistrations(tm)
    const base = greet()
    const binding = createToolBinding({ toolmark: tm, definition: base })
    binding.subscribe(() => {})

    const steps: Partial<ToolDefinition>[] = [
      { hints: { readOnly: true } },
      { hints: { readOnly: true } }, // an equal new object: no change
      { hints: { readOnly: true }, description: 'Greets warmly' },
      { hints: { readOnly: true }, description: 'Greets warmly', sensitive: ['name'] },
      { hints: { readOnly: true }, description: 'Greets warmly', sensitive: ['name'] },
      { hints: { readOnly: true }, description: 'Greets warmly', sensitive: () => ['name'] },
      { hints: { readOnly: true }, description: 'Greets warmly', sensitive: () => ['other'] },
      {
        hints: { readOnly: true },
        description: 'Greets warmly',
        sensitive: () => ['other'],
        timeoutMs: 50,
      },
    ]
    const registered: number[] = []
    for (const step of steps) {
      binding.setOptions({ toolmark: tm, definition: { ...base, ...step } })
      registered.push(stats.registered)
    }

    expect(registered).toEqual([2, 2, 3, 4, 4, 5, 5, 6])
    expect(stats.disposed).toBe(5)
    expect(tm.describe('greet')).toMatchObject({
      description: 'Greets warmly',
      hints: { readOnly: true },
    })
  })

  it('reads a sensitive function at every use, so a new function is no change', async () => {
    const tm = createToolmark()
    let paths = ['a']
    const def: ToolDefinition = {
      name: 'save',
      description: 'Saves',
      input: z.object({ a: z.string(), b: z.string() }),
      hints: { consequential: true },
      sensitive: () => paths,
      run: () => ok(null),
    }
    const binding = createToolBinding({ toolmark: tm, definition: def })
    binding.subscribe(() => {})
    paths = ['b']
    binding.setOptions({ toolmark: tm, definition: { ...def, sensitive: () => paths } })

    await tm.call('save', { a: 'x', b: 'y' }, { caller: 'inapp' })

    expect(tm.confirmations.list()[0].input).toEqual({ a: 'x', b: '[redacted]' })
  })

  it('keeps an equal inline schema registered and validates with the latest one', async () => {
    const tm = createToolmark()
    const stats = countRegistrations(tm)
    let max = 10
    const definition = (): ToolDefinition<{ n: number }> => ({
      name: 'set',
      description: 'Sets n',
      input: z.object({ n: z.number() }).refine((v) => v.n <= max, 'too big'),
      run: ({ n }) => ok(n),
    })
    const binding = createToolBinding({ toolmark: tm, definition: definition() })
    binding.subscribe(() => {})
    expect((await tm.call('set', { n: 5 })).status).toBe('ok')

    max = 3
    binding.setOptions({ toolmark: tm, definition: definition() })

    expect(stats.registered).toBe(1)
    expect(await tm.call('set', { n: 5 })).toMatchObject({ status: 'invalid' })
    binding.setOptions({
      toolmark: tm,
      definition: { ...definition(), input: z.object({ n: z.string() }) as never },
    })
    expect(stats.registered).toBe(2)
  })

  it('follows a rename: the old name goes, the new one comes, listeners hear it', async () => {
    const tm = createToolmark()
    const binding = createToolBinding({ toolmark: tm, definition: greet() })
    const listener = vi.fn()
    binding.subscribe(listener)
    const before = binding.getSnapshot()

    binding.setOptions({ toolmark: tm, definition: { ...greet(), name: 'hello' } })

    expect(listener).toHaveBeenCalledTimes(1)
    expect(binding.getSnapshot()).not.toBe(before)
    expect(binding.getSnapshot().name).toBe('hello')
    expect(tm.manifest().tools.map((t) => t.name)).toEqual(['hello'])
    expect(await binding.getSnapshot().call()).toEqual({ status: 'ok', data: 'hello' })
  })

  it('shows running while any call runs and the last result after, from every caller', async () => {
    const tm = createToolmark()
    const finishers: ((result: ToolResult) => void)[] = []
    const binding = createToolBinding({
      toolmark: tm,
      definition: {
        name: 'slow',
        description: 'Slow',
        run: () => new Promise<ToolResult>((resolve) => finishers.push(resolve)),
      },
    })
    const listener = vi.fn()
    binding.subscribe(listener)
    expect(binding.getSnapshot()).toMatchObject({ name: 'slow', status: 'idle' })

    const first = tm.call('slow', {}, { caller: 'inapp' })
    const second = binding.getSnapshot().call()
    await flush()
    expect(binding.getSnapshot().status).toBe('running')

    finishers[0](ok(1))
    await first
    expect(binding.getSnapshot()).toMatchObject({ status: 'running', lastResult: ok(1) })

    finishers[1](ok(2))
    await second
    expect(binding.getSnapshot()).toMatchObject({ status: 'ok', lastResult: ok(2) })
  })

  it('returns the same snapshot object until something in it changes', async () => {
    const tm = createToolmark()
    const binding = createToolBinding({ toolmark: tm, definition: greet() })
    binding.subscribe(() => {})
    const first = binding.getSnapshot()
    binding.setOptions({ toolmark: tm, definition: greet() })
    expect(binding.getSnapshot()).toBe(first)
    expect(Object.isFrozen(first)).toBe(true)

    await first.call()

    const after = binding.getSnapshot()
    expect(after).not.toBe(first)
    expect(after.call).toBe(first.call)
    expect(binding.getSnapshot()).toBe(after)
  })

  it('calls as human, so a consequential tool runs without a confirmation', async () => {
    const tm = createToolmark()
    const callers: string[] = []
    const binding = createToolBinding({
      toolmark: tm,
      definition: {
        name: 'close',
        description: 'Closes',
        hints: { consequential: true },
        run: (_input, ctx) => {
          callers.push(ctx.caller)
          return ok(true)
        },
      },
    })
    binding.subscribe(() => {})
    expect(await binding.getSnapshot().call()).toEqual({ status: 'ok', data: true })
    expect(callers).toEqual(['human'])
  })

  it('gives an idle server snapshot whatever the registry holds', async () => {
    const tm = createToolmark()
    const binding = createToolBinding({ toolmark: tm, definition: greet() })
    binding.subscribe(() => {})
    await binding.getSnapshot().call()
    expect(binding.getSnapshot().status).toBe('ok')
    expect(binding.getServerSnapshot()).toMatchObject({ status: 'idle', lastResult: undefined })
    expect(binding.getServerSnapshot()).toBe(binding.getServerSnapshot())
  })

  it('registers in the scope it is given, creating it only when registering', async () => {
    const tm = createToolmark()
    const acquire = vi.fn(() => tm.scope('tickets'))
    const binding = createToolBinding({
      toolmark: tm,
      definition: greet(),
      scope: { path: 'tickets', acquire },
    })
    expect(binding.getSnapshot().name).toBe('tickets.greet')
    expect(acquire).not.toHaveBeenCalled()

    binding.subscribe(() => {})

    expect(acquire).toHaveBeenCalledTimes(1)
    expect(tm.manifest().tools.map((t) => t.name)).toEqual(['tickets.greet'])
  })

  it('moves to another registry: unregistered from the first, registered on the second', async () => {
    const a = createToolmark()
    const b = createToolmark()
    const binding = createToolBinding({ toolmark: a, definition: greet() })
    binding.subscribe(() => {})
    binding.setOptions({ toolmark: b, definition: greet() })
    expect(a.manifest().tools).toEqual([])
    expect(b.manifest().tools.map((t) => t.name)).toEqual(['greet'])
    await b.call('greet')
    expect(binding.getSnapshot().status).toBe('ok')
  })

  it('keeps the status across an unsubscribe and an immediate subscribe (StrictMode)', async () => {
    const tm = createToolmark()
    const binding = createToolBinding({ toolmark: tm, definition: greet() })
    const off = binding.subscribe(() => {})
    await binding.getSnapshot().call()
    off()
    binding.subscribe(() => {})
    await flush()
    expect(binding.getSnapshot().status).toBe('ok')
    expect(tm.manifest().tools.map((t) => t.name)).toEqual(['greet'])
  })

  it('reports a throwing listener as listener_threw and still notifies the others', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const binding = createToolBinding({ toolmark: tm, definition: greet() })
    binding.subscribe(() => {
      throw new Error('bad render')
    })
    const other = vi.fn()
    binding.subscribe(other)

    expect(await binding.getSnapshot().call()).toEqual({ status: 'ok', data: 'hello' })

    expect(other).toHaveBeenCalled()
    expect(errors.map((e) => e.code)).toContain('listener_threw')
  })
})

describe('createToolBinding safety settings', () => {
  it('registers a declared grant: false and verify: true as they are, and again when they change', async () => {
    const tm = createToolmark({
      confirm: { grants: grants(), verifier: webauthnVerifier(async () => undefined) },
    })
    const close = (extra: Partial<ToolDefinition>): ToolDefinition => ({
      name: 'close',
      description: 'Closes a ticket',
      hints: { consequential: true },
      summary: () => 'Close',
      run: () => ok(null),
      ...extra,
    })
    const binding = createToolBinding({ toolmark: tm, definition: close({ grant: false }) })
    binding.subscribe(() => {})
    await flush()
    const first = await tm.call('close', {})
    const firstId = (first as { confirmId: string }).confirmId
    expect(tm.confirmations.get(firstId)?.grantable).toBeUndefined()
    expect(await tm.confirmations.approve(firstId, { grant: { for: 'session' } })).toMatchObject({
      code: 'grant_not_allowed',
    })

    binding.setOptions({ toolmark: tm, definition: close({ verify: true }) })
    await flush()
    expect(tm.verifies('close')).toBe(true)

    binding.setOptions({ toolmark: tm, definition: close({}) })
    await flush()
    expect(tm.verifies('close')).toBe(false)
    const later = await tm.call('close', {})
    expect(tm.confirmations.get((later as { confirmId: string }).confirmId)?.grantable).toBe(true)
  })
})
