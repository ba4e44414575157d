import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { CreateTaskResultSchema, ErrorCode } from '@modelcontextprotocol/sdk/types.js'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { createToolmark, ok } from '@toolmark/core'
import { DEFAULT_TASK_TTL_MS, EndingTaskStore, MAX_LIVE_TASKS } from '../src/taskStore'
import { servePage } from './pagePair'
import { until } from './harness'

const TASKS = { tasks: { list: {}, cancel: {} } }

afterEach(() => {
  vi.useRealTimers()
})

function tickets() {
  const tm = createToolmark({ dev: false })
  // A mounted dialog: without one, a tool that needs a person is not offered to MCP.
  tm.confirmations.attachPresenter()
  const ran: string[] = []
  tm.register({
    name: 'tickets.close',
    description: 'Closes a ticket.',
    input: z.object({ id: z.string() }),
    hints: { consequential: true },
    summary: ({ id }) => `Close ${id}`,
    run: ({ id }) => (ran.push(`close ${id}`), ok({ id, closed: true })),
  })
  tm.register({
    name: 'tickets.list',
    description: 'Lists tickets.',
    hints: { readOnly: true },
    run: () => (ran.push('list'), ok({ ids: ['T-1'] })),
  })
  return { tm, ran }
}

/** Sends `tickets__close` as a task and returns the created task. */
async function closeAsTask(client: Client, id: string, task: Record<string, unknown> = {}) {
  const created = await client.request(
    { method: 'tools/call', params: { name: 'tickets__close', arguments: { id }, task } },
    CreateTaskResultSchema,
  )
  return created.task
}

/** The pending confirmation whose input names this ticket. */
function confirmationOf(tm: ReturnType<typeof tickets>['tm'], id: string) {
  const entry = tm.confirmations.list().find((e) => (e.input as { id: string }).id === id)
  if (!entry) throw new Error(`no confirmation for ${id}`)
  return entry.id
}

async function statusUntil(client: Client, taskId: string, status: string) {
  for (let i = 0; i < 100; i++) {
    if ((await client.experimental.tasks.getTask(taskId)).status === status) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`task ${taskId} never became ${status}`)
}

describe('MCP tasks: which calls may be tasks', () => {
  it('a task call for a tool listed without taskSupport gets -32601 and runs nothing', async () => {
    const { tm, ran } = tickets()
    const { client, close } = await servePage(tm, { capabilities: TASKS })
    const listed = (await client.listTools()).tools
    expect(listed.find((t) => t.name === 'tickets__list')!.execution).toBeUndefined()

    for (const name of ['tickets__list', 'toolmark_pairing', 'tickets__nope']) {
      await expect(
        client.request(
          { method: 'tools/call', params: { name, arguments: {}, task: {} } },
          CreateTaskResultSchema,
        ),
        name,
      ).rejects.toMatchObject({ code: ErrorCode.MethodNotFound })
    }
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(ran).toEqual([])
    expect(await client.experimental.tasks.listTasks()).toMatchObject({ tasks: [] })
    await close()
  })

  it('a client that declared no tasks (so saw no taskSupport) gets -32601 for a task call; no confirmation is filed', async () => {
    const { tm, ran } = tickets()
    const { client, close } = await servePage(tm)
    const listed = (await client.listTools()).tools
    expect(listed.find((t) => t.name === 'tickets__close')!.execution).toBeUndefined()

    await expect(closeAsTask(client, 'T-1')).rejects.toMatchObject({
      code: ErrorCode.MethodNotFound,
    })
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(tm.confirmations.list()).toEqual([])
    expect(ran).toEqual([])
    await close()
  })
})

describe('MCP tasks: time to live', () => {
  it('a task without a ttl, or with one not above 0, is granted and reports the default (one hour)', async () => {
    const { tm } = tickets()
    const { client, close } = await servePage(tm, { capabilities: TASKS })
    await client.listTools()
    expect(DEFAULT_TASK_TTL_MS).toBe(3_600_000)

    for (const [n, task] of [{}, { ttl: 0 }, { ttl: -5 }].entries()) {
      const created = await closeAsTask(client, `T-${n}`, task)
      expect(created.ttl, JSON.stringify(task)).toBe(DEFAULT_TASK_TTL_MS)
      expect((await client.experimental.tasks.getTask(created.taskId)).ttl).toBe(
        DEFAULT_TASK_TTL_MS,
      )
    }
    await close()
  })

  it('a task without a ttl ends when the default runs out, and its call hears of it', async () => {
    vi.useFakeTimers()
    const store = new EndingTaskStore()
    const task = await store.createTask({}, 1, { method: 'tools/call' })
    const ended = vi.fn()
    store.onEnd(task.taskId, ended)

    vi.advanceTimersByTime(DEFAULT_TASK_TTL_MS - 1)
    expect(await store.getTask(task.taskId)).not.toBeNull()
    expect(ended).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(await store.getTask(task.taskId)).toBeNull()
    expect(ended).toHaveBeenCalledOnce()
  })
})

