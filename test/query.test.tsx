import { StrictMode } from 'react'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import {
  QueryClient,
  QueryClientProvider,
  useIsMutating,
  useMutationState,
  useQuery,
} from '@tanstack/react-query'
import { z } from 'zod'
import { createToolmark, refuse } from '@toolmark/core'
import type { ErrorEvent, ToolResult, Toolmark } from '@toolmark/core'
import { ToolProvider, ToolScope } from '@toolmark/react'
import * as queryEntry from '@toolmark/react/query'
import { useMutationTool, useQueryTool } from '@toolmark/react/query'

interface Todo {
  id: number
  title: string
}

interface Request {
  method: string
  url: string
  signal: AbortSignal | undefined
}

/**
 * The network, faked at `fetch`: an in-memory todo API. `hold()` keeps every response waiting
 * until `release()`; `fail(status)` makes every request answer with that status.
 */
function createServer(initial: Todo[] = [{ id: 1, title: 'Buy milk' }]) {
  let todos = [...initial]
  let nextId = 100
  let failing: number | undefined
  let gate: Promise<void> | undefined
  let open = () => {}
  const requests: Request[] = []

  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET'
    const signal = init.signal ?? undefined
    requests.push({ method, url, signal })
    if (gate) {
      await new Promise<void>((resolve, reject) => {
        gate!.then(resolve)
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true })
      })
    }
    signal?.throwIfAborted()
    if (failing) return json({ error: 'connection to db-7.internal refused' }, failing)
    if (method === 'GET' && url === '/api/todos') return json(todos)
    if (method === 'POST' && url === '/api/todos') {
      const todo: Todo = { id: nextId++, ...(JSON.parse(String(init.body)) as { title: string }) }
      todos = [...todos, todo]
      return json(todo, 201)
    }
    const match = /^\/api\/todos\/(\d+)$/.exec(url)
    if (method === 'DELETE' && match) {
      todos = todos.filter((todo) => todo.id !== Number(match[1]))
      return new Response(null, { status: 204 })
    }
    return json({ error: 'not found' }, 404)
  })
  vi.stubGlobal('fetch', fetch)

  return {
    requests,
    /**
     * Requests the client did not abort, as `METHOD url` in order. (Under StrictMode a `useQuery`
     * whose function reads `signal` cancels its first fetch when React remounts it, and refetches.)
     */
    log: () => requests.filter((r) => !r.signal?.aborted).map((r) => `${r.method} ${r.url}`),
    hold() {
      gate = new Promise<void>((resolve) => (open = resolve))
    },
    release() {
      gate = undefined
      open()
    },
    fail(status: number) {
      failing = status
    },
  }
}

/** The app's API client, as an app would write it over `fetch`. */
async function request<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init)
  if (!response.ok) {
    throw new Error(
      `${init?.method ?? 'GET'} ${url} answered ${response.status}: ${await response.text()}`,
    )
  }
  return (response.status === 204 ? undefined : await response.json()) as T
}
const api = {
  listTodos: (signal?: AbortSignal) => request<Todo[]>('/api/todos', { signal }),
  addTodo: (title: string, signal?: AbortSignal) =>
    request<Todo>('/api/todos', { method: 'POST', body: JSON.stringify({ title }), signal }),
  deleteTodo: (id: number) => request<void>(`/api/todos/${id}`, { method: 'DELETE' }),
}

const AddTodo = z.object({ title: z.string().min(1) })

function TodoTools({
  staleTime,
  prefix = '',
  consequential = false,
}: {
  staleTime?: number
  prefix?: string
  consequential?: boolean
}) {
  useQueryTool({
    name: 'todos.list',
    description: 'Lists the todos whose title starts with the current prefix.',
    queryKey: () => ['todos'],
    queryFn: (_input, { signal }) => api.listTodos(signal),
    select: (todos) => todos.filter((todo) => todo.title.startsWith(prefix)),
    staleTime,
  })
  useMutationTool({
    name: 'todos.add',
    description: 'Adds a todo with this title.',
    input: AddTodo,
    hints: { consequential },
    mutationKey: ['todos', 'add'],
    mutationFn: ({ title }, { signal }) => api.addTodo(title, signal),
    invalidates: [['todos']],
    undo: (_input, todo) => api.deleteTodo(todo.id),
  })
  return null
}

function TodoList() {
  const todos = useQuery({ queryKey: ['todos'], queryFn: ({ signal }) => api.listTodos(signal) })
  const saving = useIsMutating()
  const adding = useMutationState({
    filters: { mutationKey: ['todos', 'add'], status: 'pending' },
    select: (mutation) => (mutation.state.variables as { title: string }).title,
  })
  return (
    <section>
      <ul aria-label="Todos">
        {todos.data?.map((todo) => (
          <li key={todo.id}>{todo.title}</li>
        ))}
      </ul>
      <p>Saving: {saving}</p>
      <p>Adding: {adding.join(', ')}</p>
    </section>
  )
}

