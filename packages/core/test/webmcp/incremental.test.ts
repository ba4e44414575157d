import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createToolmark, ok } from '../../src/index'
import type { ErrorEvent, Toolmark } from '../../src/types'
import { webmcp, type WebMCPModelContext, type WebMCPTool } from '../../src/webmcp'
import { createFakeModelContext, settle } from './fakeModelContext'

const input = z.object({ id: z.string(), note: z.string().optional() })

function registerMany(tm: Toolmark, count: number) {
  return Array.from({ length: count }, (_, i) =>
    tm.register({ name: `tools.t${i}`, description: `Tool ${i}.`, input, run: () => ok(i) }),
  )
}

/**
 * A model context whose registrations stay pending until the test settles them, as a host that
 * registers asynchronously would. Aborting a registration's signal unregisters it at once, and
 * its pending promise then rejects with the abort reason (what native WebMCP and the polyfill do).
 */
function createSlowModelContext() {
  const tools = new Map<string, WebMCPTool>()
  const pending: {
    tool: WebMCPTool
    signal: AbortSignal
    resolve: () => void
    reject: (e: unknown) => void
  }[] = []
  const context: WebMCPModelContext = {
    registerTool(tool, options) {
      const signal = options!.signal!
      if (tools.has(tool.name)) return Promise.reject(new Error(`Duplicate: ${tool.name}`))
      tools.set(tool.name, tool)
      return new Promise<void>((resolve, reject) => {
        const entry = { tool, signal, resolve, reject }
        pending.push(entry)
        signal.addEventListener('abort', () => {
          if (tools.get(tool.name) === tool) tools.delete(tool.name)
          reject(signal.reason)
        })
      })
    },
  }
  const registerTool = vi.spyOn(context, 'registerTool')
  return { context, tools, pending, registerTool }
}

describe('webmcp incremental sync', () => {
  it('registers only the added tool when one tool joins 1,000', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    registerMany(tm, 1000)
    tm.use(webmcp({ modelContext: ctx }))
    await settle()
    expect(ctx.tools.size).toBe(1000)
    expect(ctx.attempts).toHaveLength(1000)

    tm.register({ name: 'tools.extra', description: 'One more.', input, run: () => ok(null) })
    await settle()

    expect(ctx.attempts.slice(1000)).toEqual(['tools.extra'])
    expect(ctx.unregistered).toEqual([])
    expect(ctx.tools.size).toBe(1001)
  })

  it('unregisters only the removed tool when one tool leaves 1,000', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    const handles = registerMany(tm, 1000)
    tm.use(webmcp({ modelContext: ctx }))
    await settle()

    handles[500].dispose()
    await settle()

    expect(ctx.unregistered).toEqual(['tools.t500'])
    expect(ctx.attempts).toHaveLength(1000)
    expect(ctx.tools.size).toBe(999)
    expect(ctx.tools.has('tools.t500')).toBe(false)
  })

  it('keeps the registration of a tool registered again with the same text and schema', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    const handles = registerMany(tm, 10)
    tm.use(webmcp({ modelContext: ctx }))
    await settle()

    // What a component remount does: the same definition, a new registration.
    handles[3].dispose()
    tm.register({ name: 'tools.t3', description: 'Tool 3.', input, run: () => ok('again') })
    await settle()

    expect(ctx.attempts).toHaveLength(10)
    expect(ctx.unregistered).toEqual([])
    const response = await ctx.executeTool('tools.t3', { id: 'x' })
    expect(response.structuredContent).toEqual({ status: 'ok', data: 'again' })
  })

  it('registers a tool again when its schema says something else, even with a new schema object of equal JSON kept', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    const first = tm.register({ name: 'a', description: 'A.', input, run: () => ok(1) })
    const second = tm.register({ name: 'b', description: 'B.', input, run: () => ok(2) })
    tm.use(webmcp({ modelContext: ctx }))
    await settle()

    first.dispose()
    second.dispose()
    // `a` gets an equal schema in a new object: kept. `b` gets a different one: registered again.
    tm.register({
      name: 'a',
      description: 'A.',
      input: z.object({ id: z.string(), note: z.string().optional() }),
      run: () => ok(1),
    })
    tm.register({
      name: 'b',
      description: 'B.',
      input: z.object({ n: z.number() }),
      run: () => ok(2),
    })
    await settle()

    expect(ctx.attempts).toEqual(['a', 'b', 'b'])
    expect(ctx.unregistered).toEqual(['b'])
    expect(ctx.tools.get('b')?.inputSchema).toMatchObject({ properties: { n: { type: 'number' } } })
  })

  it('registers a pending tool once while later revisions arrive', async () => {
    const tm = createToolmark()
    const slow = createSlowModelContext()
    tm.register({ name: 'a', description: 'A.', run: () => ok(null) })
    tm.use(webmcp({ modelContext: slow.context }))
    expect(slow.registerTool).toHaveBeenCalledTimes(1)

    tm.register({ name: 'b', description: 'B.', run: () => ok(null) })
    await settle()
    tm.register({ name: 'c', description: 'C.', run: () => ok(null) })
    await settle()

    expect(slow.registerTool.mock.calls.map(([tool]) => tool.name)).toEqual(['a', 'b', 'c'])
    for (const p of slow.pending) p.resolve()
    await settle()
    expect([...slow.tools.keys()]).toEqual(['a', 'b', 'c'])
  })

  it('withdraws a tool removed while its registration is pending, without reporting the abort', async () => {
    const tm = createToolmark()
    const slow = createSlowModelContext()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    const a = tm.register({ name: 'a', description: 'A.', run: () => ok(null) })
    tm.use(webmcp({ modelContext: slow.context }))
    expect(slow.pending[0].signal.aborted).toBe(false)

    a.dispose()
    await settle()
    expect(slow.pending[0].signal.aborted).toBe(true)
    expect(slow.tools.size).toBe(0)
    expect(errors).toEqual([])

    // Back again: a fresh registration, not the withdrawn one.
    tm.register({ name: 'a', description: 'A.', run: () => ok(null) })
    await settle()
    expect(slow.registerTool).toHaveBeenCalledTimes(2)
    expect(slow.pending[1].signal.aborted).toBe(false)
    expect(slow.tools.has('a')).toBe(true)
  })

  it('keeps the newer registration when an older one for the same name fails late', async () => {
    const tm = createToolmark()
    const slow = createSlowModelContext()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    const a = tm.register({ name: 'a', description: 'Old.', run: () => ok(null) })
    tm.use(webmcp({ modelContext: slow.context }))

    a.dispose()
    tm.register({ name: 'a', description: 'New.', run: () => ok('new') })
    await settle()
    expect(slow.registerTool).toHaveBeenCalledTimes(2)

    // The first promise already rejected with its abort; a late host error changes nothing.
    slow.pending[0].reject(new Error('late'))
    slow.pending[1].resolve()
    await settle()
    expect(errors).toEqual([])
    expect(slow.tools.get('a')?.description).toBe('New.')
    const response = await slow.tools.get('a')!.execute({})
    expect(response.structuredContent).toEqual({ status: 'ok', data: 'new' })
  })

  it('unregisters pending registrations on dispose and ignores their late settling', async () => {
    const tm = createToolmark()
    const slow = createSlowModelContext()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    registerMany(tm, 3)
    const dispose = tm.use(webmcp({ modelContext: slow.context }))
    expect(slow.tools.size).toBe(3)

    dispose()
    expect(slow.pending.every((p) => p.signal.aborted)).toBe(true)
    expect(slow.tools.size).toBe(0)
    for (const p of slow.pending) p.resolve()
    tm.register({ name: 'later', description: 'Later.', run: () => ok(null) })
    await settle()
    expect(slow.tools.size).toBe(0)
    expect(slow.registerTool).toHaveBeenCalledTimes(3)
    expect(errors).toEqual([])
  })

  it('stops registering when an error listener disposes it in the middle of a sync', async () => {
    const tm = createToolmark()
    const attempts: string[] = []
    const signals = new Map<string, AbortSignal>()
    const modelContext: WebMCPModelContext = {
      registerTool(tool, options) {
        attempts.push(tool.name)
        if (tool.name === 'tools.t1') throw new Error('rejected')
        signals.set(tool.name, options!.signal!)
      },
    }
    const dispose = tm.use(webmcp({ modelContext }))
    tm.events.on('error', () => dispose())

    registerMany(tm, 5)
    await settle()

    expect(attempts).toEqual(['tools.t0', 'tools.t1'])
    expect(signals.get('tools.t0')?.aborted).toBe(true)
  })

  it('registers nothing once the filter disposes it in the middle of a sync', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    const dispose = tm.use(
      webmcp({
        modelContext: ctx,
        filter: (entry) => {
          if (entry.name === 'tools.t2') dispose()
          return true
        },
      }),
    )

    registerMany(tm, 5)
    await settle()

    expect(ctx.attempts).toEqual([])
    expect(ctx.tools.size).toBe(0)
  })
})

