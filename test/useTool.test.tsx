import { StrictMode, useEffect, useState } from 'react'
import { act, render, screen, fireEvent } from '@testing-library/react'
import { z } from 'zod'
import { createToolmark, ok, refuse } from '@toolmark/core'
import type { ToolContext, ToolHandle, ToolResult, Toolmark } from '@toolmark/core'
import { ToolProvider, useTool } from '@toolmark/react'

/** Counts live registrations: registered minus disposed. */
function trackRegistrations(tm: Toolmark) {
  const register = tm.register.bind(tm)
  const stats = { registered: 0, disposed: 0 }
  vi.spyOn(tm, 'register').mockImplementation((def, options) => {
    const handle: ToolHandle = register(def, options)
    stats.registered++
    let done = false
    return {
      name: handle.name,
      dispose() {
        if (!done) stats.disposed++
        done = true
        handle.dispose()
      },
    }
  })
  return stats
}

const flush = () => act(async () => {})

describe('useTool', () => {
  it('registers the tool while mounted and unregisters it on unmount', async () => {
    const tm = createToolmark()
    function Greeter() {
      useTool({ name: 'greet', description: 'Says hello', run: () => ok('hello') })
      return null
    }

    const { unmount } = render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Greeter />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    expect(tm.manifest().tools.map((t) => t.name)).toEqual(['greet'])

    unmount()
    await flush()
    expect(tm.manifest().tools).toEqual([])
    expect(await act(() => tm.call('greet', {}))).toMatchObject({
      status: 'refused',
      code: 'unknown_tool',
    })
  })

  it("ends StrictMode's extra mount cycle with exactly one registration", async () => {
    const tm = createToolmark()
    const stats = trackRegistrations(tm)
    function Greeter() {
      useTool({ name: 'greet', description: 'Says hello', run: () => ok('hello') })
      return null
    }

    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Greeter />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()

    expect(stats.registered - stats.disposed).toBe(1)
    expect(await act(() => tm.call('greet', {}, { caller: 'test' }))).toEqual({
      status: 'ok',
      data: 'hello',
    })
  })

  it('runs with the latest state and does not register again when state changes', async () => {
    const tm = createToolmark()
    const stats = trackRegistrations(tm)
    function Counter() {
      const [count, setCount] = useState(0)
      useTool({
        name: 'counter.read',
        description: 'Reads the counter',
        hints: { readOnly: true },
        run: () => ok({ count }),
      })
      return <button onClick={() => setCount((c) => c + 1)}>Count: {count}</button>
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Counter />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    const rev = tm.rev
    const registered = stats.registered

    fireEvent.click(screen.getByRole('button'))
    fireEvent.click(screen.getByRole('button'))
    fireEvent.click(screen.getByRole('button'))
    await flush()

    expect(screen.getByRole('button')).toHaveTextContent('Count: 3')
    expect(tm.rev).toBe(rev)
    expect(stats.registered).toBe(registered)
    expect(await act(() => tm.call('counter.read', {}, { caller: 'test' }))).toEqual({
      status: 'ok',
      data: { count: 3 },
    })
  })

  it('returns the same object across renders until its name or call status changes', async () => {
    const tm = createToolmark()
    const seen: unknown[] = []
    function Counter() {
      const [count, setCount] = useState(0)
      const tool = useTool({ name: 'read', description: 'Reads', run: () => ok(count) })
      // What committed renders returned (StrictMode's discarded renders never commit).
      useEffect(() => {
        seen.push(tool)
      })
      return <button onClick={() => setCount((c) => c + 1)}>Count: {count}</button>
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Counter />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    fireEvent.click(screen.getByRole('button'))
    fireEvent.click(screen.getByRole('button'))
    await flush()
    expect(new Set(seen).size).toBe(1)

    await act(() => tm.call('read', {}, { caller: 'inapp' }))

    const last = seen[seen.length - 1] as { status: string; call: unknown }
    expect(last.status).toBe('ok')
    expect(last).not.toBe(seen[0])
    expect(last.call).toBe((seen[0] as { call: unknown }).call)
  })

  it('follows a rename: the new name is registered and returned, the old one goes', async () => {
    const tm = createToolmark()
    function Named({ name }: { name: string }) {
      const tool = useTool({ name, description: 'Named', run: () => ok(name) })
      return <p>{tool.name}</p>
    }
    const view = render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Named name="first" />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()

    view.rerender(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Named name="second" />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()

    expect(screen.getByText('second')).toBeInTheDocument()
    expect(tm.manifest().tools.map((t) => t.name)).toEqual(['second'])
    expect(await act(() => tm.call('second'))).toEqual({ status: 'ok', data: 'second' })
  })

  it('registers again when the description changes, and only then', async () => {
    const tm = createToolmark()
    function Tool({ description, extra }: { description: string; extra: number }) {
      useTool({
        name: 'search',
        description,
        hints: { readOnly: true },
        run: () => ok(extra),
      })
      return null
    }
    const { rerender } = render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Tool description="Searches tickets" extra={1} />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    const rev = tm.rev

    rerender(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Tool description="Searches tickets" extra={2} />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    expect(tm.rev).toBe(rev)

    rerender(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Tool description="Searches open tickets by title" extra={2} />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    expect(tm.rev).toBeGreaterThan(rev)
    expect(tm.describe('search')?.description).toBe('Searches open tickets by title')
    expect(tm.manifest().tools).toHaveLength(1)
  })

  it('registers again when the input schema object changes, not when it is the same object', async () => {
    const tm = createToolmark()
    const byId = z.object({ id: z.number() })
    const byTitle = z.object({ title: z.string() })
    function Tool({ schema }: { schema: z.ZodType }) {
      useTool({ name: 'find', description: 'Finds a ticket', input: schema, run: (i) => ok(i) })
      return null
    }
    const { rerender } = render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Tool schema={byId} />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    const rev = tm.rev

    rerender(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Tool schema={byId} />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    expect(tm.rev).toBe(rev)

    rerender(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Tool schema={byTitle} />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    expect(tm.rev).toBeGreaterThan(rev)
    expect(await act(() => tm.call('find', { title: 'Printer' }, { caller: 'test' }))).toEqual({
      status: 'ok',
      data: { title: 'Printer' },
    })
    expect(await act(() => tm.call('find', { id: 1 }, { caller: 'test' }))).toMatchObject({
      status: 'invalid',
    })
  })

  it('keeps an inline schema registered across renders and validates with the latest one', async () => {
    const tm = createToolmark()
    function Limited({ max }: { max: number }) {
      useTool({
        name: 'pick',
        description: 'Picks a number up to the current limit',
        input: z.object({ n: z.number() }).refine((v) => v.n <= max, 'Too large'),
        run: ({ n }) => ok(n),
      })
      return null
    }
    const tree = (max: number) => (
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Limited max={max} />
        </ToolProvider>
      </StrictMode>
    )
    const { rerender } = render(tree(5))
    await flush()
    const rev = tm.rev
    expect(await act(() => tm.call('pick', { n: 8 }, { caller: 'test' }))).toMatchObject({
      status: 'invalid',
    })

    rerender(tree(10))
    await flush()

    expect(tm.rev).toBe(rev)
    expect(await act(() => tm.call('pick', { n: 8 }, { caller: 'test' }))).toEqual({
      status: 'ok',
      data: 8,
    })
  })

  it('registers again when an inline schema changes shape', async () => {
    const tm = createToolmark()
    function Search({ withLimit }: { withLimit: boolean }) {
      useTool({
        name: 'search',
        description: 'Searches',
        hints: { readOnly: true },
        input: withLimit
          ? z.object({ query: z.string(), limit: z.number().optional() })
          : z.object({ query: z.string() }),
        run: (i) => ok(i),
      })
      return null
    }
    const tree = (withLimit: boolean) => (
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Search withLimit={withLimit} />
        </ToolProvider>
      </StrictMode>
    )
    const { rerender } = render(tree(false))
    await flush()
    const rev = tm.rev

    rerender(tree(true))
    await flush()

    expect(tm.rev).toBeGreaterThan(rev)
    const schema = tm.manifest({ detail: 'full' }).tools[0].inputSchema as {
      properties: Record<string, unknown>
    }
    expect(Object.keys(schema.properties)).toEqual(['query', 'limit'])
  })

  it('keeps its pending confirmations when the owner re-renders', async () => {
    const tm = createToolmark()
    function Close() {
      const close = useTool({
        name: 'close',
        description: 'Closes the ticket',
        hints: { consequential: true },
        input: z.object({ id: z.number() }),
        run: ({ id }) => ok(id),
      })
      return <p>{close.status}</p>
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Close />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()

    const asked = await act(() => tm.call('close', { id: 1 }, { caller: 'inapp' }))

    expect(screen.getByText('needs_confirmation')).toBeInTheDocument()
    expect(tm.confirmations.list()).toHaveLength(1)
    const confirmId = asked.status === 'needs_confirmation' ? asked.confirmId : ''
    expect(await act(() => tm.confirmations.approve(confirmId))).toEqual({ status: 'ok', data: 1 })
  })

  it('keeps the registration when an inline hints object has the same values', async () => {
    const tm = createToolmark()
    function Tool({ n }: { n: number }) {
      useTool({
        name: 'read',
        description: 'Reads',
        hints: { readOnly: true, untrustedContent: n < 0 },
        run: () => ok(n),
      })
      return null
    }
    const tree = (n: number) => (
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Tool n={n} />
        </ToolProvider>
      </StrictMode>
    )
    const { rerender } = render(tree(1))
    await flush()
    const rev = tm.rev

    rerender(tree(2))
    await flush()
    expect(tm.rev).toBe(rev)

    rerender(tree(-1))
    await flush()
    expect(tm.rev).toBeGreaterThan(rev)
    expect(tm.describe('read')?.hints).toEqual({ readOnly: true, untrustedContent: true })
  })

  it('calls the tool as the human caller, without a confirmation', async () => {
    const tm = createToolmark()
    const seen: ToolContext['caller'][] = []
    const results: ToolResult[] = []
    function Archive() {
      const archive = useTool({
        name: 'tickets.archive',
        description: 'Archives a ticket',
        hints: { consequential: true },
        input: z.object({ id: z.number() }),
        run: ({ id }, ctx) => {
          seen.push(ctx.caller)
          return ok({ archived: id })
        },
      })
      return (
        <button onClick={async () => results.push(await archive.call({ id: 7 }))}>
          Archive {archive.name}
        </button>
      )
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Archive />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()

    fireEvent.click(screen.getByRole('button', { name: 'Archive tickets.archive' }))
    await flush()

    expect(seen).toEqual(['human'])
    expect(results).toEqual([{ status: 'ok', data: { archived: 7 } }])
    expect(tm.confirmations.list()).toEqual([])
  })

  it('reflects calls from any caller in status and lastResult', async () => {
    const tm = createToolmark()
    let finish!: () => void
    function Sync() {
      const sync = useTool({
        name: 'sync',
        description: 'Synchronizes',
        run: () =>
          new Promise<ToolResult<string>>((resolve) => (finish = () => resolve(ok('done')))),
      })
      const data = sync.lastResult?.status === 'ok' ? String(sync.lastResult.data) : 'none'
      return (
        <p>
          {sync.status} / {data}
        </p>
      )
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Sync />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    expect(screen.getByText('idle / none')).toBeInTheDocument()

    let call!: Promise<ToolResult>
    await act(async () => {
      call = tm.call('sync', {}, { caller: 'inapp' })
    })
    expect(screen.getByText('running / none')).toBeInTheDocument()

    await act(async () => {
      finish()
      await call
    })
    expect(screen.getByText('ok / done')).toBeInTheDocument()
  })

  it("does not re-render another tool's component when one tool is called", async () => {
    const tm = createToolmark()
    const renders = { a: 0, b: 0 }
    function A() {
      renders.a++
      const a = useTool({ name: 'a', description: 'Tool A', run: () => ok('a') })
      return <p>a: {a.status}</p>
    }
    function B() {
      renders.b++
      const b = useTool({ name: 'b', description: 'Tool B', run: () => ok('b') })
      return <p>b: {b.status}</p>
    }
    render(
      <ToolProvider toolmark={tm}>
        <A />
        <B />
      </ToolProvider>,
    )
    await flush()
    const before = { ...renders }

    await act(() => tm.call('a', {}, { caller: 'inapp' }))

    expect(screen.getByText('a: ok')).toBeInTheDocument()
    expect(screen.getByText('b: idle')).toBeInTheDocument()
    expect(renders.a).toBeGreaterThan(before.a)
    expect(renders.b).toBe(before.b)
  })

  it('shows a refused agent call in status', async () => {
    const tm = createToolmark({ policy: { test: { allow: ['readOnly'] } } })
    function Writer() {
      const write = useTool({ name: 'write', description: 'Writes', run: () => ok(1) })
      return <p>{write.status}</p>
    }
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Writer />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()

    await act(async () => {
      await tm.call('write', {}, { caller: 'test' })
    })

    expect(screen.getByText('refused')).toBeInTheDocument()
  })

  it('throws a message that names useTool and the fix outside a provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    function Orphan() {
      useTool({ name: 'orphan', description: 'Has no provider', run: () => ok(null) })
      return null
    }

    expect(() =>
      render(
        <StrictMode>
          <Orphan />
        </StrictMode>,
      ),
    ).toThrow(
      /^`useTool` must be used within `<ToolProvider>`: wrap your app in `<ToolProvider toolmark=\{tm\}>`/,
    )
  })

  it('works without a provider when the registry is passed explicitly', async () => {
    const tm = createToolmark()
    function Standalone() {
      const tool = useTool(
        { name: 'standalone', description: 'Works alone', run: () => ok('yes') },
        { toolmark: tm },
      )
      return <p>{tool.name}</p>
    }
    render(
      <StrictMode>
        <Standalone />
      </StrictMode>,
    )
    await flush()

    expect(screen.getByText('standalone')).toBeInTheDocument()
    expect(await act(() => tm.call('standalone', {}, { caller: 'test' }))).toEqual({
      status: 'ok',
      data: 'yes',
    })
  })

  it('uses the latest summary for confirmations without registering again', async () => {
    const tm = createToolmark()
    function Close({ owner }: { owner: string }) {
      useTool({
        name: 'close',
        description: 'Closes the ticket',
        hints: { consequential: true },
        summary: () => `Close the ticket of ${owner}`,
        run: () => ok(true),
      })
      return null
    }
    const tree = (owner: string) => (
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Close owner={owner} />
        </ToolProvider>
      </StrictMode>
    )
    const { rerender } = render(tree('Ada'))
    await flush()
    const rev = tm.rev
    rerender(tree('Grace'))
    await flush()

    const result = await act(() => tm.call('close', {}, { caller: 'inapp' }))

    expect(tm.rev).toBe(rev)
    expect(result).toMatchObject({
      status: 'needs_confirmation',
      summary: 'Close the ticket of Grace',
    })
  })

  it('checks with the latest state before anyone is asked, without registering again', async () => {
    const tm = createToolmark()
    function Delete({ exists }: { exists: boolean }) {
      useTool({
        name: 'delete',
        description: 'Deletes the ticket',
        hints: { destructive: true },
        summary: () => 'Delete the ticket',
        check: () => (exists ? undefined : refuse('not_found', 'No such ticket')),
        run: () => ok(true),
      })
      return null
    }
    const tree = (exists: boolean) => (
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Delete exists={exists} />
        </ToolProvider>
      </StrictMode>
    )
    const { rerender } = render(tree(true))
    await flush()
    const rev = tm.rev
    rerender(tree(false))
    await flush()

    const result = await act(() => tm.call('delete', {}, { caller: 'inapp' }))

    expect(tm.rev).toBe(rev)
    expect(result).toEqual({ status: 'refused', code: 'not_found', message: 'No such ticket' })
    expect(tm.confirmations.list()).toEqual([])
  })

  it('converts a schema shared by many mounted tools once, and gives them one JSON Schema', async () => {
    const tm = createToolmark()
    const input = z.object({ id: z.string(), note: z.string().optional() })
    const convert = vi.spyOn(input['~standard'].jsonSchema!, 'input')
    function Row({ index }: { index: number }) {
      useTool({ name: `row_${index}`, description: 'A row', input, run: (args) => ok(args) })
      return null
    }

    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          {Array.from({ length: 50 }, (_, i) => (
            <Row key={i} index={i} />
          ))}
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    const { tools } = tm.manifest({ detail: 'full' })

    expect(tools).toHaveLength(50)
    expect(new Set(tools.map((entry) => entry.inputSchema)).size).toBe(1)
    expect(tools[0].inputSchema).toMatchObject({ required: ['id'] })
    expect(convert).toHaveBeenCalledTimes(1)
    expect(await tm.call('row_7', { id: 'x' }, { caller: 'test' })).toEqual(ok({ id: 'x' }))
    expect((await tm.call('row_7', {}, { caller: 'test' })).status).toBe('invalid')
  })
})