describe('MCP tasks: how many are kept', () => {
  it('a full store refuses a new task (-32600) while none has finished; nothing reaches the page', async () => {
    const { tm, ran } = tickets()
    const { client, close } = await servePage(tm, {
      capabilities: TASKS,
      server: { maxTasks: 3 },
    })
    await client.listTools()
    for (const id of ['T-1', 'T-2', 'T-3']) await closeAsTask(client, id)
    await until(() => tm.confirmations.list().length === 3, 'three confirmations')

    await expect(closeAsTask(client, 'T-4')).rejects.toMatchObject({
      code: ErrorCode.InvalidRequest,
      message: expect.stringMatching(/at most 3 tasks.*none of them has finished/),
    })
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(tm.confirmations.list().map((e) => (e.input as { id: string }).id)).toEqual([
      'T-1',
      'T-2',
      'T-3',
    ])
    expect(ran).toEqual([])
    await close()
  })

  it('a full store drops the task that finished first to make room, and keeps the others', async () => {
    const { tm } = tickets()
    const { client, close } = await servePage(tm, {
      capabilities: TASKS,
      server: { maxTasks: 3 },
    })
    await client.listTools()
    const t1 = await closeAsTask(client, 'T-1')
    const t2 = await closeAsTask(client, 'T-2')
    const t3 = await closeAsTask(client, 'T-3')
    await until(() => tm.confirmations.list().length === 3, 'three confirmations')
    // T-3 finishes before T-2; T-1 keeps working.
    await tm.confirmations.approve(confirmationOf(tm, 'T-3'))
    await statusUntil(client, t3.taskId, 'completed')
    await tm.confirmations.reject(confirmationOf(tm, 'T-2'))
    await statusUntil(client, t2.taskId, 'failed')

    const t4 = await closeAsTask(client, 'T-4')
    await expect(client.experimental.tasks.getTask(t3.taskId)).rejects.toThrow(/not found/i)
    expect((await client.experimental.tasks.getTask(t2.taskId)).status).toBe('failed')
    expect((await client.experimental.tasks.getTask(t1.taskId)).status).toBe('working')
    expect((await client.experimental.tasks.getTask(t4.taskId)).status).toBe('working')

    // Full again: the one finished task left goes next; then, with none finished, a refusal.
    const t5 = await closeAsTask(client, 'T-5')
    await expect(client.experimental.tasks.getTask(t2.taskId)).rejects.toThrow(/not found/i)
    await expect(closeAsTask(client, 'T-6')).rejects.toMatchObject({
      code: ErrorCode.InvalidRequest,
    })
    const kept = (await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)
    expect(kept).toEqual([t1.taskId, t4.taskId, t5.taskId])
    await close()
  })

  it(`keeps ${MAX_LIVE_TASKS} tasks by default; the next one is refused while all are working`, async () => {
    expect(MAX_LIVE_TASKS).toBe(1_000)
    const store = new EndingTaskStore()
    for (let i = 0; i < MAX_LIVE_TASKS; i++) await store.createTask({}, i, { method: 'tools/call' })
    await expect(store.createTask({}, -1, { method: 'tools/call' })).rejects.toMatchObject({
      code: ErrorCode.InvalidRequest,
    })
    const first = (await store.listTasks()).tasks[0]
    await store.storeTaskResult(first.taskId, 'completed', { content: [] })
    await expect(store.createTask({}, -1, { method: 'tools/call' })).resolves.toMatchObject({
      status: 'working',
    })
    expect(await store.getTask(first.taskId)).toBeNull()
  })
})

describe('MCP tasks: tasks/list', () => {
  it('pages through every task once, in creation order, the last page without a cursor', async () => {
    const { tm } = tickets()
    const { client, close } = await servePage(tm, { capabilities: TASKS })
    await client.listTools()
    const created: string[] = []
    for (let i = 0; i < 25; i++) created.push((await closeAsTask(client, `T-${i}`)).taskId)

    const pages: string[][] = []
    let cursor: string | undefined
    do {
      const page = await client.experimental.tasks.listTasks(cursor)
      pages.push(page.tasks.map((t) => t.taskId))
      cursor = page.nextCursor
    } while (cursor !== undefined && pages.length < 10)

    expect(pages.map((p) => p.length)).toEqual([10, 10, 5])
    expect(pages.flat()).toEqual(created)
    await close()
  })

  it('a cursor goes on after its task even when that task is gone meanwhile', async () => {
    const { tm } = tickets()
    const { client, close } = await servePage(tm, {
      capabilities: TASKS,
      server: { maxTasks: 15 },
    })
    await client.listTools()
    const created: string[] = []
    for (let i = 0; i < 15; i++) created.push((await closeAsTask(client, `T-${i}`)).taskId)
    await until(() => tm.confirmations.list().length === 15, 'the confirmations')
    // The tenth task, the one the first page's cursor names, finishes.
    await tm.confirmations.approve(confirmationOf(tm, 'T-9'))
    await statusUntil(client, created[9], 'completed')
    const first = await client.experimental.tasks.listTasks()
    expect(first.tasks.map((t) => t.taskId)).toEqual(created.slice(0, 10))

    // The store is full: a new task drops the tenth, the only one finished.
    const last = (await closeAsTask(client, 'T-15')).taskId
    await expect(client.experimental.tasks.getTask(created[9])).rejects.toThrow(/not found/i)

    const second = await client.experimental.tasks.listTasks(first.nextCursor)
    expect(second.tasks.map((t) => t.taskId)).toEqual([...created.slice(10), last])
    expect(second.nextCursor).toBeUndefined()
    await close()
  })

  it('a cursor this server never gave gets -32602', async () => {
    const { tm } = tickets()
    const { client, close } = await servePage(tm, { capabilities: TASKS })
    await client.listTools()
    await closeAsTask(client, 'T-1')
    for (const cursor of ['nope', '99', '-1', '1.5', '1e3']) {
      await expect(client.experimental.tasks.listTasks(cursor), cursor).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
      })
    }
    await close()
  })
})
