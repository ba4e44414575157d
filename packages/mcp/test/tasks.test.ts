import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js'
import { createToolmark, ok, type Toolmark, type ToolResult } from '@toolmark/core'
import { servePage } from './pagePair'
import { until } from './harness'

const TASKS = { tasks: { list: {}, cancel: {} } }

/** What an approval of a confirmation that is no longer pending gets. */
const EXPIRED = {
  status: 'refused',
  code: 'confirmation_expired',
  message: 'This confirmation is unknown, used or expired',
}

/** How each confirmation ended, by id, as the page's `confirm` events tell it. */
function endsOf(tm: Toolmark) {
  const ends = new Map<string, { status: string; result: unknown }>()
  tm.events.on('confirm', (event) => {
    if (event.status !== 'pending') {
      ends.set(event.entry.id, { status: event.status, result: event.result })
    }
  })
  return ends
}

function tickets() {
  const tm = createToolmark({ dev: false })
  // A mounted dialog: without one, a tool that needs a person is not offered to MCP.
  tm.confirmations.attachPresenter()
  const closed: string[] = []
  tm.register({
    name: 'tickets.close',
    description: 'Closes a ticket.',
    input: z.object({ id: z.string() }),
    output: z.object({ id: z.string(), closed: z.boolean() }),
    hints: { consequential: true },
    summary: ({ id }) => `Close ${id}`,
    run: ({ id }) => (closed.push(id), ok({ id, closed: true })),
  })
  tm.register({
    name: 'tickets.list',
    description: 'Lists tickets.',
    hints: { readOnly: true },
    run: () => ok({ ids: ['T-1'] }),
  })
  return { tm, closed }
}