function setup(options: { ui?: boolean; staleTime?: number; consequential?: boolean } = {}) {
  const tm = createToolmark()
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  })
  const view = (props: { prefix?: string } = {}) => (
    <StrictMode>
      <QueryClientProvider client={client}>
        <ToolProvider toolmark={tm}>
          <TodoTools
            staleTime={options.staleTime}
            consequential={options.consequential}
            prefix={props.prefix}
          />
          {options.ui === false ? null : <TodoList />}
        </ToolProvider>
      </QueryClientProvider>
    </StrictMode>
  )
  const rendered = render(view())
  return { tm, client, rerender: (props: { prefix?: string }) => rendered.rerender(view(props)) }
}

/** Starts a call inside `act` and hands back its pending result, for calls that wait on the server. */
async function start(
  tm: Toolmark,
  tool: string,
  input: unknown,
  options: { signal?: AbortSignal } = {},
): Promise<{ result: Promise<ToolResult> }> {
  let result!: Promise<ToolResult>
  await act(async () => {
    result = tm.call(tool, input, { caller: 'inapp', ...options })
  })
  return { result }
}

const items = () =>
  within(screen.getByRole('list', { name: 'Todos' }))
    .queryAllByRole('listitem')
    .map((li) => li.textContent)

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('@toolmark/react/query', () => {
  it('exports exactly the two hooks', () => {
    expect(Object.keys(queryEntry).sort()).toEqual(['useMutationTool', 'useQueryTool'])
  })

  it('registers the query tool as read-only untrusted content and the mutation tool with its hints', () => {
    createServer()
    const { tm } = setup({ ui: false, consequential: true })

    const tools = tm.manifest({ caller: 'inapp' }).tools
    expect(tools.map((tool) => [tool.name, tool.hints])).toEqual([
      ['todos.add', { consequential: true }],
      ['todos.list', { readOnly: true, untrustedContent: true }],
    ])
  })
})

