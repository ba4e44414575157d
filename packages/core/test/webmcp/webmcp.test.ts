import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createToolmark, ok } from '../../src/index'
import type { ErrorEvent } from '../../src/types'
import { webmcp } from '../../src/webmcp'
import { findModelContext } from '../../src/webmcp/modelContext'
import { createFakeModelContext, settle } from './fakeModelContext'

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('webmcp registration', () => {
  it('registers every tool visible to caller webmcp with its name, title, schema and annotations', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    tm.register({
      name: 'tickets.search',
      title: 'Search tickets',
      description: 'Finds tickets by text.',
      input: z.object({ query: z.string() }),
      hints: { readOnly: true, untrustedContent: true },
      run: ({ query }) => ok({ query }),
    })
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket.',
      input: z.object({ id: z.string() }),
      hints: { consequential: true },
      run: () => ok(null),
    })
    tm.register({
      name: 'tickets.delete',
      description: 'Deletes a ticket.',
      hints: { destructive: true },
      run: () => ok(null),
    })
    tm.confirmations.attachPresenter()
    tm.use(webmcp({ modelContext: ctx }))
    await settle()

    expect([...ctx.tools.keys()].sort()).toEqual(['tickets.close', 'tickets.search'])
    const search = ctx.tools.get('tickets.search')!
    expect(search.title).toBe('Search tickets')
    expect(search.description).toBe('Finds tickets by text.')
    expect(search.inputSchema).toMatchObject({
      type: 'object',
      properties: { query: { type: 'string' } },
    })
    expect(search.annotations).toEqual({
      readOnlyHint: true,
      untrustedContentHint: true,
      consequentialHint: false,
    })
    expect(ctx.tools.get('tickets.close')!.annotations).toEqual({
      readOnlyHint: false,
      untrustedContentHint: false,
      consequentialHint: true,
    })
  })

  it('exposes a destructive tool, marked destructive, only when the webmcp policy allows it', async () => {
    const tm = createToolmark({
      policy: { webmcp: { allow: ['readOnly', 'none', 'consequential', 'destructive'] } },
    })
    const ctx = createFakeModelContext()
    tm.register({
      name: 'tickets.delete',
      description: 'Deletes a ticket.',
      hints: { destructive: true },
      run: () => ok(null),
    })
    tm.confirmations.attachPresenter()
    tm.use(webmcp({ modelContext: ctx }))
    await settle()
    expect(ctx.tools.get('tickets.delete')?.annotations).toEqual({
      readOnlyHint: false,
      untrustedContentHint: false,
      consequentialHint: true,
      destructiveHint: true,
    })

    tm.setPolicy({})
    await settle()
    expect(ctx.tools.has('tickets.delete')).toBe(false)
  })

  it('lists a confirmable tool only while a confirmation presenter is attached', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket.',
      hints: { consequential: true },
      run: () => ok(null),
    })
    tm.use(webmcp({ modelContext: ctx }))
    await settle()
    expect(ctx.tools.has('tickets.close')).toBe(false)

    const detach = tm.confirmations.attachPresenter()
    await settle()
    expect(ctx.tools.has('tickets.close')).toBe(true)

    detach()
    await settle()
    expect(ctx.tools.has('tickets.close')).toBe(false)
  })

  it('registers added tools and unregisters removed ones on each revision', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    tm.use(webmcp({ modelContext: ctx }))
    await settle()
    expect(ctx.tools.size).toBe(0)

    const handle = tm.register({
      name: 'ping',
      description: 'Answers pong.',
      run: () => ok('pong'),
    })
    await settle()
    expect([...ctx.tools.keys()]).toEqual(['ping'])

    handle.dispose()
    await settle()
    expect(ctx.tools.size).toBe(0)
  })

  it('re-registers a tool whose description changed and leaves unchanged tools alone', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    tm.register({ name: 'stay', description: 'Unchanged.', run: () => ok(1) })
    const first = tm.register({ name: 'ping', description: 'Old text.', run: () => ok(1) })
    tm.use(webmcp({ modelContext: ctx }))
    await settle()

    first.dispose()
    tm.register({ name: 'ping', description: 'New text.', run: () => ok(2) })
    await settle()

    expect(ctx.tools.get('ping')?.description).toBe('New text.')
    expect(ctx.attempts.filter((name) => name === 'stay')).toHaveLength(1)
    expect(ctx.attempts.filter((name) => name === 'ping')).toHaveLength(2)
  })

  it('follows a scope whose when flips off and on', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    const editor = tm.scope('editor')
    tm.register({ name: 'save', description: 'Saves.', run: () => ok(null) }, { scope: editor })
    tm.use(webmcp({ modelContext: ctx }))
    await settle()
    expect(ctx.tools.has('editor.save')).toBe(true)

    editor.setWhen(false)
    await settle()
    expect(ctx.tools.has('editor.save')).toBe(false)

    editor.setWhen(true)
    await settle()
    expect(ctx.tools.has('editor.save')).toBe(true)
  })

  it('keeps tools the filter rejects off the model context', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    tm.register({ name: 'public.ping', description: 'Pings.', run: () => ok(null) })
    tm.register({ name: 'internal.debug', description: 'Debugs.', run: () => ok(null) })
    tm.use(webmcp({ modelContext: ctx, filter: (entry) => entry.name.startsWith('public.') }))
    await settle()
    expect([...ctx.tools.keys()]).toEqual(['public.ping'])
  })

  it('leaves a tool out and emits an error event when the filter throws', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    tm.register({ name: 'ping', description: 'Pings.', run: () => ok(null) })
    expect(() =>
      tm.use(
        webmcp({
          modelContext: ctx,
          filter: () => {
            throw new Error('boom')
          },
        }),
      ),
    ).not.toThrow()
    await settle()
    expect(ctx.tools.size).toBe(0)
    expect(errors).toMatchObject([{ code: 'webmcp_register_failed', tool: 'ping' }])
  })

  it('unregisters everything on dispose and ignores later revisions', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    tm.register({ name: 'a', description: 'A.', run: () => ok(null) })
    tm.register({ name: 'b', description: 'B.', run: () => ok(null) })
    const dispose = tm.use(webmcp({ modelContext: ctx }))
    await settle()
    expect(ctx.tools.size).toBe(2)

    dispose()
    expect(ctx.tools.size).toBe(0)
    tm.register({ name: 'c', description: 'C.', run: () => ok(null) })
    await settle()
    expect(ctx.tools.size).toBe(0)
    expect(ctx.attempts).toEqual(['a', 'b'])
  })
})

