import { StrictMode, useSyncExternalStore } from 'react'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { QueryClient, QueryClientProvider, useIsMutating, useQuery } from '@tanstack/react-query'
import { z } from 'zod'
import { createToolmark } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { ToolProvider, useAgentActivity } from '@toolmark/react'
import { useMutationTool, useQueryTool } from '@toolmark/react/query'
import { fitWidth } from './fitWidth'

interface Todo {
  id: number
  title: string
}

/** A small local API with network-like latency; `requests` counts what reached it. */
function createTodoApi(latencyMs = 120) {
  let todos: Todo[] = [
    { id: 1, title: 'Buy milk' },
    { id: 2, title: 'Book the dentist' },
  ]
  let nextId = 3
  let requests = 0
  const listeners = new Set<() => void>()
  const respond = <T,>(value: () => T) =>
    new Promise<T>((resolve) => {
      requests++
      for (const listener of listeners) listener()
      setTimeout(() => resolve(value()), latencyMs)
    })
  return {
    list: () => respond(() => todos),
    add: (title: string) =>
      respond(() => {
        const todo = { id: nextId++, title }
        todos = [...todos, todo]
        return todo
      }),
    remove: (id: number) =>
      respond(() => {
        todos = todos.filter((todo) => todo.id !== id)
      }),
    /** For the screen: how many requests the server has seen. */
    requests: {
      subscribe: (listener: () => void) => {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
      count: () => requests,
    },
  }
}
type TodoApi = ReturnType<typeof createTodoApi>

const AddTodo = z.object({ title: z.string().min(1).describe('What to do') })

function TodoList({ api }: { api: TodoApi }) {
  const todos = useQuery({ queryKey: ['todos'], queryFn: () => api.list() })
  const saving = useIsMutating({ mutationKey: ['todos'] })
  const requests = useSyncExternalStore(api.requests.subscribe, api.requests.count)
  return (
    <>
      <ul aria-label="Todo list">
        {todos.data?.map((todo) => (
          <li key={todo.id}>{todo.title}</li>
        ))}
      </ul>
      <p role="status" aria-label="Sync">
        {saving > 0 ? 'Saving…' : todos.isFetching ? 'Refreshing…' : 'Up to date'}
      </p>
      <p>
        Server requests: <output aria-label="Server requests">{requests}</output>
      </p>
    </>
  )
}

/** The agent's calls, with Undo, as an app would show them next to its assistant. */
function AgentLog() {
  const activity = useAgentActivity({ limit: 5 })
  return (
    <ul aria-label="Agent activity">
      {activity.map((call) => (
        <li key={call.callId}>
          {call.tool}: {call.status}{' '}
          {call.undo ? (
            <button type="button" onClick={() => void call.undo?.()}>
              Undo {call.tool}
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  )
}

function TodoTools({ api }: { api: TodoApi }) {
  useMutationTool({
    name: 'todos.add',
    title: 'Add a todo',
    description: 'Adds a todo with this title to the list.',
    input: AddTodo,
    hints: {},
    mutationKey: ['todos', 'add'],
    mutationFn: ({ title }) => api.add(title),
    invalidates: [['todos']],
    undo: (_input, todo) => api.remove(todo.id),
  })
  useQueryTool({
    name: 'todos.list',
    title: 'List todos',
    description: 'Lists every todo with its id.',
    queryKey: () => ['todos'],
    queryFn: () => api.list(),
    staleTime: 60_000,
  })
  return null
}

interface Loaded {
  tm: Toolmark
  client: QueryClient
  api: TodoApi
}

const meta = {
  title: 'Query',
  loaders: [
    (): Loaded => ({
      tm: createToolmark(),
      client: new QueryClient({ defaultOptions: { queries: { retry: false } } }),
      api: createTodoApi(),
    }),
  ],
  render: (_args, { loaded }) => {
    const { tm, client, api } = loaded as Loaded
    return (
      <StrictMode>
        <QueryClientProvider client={client}>
          <ToolProvider toolmark={tm}>
            <section
              aria-label="Todos"
              style={{ fontFamily: 'system-ui', minInlineSize: fitWidth(280) }}
            >
              <TodoTools api={api} />
              <TodoList api={api} />
              <AgentLog />
            </section>
          </ToolProvider>
        </QueryClientProvider>
      </StrictMode>
    )
  },
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

const titles = (canvas: ReturnType<typeof within>) =>
  Array.from(
    canvas.getByRole('list', { name: 'Todo list' }).querySelectorAll('li'),
    (li: Element) => li.textContent,
  )

/**
 * The agent adds a todo through `useMutationTool`: the screen says "Saving…" while the mutation
 * runs (it is in the same mutation cache as the user's), the list refetches when it is done,
 * and Undo runs the inverse mutation and removes it again.
 */
export const AgentAddsTodo: Story = {
  play: async ({ canvas, loaded }) => {
    const { tm } = loaded as Loaded
    await waitFor(() => expect(titles(canvas)).toEqual(['Buy milk', 'Book the dentist']))

    const call = tm.call('todos.add', { title: 'Call mom' }, { caller: 'inapp' })
    await waitFor(() =>
      expect(canvas.getByRole('status', { name: 'Sync' })).toHaveTextContent('Saving…'),
    )
    const result = await call

    await expect(result).toEqual({ status: 'ok', data: { id: 3, title: 'Call mom' } })
    await waitFor(() =>
      expect(titles(canvas)).toEqual(['Buy milk', 'Book the dentist', 'Call mom']),
    )

    await userEvent.click(await canvas.findByRole('button', { name: 'Undo todos.add' }))
    await waitFor(() => expect(titles(canvas)).toEqual(['Buy milk', 'Book the dentist']))
    await waitFor(() =>
      expect(canvas.getByRole('status', { name: 'Sync' })).toHaveTextContent('Up to date'),
    )
  },
}

/**
 * The agent reads the list through `useQueryTool` with a `staleTime`: it gets what the screen
 * shows, from the cache, and the server sees no extra request.
 */
export const CachedRead: Story = {
  play: async ({ canvas, loaded }) => {
    const { tm } = loaded as Loaded
    await waitFor(() => expect(titles(canvas)).toEqual(['Buy milk', 'Book the dentist']))
    const requests = canvas.getByLabelText('Server requests').textContent

    const result = await tm.call('todos.list', {}, { caller: 'webmcp' })

    await expect(result).toEqual({
      status: 'ok',
      data: [
        { id: 1, title: 'Buy milk' },
        { id: 2, title: 'Book the dentist' },
      ],
    })
    await expect(canvas.getByLabelText('Server requests').textContent).toBe(requests)
    await expect(tm.describe('todos.list', { caller: 'webmcp' })?.hints).toEqual({
      readOnly: true,
      untrustedContent: true,
    })
  },
}