describe('useQueryTool', () => {
  it('joins the fetch the UI already started instead of sending a second request', async () => {
    const server = createServer()
    server.hold()
    const { tm } = setup()
    await waitFor(() => expect(server.log()).toEqual(['GET /api/todos']))

    const call = await start(tm, 'todos.list', {})
    await act(async () => server.release())

    expect(await call.result).toEqual({ status: 'ok', data: [{ id: 1, title: 'Buy milk' }] })
    expect(await screen.findByText('Buy milk')).toBeInTheDocument()
    expect(server.log()).toEqual(['GET /api/todos'])
  })

  it('puts what the agent fetched into the cache the UI reads', async () => {
    createServer()
    const { tm, client } = setup({ ui: false })

    await act(() => tm.call('todos.list', {}, { caller: 'inapp' }))

    expect(client.getQueryData(['todos'])).toEqual([{ id: 1, title: 'Buy milk' }])
  })

  it('answers from the cache while staleTime holds and refetches once the data is stale', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const server = createServer()
    const { tm } = setup({ ui: false, staleTime: 60_000 })

    const first = await act(() => tm.call('todos.list', {}, { caller: 'inapp' }))
    const second = await act(() => tm.call('todos.list', {}, { caller: 'inapp' }))
    expect(second).toEqual(first)
    expect(server.log()).toEqual(['GET /api/todos'])

    vi.setSystemTime(Date.now() + 61_000)
    await act(() => tm.call('todos.list', {}, { caller: 'inapp' }))
    expect(server.log()).toEqual(['GET /api/todos', 'GET /api/todos'])
  })

  it('cancels the fetch, aborting its request, when the only call waiting on it is aborted', async () => {
    const server = createServer()
    server.hold()
    const { tm, client } = setup({ ui: false })
    const controller = new AbortController()

    const call = await start(tm, 'todos.list', {}, { signal: controller.signal })
    await waitFor(() => expect(server.requests).toHaveLength(1))
    expect(server.requests[0].signal?.aborted).toBe(false)
    await act(async () => controller.abort())

    expect(await call.result).toEqual({ status: 'cancelled', by: 'signal' })
    expect(server.requests[0].signal?.aborted).toBe(true)
    expect(client.getQueryState(['todos'])?.fetchStatus).toBe('idle')
  })

  it('keeps the fetch going for another call when one of two calls sharing it is aborted', async () => {
    const server = createServer()
    server.hold()
    const tm = createToolmark()
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    // Two tools on one cache entry, in two scopes so their calls run side by side.
    function Count() {
      useQueryTool({
        name: 'count',
        description: 'Counts the todos.',
        queryKey: () => ['todos'],
        queryFn: (_input, { signal }) => api.listTodos(signal),
        select: (todos) => todos.length,
      })
      return null
    }
    render(
      <StrictMode>
        <QueryClientProvider client={client}>
          <ToolProvider toolmark={tm}>
            <TodoTools />
            <ToolScope name="sidebar">
              <Count />
            </ToolScope>
          </ToolProvider>
        </QueryClientProvider>
      </StrictMode>,
    )
    const controller = new AbortController()

    const aborted = await start(tm, 'todos.list', {}, { signal: controller.signal })
    const kept = await start(tm, 'sidebar.count', {})
    await waitFor(() => expect(server.requests).toHaveLength(1))
    await act(async () => controller.abort())
    expect(await aborted.result).toEqual({ status: 'cancelled', by: 'signal' })
    await act(async () => server.release())

    expect(await kept.result).toEqual({ status: 'ok', data: 1 })
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0].signal?.aborted).toBe(false)
  })

  it('keeps the fetch going for a mounted useQuery when the agent gives up', async () => {
    const server = createServer()
    server.hold()
    const { tm } = setup()
    await waitFor(() => expect(server.log()).toEqual(['GET /api/todos']))
    const uiRequest = server.requests.at(-1)!
    const controller = new AbortController()

    const call = await start(tm, 'todos.list', {}, { signal: controller.signal })
    await act(async () => controller.abort())
    expect(await call.result).toEqual({ status: 'cancelled', by: 'signal' })
    expect(uiRequest.signal?.aborted).toBe(false)
    await act(async () => server.release())

    expect(await screen.findByText('Buy milk')).toBeInTheDocument()
    expect(server.log()).toEqual(['GET /api/todos'])
  })

  it('runs the latest select after a re-render without registering again', async () => {
    createServer([
      { id: 1, title: 'Buy milk' },
      { id: 2, title: 'Call mom' },
    ])
    const { tm, rerender } = setup({ ui: false })
    const rev = tm.rev

    rerender({ prefix: 'Call' })
    const result = await act(() => tm.call('todos.list', {}, { caller: 'inapp' }))

    expect(result).toEqual({ status: 'ok', data: [{ id: 2, title: 'Call mom' }] })
    expect(tm.rev).toBe(rev)
  })

  it('returns a generic error and reports the server error in an error event', async () => {
    const server = createServer()
    server.fail(503)
    const { tm } = setup({ ui: false })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))

    const result = await act(() => tm.call('todos.list', {}, { caller: 'inapp' }))

    expect(result).toEqual({ status: 'error', message: 'Query failed' })
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ code: 'query_failed', tool: 'todos.list' })
    expect(String(errors[0].cause)).toContain('db-7.internal')
  })
})