describe('webmcp failures', () => {
  it('stays inactive and emits exactly one webmcp_unavailable event without a model context', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    tm.register({ name: 'ping', description: 'Pings.', run: () => ok(null) })

    let dispose: () => void = () => {}
    expect(() => {
      dispose = tm.use(webmcp())
      tm.use(webmcp())
    }).not.toThrow()
    tm.register({ name: 'pong', description: 'Pongs.', run: () => ok(null) })
    await settle()

    expect(errors).toHaveLength(1)
    expect(errors[0].code).toBe('webmcp_unavailable')
    expect(errors[0].message).toContain('--enable-features=WebMCP')
    expect(() => dispose()).not.toThrow()
  })

  it('treats a model context without registerTool as unavailable', async () => {
    vi.stubGlobal('document', { modelContext: { getTools: () => [] } })
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    tm.use(webmcp())
    await settle()
    expect(errors.map((event) => event.code)).toEqual(['webmcp_unavailable'])
  })

  it('emits an error event for a rejected registration and retries it on the next revision', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    ctx.rejectNext('ping', new Error('Invalid tool name'))
    tm.register({ name: 'ping', description: 'Pings.', run: () => ok(null) })
    await settle()
    tm.use(webmcp({ modelContext: ctx }))
    await settle()

    expect(ctx.tools.has('ping')).toBe(false)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ code: 'webmcp_register_failed', tool: 'ping' })
    expect(errors[0].message).toContain('Invalid tool name')

    tm.register({ name: 'other', description: 'Bumps the revision.', run: () => ok(null) })
    await settle()
    expect(ctx.tools.has('ping')).toBe(true)
    expect(errors).toHaveLength(1)
  })

  it('reports a registerTool that throws synchronously instead of throwing', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    tm.register({ name: 'ping', description: 'Pings.', run: () => ok(null) })
    const modelContext = {
      registerTool: () => {
        throw new TypeError('not today')
      },
    }
    await settle()
    expect(() => tm.use(webmcp({ modelContext }))).not.toThrow()
    await settle()
    expect(errors).toMatchObject([{ code: 'webmcp_register_failed', tool: 'ping' }])
  })
})