describe('MCP tasks for calls that wait on a person', () => {
  it('offers tasks only for such tools, and only to a client that declared tasks', async () => {
    const { tm } = tickets()
    const withTasks = await servePage(tm, { capabilities: TASKS })
    const listed = (await withTasks.client.listTools()).tools
    expect(listed.find((t) => t.name === 'tickets__close')!.execution).toEqual({
      taskSupport: 'optional',
    })
    expect(listed.find((t) => t.name === 'tickets__list')!.execution).toBeUndefined()
    await withTasks.close()

    const plain = await servePage(tm)
    const tools = (await plain.client.listTools()).tools
    expect(tools.every((t) => t.execution === undefined)).toBe(true)
    await plain.close()
  })

  it('an approval given after 3× the request timeout returns the result through the task', async () => {
    const { tm, closed } = tickets()
    const { client, close } = await servePage(tm, { capabilities: TASKS })
    await client.listTools()
    const timeout = 300
    const statuses: string[] = []
    const messages: unknown[] = []
    const started = Date.now()
    const approved = (async () => {
      await until(() => tm.confirmations.list().length === 1, 'the confirmation')
      await new Promise((resolve) => setTimeout(resolve, 3 * timeout + 100))
      return tm.confirmations.approve(tm.confirmations.list()[0].id)
    })()

    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'tickets__close', arguments: { id: 'T-1' } },
      CallToolResultSchema,
      { timeout },
    )) {
      messages.push(message)
      if (message.type === 'taskStatus') statuses.push(message.task.status)
    }

    expect(Date.now() - started).toBeGreaterThan(3 * timeout)
    await expect(approved).resolves.toEqual({ status: 'ok', data: { id: 'T-1', closed: true } })
    expect(messages[0]).toMatchObject({ type: 'taskCreated', task: { status: 'working' } })
    expect(statuses[0]).toBe('working')
    expect(statuses.at(-1)).toBe('completed')
    const last = messages.at(-1) as { type: string; result: Record<string, unknown> }
    expect(last.type).toBe('result')
    // The output schema still applies through the task.
    expect(last.result.structuredContent).toEqual({ id: 'T-1', closed: true })
    expect(closed).toEqual(['T-1'])
    await close()
  })

  it('cancelling the task withdraws the confirmation; nothing runs and nothing stays pending', async () => {
    const { tm, closed } = tickets()
    const answers: string[] = []
    tm.events.on('confirm', (event) => answers.push(event.status))
    const { client, close } = await servePage(tm, { capabilities: TASKS })
    await client.listTools()
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: 'tickets__close', arguments: { id: 'T-1' }, task: {} },
      },
      CreateTaskResultSchema,
    )
    const { taskId } = created.task
    await until(() => tm.confirmations.list().length === 1, 'the confirmation')
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('working')

    const cancelledTask = await client.experimental.tasks.cancelTask(taskId)

    expect(cancelledTask.status).toBe('cancelled')
    await until(() => tm.confirmations.list().length === 0, 'the withdrawal')
    expect(answers).toEqual(['pending', 'withdrawn'])
    // The person's late answer finds nothing to approve.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('cancelled')
    expect(closed).toEqual([])
    await close()
  })

  it('when the task’s TTL runs out, its confirmation is withdrawn (cancelled) and a late approval, given twice, runs nothing', async () => {
    const { tm, closed } = tickets()
    const { client, close } = await servePage(tm, { capabilities: TASKS })
    const ends = endsOf(tm)
    await client.listTools()
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: 'tickets__close', arguments: { id: 'T-1' }, task: { ttl: 200 } },
      },
      CreateTaskResultSchema,
    )
    const { taskId, ttl } = created.task
    expect(ttl).toBe(200)
    await until(() => tm.confirmations.list().length === 1, 'the confirmation')
    const { id } = tm.confirmations.list()[0]
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('working')

    await until(() => tm.confirmations.list().length === 0, 'the withdrawal at the TTL', 2_000)
    expect(ends.get(id)).toEqual({
      status: 'withdrawn',
      result: { status: 'cancelled', by: 'signal' },
    })
    await expect(client.experimental.tasks.getTask(taskId)).rejects.toThrow(/not found/i)

    const late = await Promise.all([tm.confirmations.approve(id), tm.confirmations.approve(id)])
    expect(late).toEqual([EXPIRED, EXPIRED])
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(closed).toEqual([])
    await close()
  })

  it('an approval right at the TTL, given twice, runs once and completes the task, or finds the confirmation withdrawn', async () => {
    const { tm, closed } = tickets()
    const { client, close } = await servePage(tm, { capabilities: TASKS })
    const ends = endsOf(tm)
    await client.listTools()
    const ttl = 150
    const seen = new Set<string>()
    // Just before, at and just after the moment the server ends the task.
    for (const [n, offset] of [-2, -1, 0, 0, 1, 2].entries()) {
      const ticket = `T-${n}`
      const created = await client.request(
        {
          method: 'tools/call',
          params: { name: 'tickets__close', arguments: { id: ticket }, task: { ttl } },
        },
        CreateTaskResultSchema,
      )
      const { taskId, createdAt } = created.task
      await until(() => tm.confirmations.list().length === 1, 'the confirmation')
      const { id } = tm.confirmations.list()[0]
      const at = Date.parse(createdAt) + ttl + offset
      const answers = await new Promise<ToolResult[]>((resolve) =>
        setTimeout(
          () => resolve(Promise.all([tm.confirmations.approve(id), tm.confirmations.approve(id)])),
          Math.max(0, at - Date.now()),
        ),
      )
      await new Promise((resolve) => setTimeout(resolve, 30))

      const ran = closed.filter((closedId) => closedId === ticket).length
      expect(ran, `${ticket} ran at most once`).toBeLessThanOrEqual(1)
      expect(answers[1], 'the second approval').toEqual(EXPIRED)
      if (ran === 1) {
        // The approval came first: the tool's result is the task's.
        seen.add('approved')
        expect(answers[0]).toEqual({ status: 'ok', data: { id: ticket, closed: true } })
        expect((await client.experimental.tasks.getTask(taskId)).status).toBe('completed')
        const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)
        expect(result.structuredContent).toEqual({ id: ticket, closed: true })
      } else {
        // The end came first: nothing ran, nothing is pending, the task is gone.
        seen.add('withdrawn')
        expect(answers[0]).toEqual(EXPIRED)
        expect(ends.get(id)).toEqual({
          status: 'withdrawn',
          result: { status: 'cancelled', by: 'signal' },
        })
        await expect(client.experimental.tasks.getTask(taskId)).rejects.toThrow(/not found/i)
      }
      expect(tm.confirmations.list()).toEqual([])
    }
    expect(seen.has('withdrawn')).toBe(true)
    await close()
  })

  it('a TTL longer than a timer can wait is granted as the longest one, not as an instant end', async () => {
    const { tm, closed } = tickets()
    const { client, close } = await servePage(tm, { capabilities: TASKS })
    await client.listTools()
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: 'tickets__close', arguments: { id: 'T-1' }, task: { ttl: 1e12 } },
      },
      CreateTaskResultSchema,
    )
    const { taskId, ttl } = created.task
    expect(ttl).toBe(2_147_483_647)
    await until(() => tm.confirmations.list().length === 1, 'the confirmation')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('working')
    await expect(tm.confirmations.approve(tm.confirmations.list()[0].id)).resolves.toEqual({
      status: 'ok',
      data: { id: 'T-1', closed: true },
    })
    await until(() => closed.length === 1, 'the run')
    await close()
  })

  it('a denial ends the task failed, and tasks/result still tells why', async () => {
    const { tm, closed } = tickets()
    const { client, close } = await servePage(tm, { capabilities: TASKS })
    await client.listTools()
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: 'tickets__close', arguments: { id: 'T-1' }, task: {} },
      },
      CreateTaskResultSchema,
    )
    await until(() => tm.confirmations.list().length === 1, 'the confirmation')
    await tm.confirmations.reject(tm.confirmations.list()[0].id)
    const { taskId } = created.task
    for (let i = 0; i < 50; i++) {
      if ((await client.experimental.tasks.getTask(taskId)).status !== 'working') break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('failed')
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)
    expect(result.isError).toBe(true)
    expect(result.content).toEqual([
      { type: 'text', text: JSON.stringify({ status: 'cancelled', by: 'operator' }) },
    ])
    expect(closed).toEqual([])
    await close()
  })

  it('an unknown task id and a finished task get the protocol’s own errors', async () => {
    const { tm } = tickets()
    const { client, close } = await servePage(tm, { capabilities: TASKS })
    await client.listTools()
    await expect(client.experimental.tasks.getTask('nope')).rejects.toThrow(/not found/i)
    await expect(client.experimental.tasks.cancelTask('nope')).rejects.toThrow(/not found/i)

    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: 'tickets__close', arguments: { id: 'T-1' }, task: {} },
      },
      CreateTaskResultSchema,
    )
    await until(() => tm.confirmations.list().length === 1, 'the confirmation')
    await tm.confirmations.approve(tm.confirmations.list()[0].id)
    const { taskId } = created.task
    for (let i = 0; i < 50; i++) {
      if ((await client.experimental.tasks.getTask(taskId)).status !== 'working') break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/terminal/)
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('completed')
    await close()
  })
})