describe('webmcp schemas', () => {
  it('hands the host one plain copy per schema object, leaving the manifest’s frozen schema alone', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    registerMany(tm, 3)
    tm.use(webmcp({ modelContext: ctx }))
    await settle()

    const given = [...ctx.tools.values()].map((tool) => tool.inputSchema!)
    const manifestSchema = tm.describe('tools.t0')!.inputSchema!
    expect(given[0]).toEqual(manifestSchema)
    expect(given[0]).not.toBe(manifestSchema)
    expect(Object.isFrozen(given[0])).toBe(false)
    expect(given[1]).toBe(given[0])
    expect(given[2]).toBe(given[0])
    expect(Object.isFrozen(manifestSchema)).toBe(true)
  })
})

describe('webmcp failures across revisions', () => {
  it('retries a rejected tool on every revision but reports it once', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    const attempts: string[] = []
    const modelContext: WebMCPModelContext = {
      registerTool(tool) {
        attempts.push(tool.name)
        if (tool.name === 'bad') return Promise.reject(new Error('Invalid tool'))
        return Promise.resolve()
      },
    }
    tm.register({ name: 'bad', description: 'Always rejected.', run: () => ok(null) })
    tm.use(webmcp({ modelContext }))
    await settle()
    for (let i = 0; i < 3; i++) {
      tm.register({ name: `ok${i}`, description: 'Fine.', run: () => ok(null) })
      await settle()
    }

    expect(attempts.filter((name) => name === 'bad')).toHaveLength(4)
    expect(errors.map((event) => [event.code, event.tool])).toEqual([
      ['webmcp_register_failed', 'bad'],
    ])
  })

  it('reports a schema JSON cannot carry once and never hands it to the host', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    tm.register({
      name: 'big',
      description: 'Has a BigInt default.',
      inputSchema: { type: 'object', properties: { n: { type: 'integer', default: 1n } } },
      run: () => ok(null),
    })
    tm.use(webmcp({ modelContext: ctx }))
    await settle()
    tm.register({ name: 'other', description: 'Bumps the revision.', run: () => ok(null) })
    await settle()

    expect(ctx.attempts).toEqual(['other'])
    expect(errors.map((event) => [event.code, event.tool])).toEqual([
      ['webmcp_register_failed', 'big'],
    ])
  })
})