describe('webmcp execute', () => {
  it('runs the tool as caller webmcp and answers the result as JSON content and structured content', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    const run = vi.fn((input: { a: number; b: number }, ctx: { caller: string }) =>
      ok({ sum: input.a + input.b, caller: ctx.caller }),
    )
    tm.register({
      name: 'math.add',
      description: 'Adds two numbers.',
      input: z.object({ a: z.number(), b: z.number() }),
      run,
    })
    tm.use(webmcp({ modelContext: ctx }))
    await settle()

    const response = await ctx.executeTool('math.add', { a: 2, b: 3 })
    expect(response.isError).toBe(false)
    expect(response.structuredContent).toEqual({
      status: 'ok',
      data: { sum: 5, caller: 'webmcp' },
    })
    expect(response.content).toEqual([
      { type: 'text', text: JSON.stringify({ status: 'ok', data: { sum: 5, caller: 'webmcp' } }) },
    ])
  })

  it('parses an input given as a JSON string, as string-based hosts send it', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    tm.register({
      name: 'math.add',
      description: 'Adds two numbers.',
      input: z.object({ a: z.number(), b: z.number() }),
      run: ({ a, b }) => ok(a + b),
    })
    tm.use(webmcp({ modelContext: ctx }))
    await settle()

    const response = await ctx.executeTool('math.add', '{"a":4,"b":5}')
    expect(response.structuredContent).toEqual({ status: 'ok', data: 9 })
  })

  it('answers invalid for input that is not JSON or fails the schema, marked as an error', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    const run = vi.fn(() => ok(null))
    tm.register({
      name: 'math.add',
      description: 'Adds two numbers.',
      input: z.object({ a: z.number(), b: z.number() }),
      run,
    })
    tm.use(webmcp({ modelContext: ctx }))
    await settle()

    const wrongType = await ctx.executeTool('math.add', { a: 'x', b: 1 })
    expect(wrongType.isError).toBe(true)
    expect(wrongType.structuredContent).toMatchObject({
      status: 'invalid',
      issues: [{ path: 'a' }],
    })
    const notJson = await ctx.executeTool('math.add', '{not json')
    expect(notJson.structuredContent.status).toBe('invalid')
    expect(run).not.toHaveBeenCalled()
  })

  it('refuses a stale execute after its tool was removed, without running anything', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    const run = vi.fn(() => ok(null))
    const handle = tm.register({ name: 'ping', description: 'Pings.', run })
    tm.use(webmcp({ modelContext: ctx }))
    await settle()
    const stale = ctx.tools.get('ping')!

    handle.dispose()
    await settle()
    const response = await stale.execute({})
    expect(response.structuredContent).toMatchObject({ status: 'refused', code: 'unknown_tool' })
    expect(response.isError).toBe(true)
    expect(run).not.toHaveBeenCalled()
  })

  it('refuses the old execute of a replaced tool so it never reaches the new one', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    const first = tm.register({ name: 'ping', description: 'Old.', run: () => ok('old') })
    tm.use(webmcp({ modelContext: ctx }))
    await settle()
    const stale = ctx.tools.get('ping')!

    first.dispose()
    const run = vi.fn(() => ok('new'))
    tm.register({ name: 'ping', description: 'New.', run })
    await settle()

    const response = await stale.execute({})
    expect(response.structuredContent).toMatchObject({ status: 'refused', code: 'unknown_tool' })
    expect(run).not.toHaveBeenCalled()
    const fresh = await ctx.executeTool('ping', {})
    expect(fresh.structuredContent).toEqual({ status: 'ok', data: 'new' })
  })

  it('refuses every execute after dispose without running the tool', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    const run = vi.fn(() => ok(null))
    tm.register({ name: 'ping', description: 'Pings.', run })
    const dispose = tm.use(webmcp({ modelContext: ctx }))
    await settle()
    const stale = ctx.tools.get('ping')!

    dispose()
    const response = await stale.execute({})
    expect(response.structuredContent).toMatchObject({ status: 'refused', code: 'unknown_tool' })
    expect(run).not.toHaveBeenCalled()
  })

  it('waits inline for the person: approve runs the tool, reject answers cancelled operator', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    const run = vi.fn((input: { id: string }) => ok({ closed: input.id }))
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket.',
      input: z.object({ id: z.string() }),
      hints: { consequential: true },
      run,
    })
    tm.confirmations.attachPresenter()
    tm.use(webmcp({ modelContext: ctx }))
    await settle()

    const approved = ctx.executeTool('tickets.close', { id: 't1' })
    await vi.waitFor(() => expect(tm.confirmations.list()).toHaveLength(1))
    const entry = tm.confirmations.list()[0]
    expect(entry).toMatchObject({ caller: 'webmcp', mode: 'inline', tool: 'tickets.close' })
    expect(run).not.toHaveBeenCalled()
    await tm.confirmations.approve(entry.id)
    expect((await approved).structuredContent).toEqual({ status: 'ok', data: { closed: 't1' } })

    const rejected = ctx.executeTool('tickets.close', { id: 't2' })
    await vi.waitFor(() => expect(tm.confirmations.list()).toHaveLength(1))
    await tm.confirmations.reject(tm.confirmations.list()[0].id)
    expect((await rejected).structuredContent).toEqual({ status: 'cancelled', by: 'operator' })
    expect(run).toHaveBeenCalledTimes(1)
  })

  it('answers cancelled signal when the host aborts the execution', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    let started = false
    tm.register({
      name: 'slow',
      description: 'Waits until aborted.',
      run: (_input, { signal }) =>
        new Promise((_resolve, reject) => {
          started = true
          signal.addEventListener('abort', () => reject(signal.reason))
        }),
    })
    tm.use(webmcp({ modelContext: ctx }))
    await settle()

    const host = new AbortController()
    const pending = ctx.executeTool('slow', {}, { signal: host.signal })
    await vi.waitFor(() => expect(started).toBe(true))
    host.abort()
    expect((await pending).structuredContent).toEqual({ status: 'cancelled', by: 'signal' })
  })

  it('cancels a call still waiting for a person when the consumer is disposed', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    const run = vi.fn(() => ok(null))
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket.',
      hints: { consequential: true },
      run,
    })
    tm.confirmations.attachPresenter()
    const dispose = tm.use(webmcp({ modelContext: ctx }))
    await settle()

    const pending = ctx.executeTool('tickets.close', {})
    await vi.waitFor(() => expect(tm.confirmations.list()).toHaveLength(1))
    dispose()
    expect((await pending).structuredContent).toEqual({ status: 'cancelled', by: 'signal' })
    expect(run).not.toHaveBeenCalled()
  })

  it('turns a result JSON cannot carry into an error', async () => {
    const tm = createToolmark()
    const ctx = createFakeModelContext()
    tm.register({ name: 'big', description: 'Returns a bigint.', run: () => ok(10n) })
    tm.use(webmcp({ modelContext: ctx }))
    await settle()

    const response = await ctx.executeTool('big', {})
    expect(response.isError).toBe(true)
    expect(response.structuredContent).toEqual({
      status: 'error',
      message: 'Result not serializable',
    })
  })
})