describe('useMutationTool', () => {
  it('invalidates the named keys after success so the UI list refetches', async () => {
    const server = createServer()
    const { tm, client } = setup()
    await waitFor(() => expect(items()).toEqual(['Buy milk']))

    const result = await act(() => tm.call('todos.add', { title: 'Call mom' }, { caller: 'inapp' }))

    expect(result).toEqual({ status: 'ok', data: { id: 100, title: 'Call mom' } })
    // The result waits for the refetch: an agent reading next sees what it wrote.
    expect(client.getQueryData(['todos'])).toEqual([
      { id: 1, title: 'Buy milk' },
      { id: 100, title: 'Call mom' },
    ])
    expect(server.log()).toEqual(['GET /api/todos', 'POST /api/todos', 'GET /api/todos'])
    await waitFor(() => expect(items()).toEqual(['Buy milk', 'Call mom']))
  })

  it('runs its check before the mutation and refuses without sending anything', async () => {
    const tm = createToolmark()
    const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } })
    const mutationFn = vi.fn(async ({ title }: { title: string }) => ({ id: 1, title }))
    function Tools() {
      useMutationTool({
        name: 'todos.add',
        description: 'Adds a todo with this title.',
        input: AddTodo,
        hints: {},
        check: ({ title }) =>
          title === 'Buy milk' ? refuse('duplicate', 'There is such a todo already') : undefined,
        mutationFn,
      })
      return null
    }
    render(
      <StrictMode>
        <QueryClientProvider client={client}>
          <ToolProvider toolmark={tm}>
            <Tools />
          </ToolProvider>
        </QueryClientProvider>
      </StrictMode>,
    )
    await waitFor(() => expect(tm.describe('todos.add')).toBeDefined())

    const refused = await act(() =>
      tm.call('todos.add', { title: 'Buy milk' }, { caller: 'inapp' }),
    )
    const added = await act(() => tm.call('todos.add', { title: 'Call mom' }, { caller: 'inapp' }))

    expect(refused).toEqual({
      status: 'refused',
      code: 'duplicate',
      message: 'There is such a todo already',
    })
    expect(added).toEqual({ status: 'ok', data: { id: 1, title: 'Call mom' } })
    expect(mutationFn).toHaveBeenCalledTimes(1)
  })

  it('shows an agent mutation to useIsMutating and useMutationState while it runs', async () => {
    const server = createServer()
    const { tm, client } = setup()
    await waitFor(() => expect(items()).toEqual(['Buy milk']))
    server.hold()

    const call = await start(tm, 'todos.add', { title: 'Call mom' })

    expect(await screen.findByText('Saving: 1')).toBeInTheDocument()
    expect(screen.getByText('Adding: Call mom')).toBeInTheDocument()
    expect(client.getMutationCache().getAll()[0].meta).toEqual({
      toolmark: { tool: 'todos.add', callId: expect.any(String), caller: 'inapp' },
    })

    await act(async () => server.release())
    expect((await call.result).status).toBe('ok')
    expect(await screen.findByText('Saving: 0')).toBeInTheDocument()
    await waitFor(() => expect(items()).toEqual(['Buy milk', 'Call mom']))
  })

  it('undoes a call by running the inverse through the mutation cache and refetching', async () => {
    const server = createServer()
    const { tm, client } = setup()
    const callIds: string[] = []
    tm.events.on('call', (event) => callIds.push(event.callId))
    await waitFor(() => expect(items()).toEqual(['Buy milk']))
    await act(() => tm.call('todos.add', { title: 'Call mom' }, { caller: 'inapp' }))
    await waitFor(() => expect(items()).toEqual(['Buy milk', 'Call mom']))

    const undone = await act(() => tm.undo(callIds[0]))

    expect(undone).toEqual({ status: 'ok', data: null })
    await waitFor(() => expect(items()).toEqual(['Buy milk']))
    expect(server.log().slice(-2)).toEqual(['DELETE /api/todos/100', 'GET /api/todos'])
    const inverse = client.getMutationCache().getAll()[1]
    expect(inverse.state.status).toBe('success')
    expect(inverse.meta).toMatchObject({ toolmark: { tool: 'todos.add', undo: true } })
    expect(await act(() => tm.undo(callIds[0]))).toMatchObject({ code: 'undo_unavailable' })
  })

  it('returns a generic error for a server error and keeps the details for the error event', async () => {
    const server = createServer()
    const { tm } = setup()
    await waitFor(() => expect(items()).toEqual(['Buy milk']))
    const errors: ErrorEvent[] = []
    tm.events.on('error', (event) => errors.push(event))
    server.fail(500)

    const result = await act(() => tm.call('todos.add', { title: 'Call mom' }, { caller: 'inapp' }))

    expect(result).toEqual({ status: 'error', message: 'Mutation failed' })
    expect(JSON.stringify(result)).not.toContain('db-7')
    expect(errors).toEqual([
      expect.objectContaining({ code: 'mutation_failed', tool: 'todos.add' }),
    ])
    expect(String(errors[0].cause)).toContain('answered 500')
    expect(tm.canUndo(errors[0].callId!)).toBe(false)
  })

  it('aborts the request and ends cancelled when the call is aborted mid-flight', async () => {
    const server = createServer()
    const { tm } = setup({ ui: false })
    server.hold()
    const controller = new AbortController()

    const call = await start(tm, 'todos.add', { title: 'Call mom' }, { signal: controller.signal })
    await waitFor(() => expect(server.log()).toEqual(['POST /api/todos']))
    await act(async () => controller.abort())

    expect(await call.result).toEqual({ status: 'cancelled', by: 'signal' })
    expect(server.requests[0].signal?.aborted).toBe(true)
  })

  it('runs a consequential mutation only after a person approves it', async () => {
    const server = createServer()
    const { tm } = setup({ consequential: true })
    await waitFor(() => expect(items()).toEqual(['Buy milk']))

    const asked = await act(() => tm.call('todos.add', { title: 'Call mom' }, { caller: 'inapp' }))
    expect(asked.status).toBe('needs_confirmation')
    expect(server.log()).toEqual(['GET /api/todos'])

    const approved = await act(() =>
      tm.confirmations.approve((asked as { confirmId: string }).confirmId),
    )
    expect(approved).toEqual({ status: 'ok', data: { id: 100, title: 'Call mom' } })
    await waitFor(() => expect(items()).toEqual(['Buy milk', 'Call mom']))
  })
})
