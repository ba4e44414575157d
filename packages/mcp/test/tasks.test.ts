import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js'
import { createToolmark, ok } from '@toolmark/core'
import { servePage } from './pagePair'
import { until } from './harness'

const TASKS = { tasks: { list: {}, cancel: {} } }

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
    tm.events.on('confirm', (event) => answers.push(event.type))
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
    expect(answers).toEqual(['requested', 'rejected'])
    // The person's late answer finds nothing to approve.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('cancelled')
    expect(closed).toEqual([])
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