describe('findModelContext', () => {
  it('prefers document.modelContext and falls back to navigator.modelContext', () => {
    const onDocument = createFakeModelContext()
    const onNavigator = createFakeModelContext()
    vi.stubGlobal('navigator', { modelContext: onNavigator })
    expect(findModelContext()?.context).toBe(onNavigator)
    vi.stubGlobal('document', { modelContext: onDocument })
    expect(findModelContext()?.context).toBe(onDocument)
  })

  it('tells a built-in registerTool from a script one', () => {
    const script = createFakeModelContext()
    expect(findModelContext(script)?.kind).toBe('polyfill')
    // Bound functions print `[native code]`, as the browser's own methods do.
    const builtIn = { registerTool: script.registerTool.bind(script) }
    expect(findModelContext(builtIn)?.kind).toBe('native')
  })

  it('finds nothing when a modelContext getter throws', () => {
    vi.stubGlobal('document', {
      get modelContext() {
        throw new Error('detached')
      },
    })
    expect(findModelContext()).toBeUndefined()
  })
})

describe('@toolmark/core/webmcp entry', () => {
  it('exports only webmcp at runtime', async () => {
    const entry = await import('../../src/webmcp')
    expect(Object.keys(entry).sort()).toEqual(['webmcp'])
  })
})
