import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { bridge, createInPageChannel } from '@toolmark/core/bridge'
import { createPageClient, pageTools } from '@toolmark/core/agent'

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()!()
})

function page(register?: (tm: Toolmark) => void) {
  const tm = createToolmark({ dev: true })
  tm.register({
    name: 'tickets.close',
    title: 'Close ticket',
    description: 'Closes a ticket',
    hints: { consequential: true },
    input: z.object({ id: z.number() }),
    summary: (input) => `Close ticket #${input.id}`,
    run: (input) => ok({ id: input.id, status: 'closed' }),
  })
  register?.(tm)
  const channel = createInPageChannel()
  const stop = tm.use(bridge({ transport: channel.page }))
  const client = createPageClient({ transport: channel.agent })
  cleanups.push(() => (client.close(), stop(), channel.close()))
  return { tm, client, channel }
}

/** An `onNeedsConfirmation` listener, and a promise of the first result it hears. */
function asked() {
  let heard!: (result: unknown) => void
  const first = new Promise<any>((resolve) => (heard = resolve))
  const listener = vi.fn((result: unknown) => heard(result))
  return { listener, first }
}

/** Resolves once the page holds `count` pending confirmations. */
function pending(tm: Toolmark, count = 1) {
  return new Promise<string[]>((resolve) => {
    const check = () => {
      const ids = tm.confirmations.list().map((entry) => entry.id)
      if (ids.length < count) return false
      stop()
      resolve(ids)
      return true
    }
    const stop = tm.events.on('confirm', () => void queueMicrotask(check))
    check()
  })
}

describe('pageTools with awaitConfirmation', () => {
  it('returns the final outcome of an approved call in the same tool result', async () => {
    const { tm, client } = page()
    await client.ready
    const [call] = pageTools(client, { format: 'anthropic', awaitConfirmation: true })
    const waiting = asked()
    const result = call.execute(
      { tool: 'tickets.close', input: { id: 12 } },
      { onNeedsConfirmation: waiting.listener },
    )
    const [id] = await pending(tm)
    expect(await waiting.first).toMatchObject({
      status: 'needs_confirmation',
      confirmId: id,
      summary: 'Close ticket #12',
    })
    await tm.confirmations.approve(id)
    expect(waiting.listener).toHaveBeenCalledTimes(1)
    expect(await result).toEqual({
      status: 'ok',
      data: { id: 12, status: 'closed' },
      approvalAsked: 'Close ticket #12',
    })
  })

  it('returns cancelled operator when the person says no', async () => {
    const { tm, client } = page()
    await client.ready
    const tools = pageTools(client, { format: 'openai', awaitConfirmation: { timeoutMs: 60_000 } })
    const result = tools[0].execute('{"tool":"tickets.close","input":{"id":3}}')
    const [id] = await pending(tm)
    await tm.confirmations.reject(id, 'Not yet')
    expect(await result).toEqual({
      status: 'cancelled',
      by: 'operator',
      approvalAsked: 'Close ticket #3',
    })
  })

  it('gets the outcome when the person decided before the agent started waiting', async () => {
    const { tm, client } = page()
    // Approves every request at once, before the needs_confirmation result has even left.
    tm.events.on('confirm', (event) => {
      if (event.status === 'pending') void tm.confirmations.approve(event.entry.id)
    })
    await client.ready
    const [call] = pageTools(client, { format: 'anthropic', awaitConfirmation: true })
    expect(await call.execute({ tool: 'tickets.close', input: { id: 5 } })).toEqual({
      status: 'ok',
      data: { id: 5, status: 'closed' },
      approvalAsked: 'Close ticket #5',
    })
  })

  it('keeps overlapping calls apart when the person answers in reverse order', async () => {
    const { tm, client } = page((registry) => {
      const other = registry.scope('other')
      registry.register(
        {
          name: 'close',
          description: 'Closes elsewhere',
          hints: { consequential: true },
          input: z.object({ id: z.number() }),
          summary: (input) => `Close other #${input.id}`,
          run: (input) => ok({ other: input.id }),
        },
        { scope: other },
      )
    })
    await client.ready
    const [call] = pageTools(client, { format: 'anthropic', awaitConfirmation: true })
    const first = call.execute({ tool: 'tickets.close', input: { id: 1 } })
    const second = call.execute({ tool: 'other.close', input: { id: 2 } })
    const ids = await pending(tm, 2)
    const entries = tm.confirmations.list()
    await tm.confirmations.approve(entries.find((e) => e.tool === 'other.close')!.id)
    await tm.confirmations.reject(entries.find((e) => e.tool === 'tickets.close')!.id)
    expect(ids).toHaveLength(2)
    expect(await second).toEqual({
      status: 'ok',
      data: { other: 2 },
      approvalAsked: 'Close other #2',
    })
    expect(await first).toEqual({
      status: 'cancelled',
      by: 'operator',
      approvalAsked: 'Close ticket #1',
    })
  })

  it('on timeout returns needs_confirmation with a note; the outcome can be awaited later', async () => {
    const { tm, client } = page()
    await client.ready
    const confirmed = vi.fn()
    client.onConfirmed(confirmed)
    const [call] = pageTools(client, { format: 'anthropic', awaitConfirmation: { timeoutMs: 30 } })
    const result = await call.execute({ tool: 'tickets.close', input: { id: 9 } })
    expect(result).toEqual({
      status: 'needs_confirmation',
      confirmId: expect.any(String),
      summary: 'Close ticket #9',
      note: expect.stringContaining('The person has not decided yet'),
    })
    if (result.status !== 'needs_confirmation') throw new Error('unreachable')
    expect(result.note).toContain(`confirmation ${result.confirmId} is reported when they decide`)
    // The page still waits for the person; their answer reaches the client afterwards.
    const later = client.outcome(result.confirmId)
    await tm.confirmations.approve(result.confirmId)
    expect(await later).toEqual({ status: 'ok', data: { id: 9, status: 'closed' } })
    expect(confirmed).toHaveBeenCalledWith(
      expect.objectContaining({ confirmId: result.confirmId, tool: 'tickets.close' }),
    )
  })

  it('uses the note the app gives', async () => {
    const { client } = page()
    await client.ready
    const note = 'The user has not answered yet. Tell them the request is waiting in the dialog.'
    const [call] = pageTools(client, {
      format: 'anthropic',
      awaitConfirmation: { timeoutMs: 1, note },
    })
    expect(await call.execute({ tool: 'tickets.close', input: { id: 1 } })).toMatchObject({
      status: 'needs_confirmation',
      note,
    })
  })

  it("stops waiting when the agent's signal aborts, without cancelling the confirmation", async () => {
    const { tm, client } = page()
    await client.ready
    const [call] = pageTools(client, { format: 'anthropic', awaitConfirmation: true })
    const controller = new AbortController()
    const waiting = asked()
    const result = call.execute(
      { tool: 'tickets.close', input: { id: 4 } },
      { signal: controller.signal, onNeedsConfirmation: waiting.listener },
    )
    await waiting.first
    controller.abort()
    expect(await result).toMatchObject({
      status: 'needs_confirmation',
      note: expect.stringContaining('has not decided yet'),
    })
    expect(tm.confirmations.list()).toHaveLength(1)
  })

  it('says the outcome is unknown when the client closes while it waits', async () => {
    const { client } = page()
    await client.ready
    const [call] = pageTools(client, { format: 'anthropic', awaitConfirmation: true })
    const waiting = asked()
    const result = call.execute(
      { tool: 'tickets.close', input: { id: 6 } },
      { onNeedsConfirmation: waiting.listener },
    )
    await waiting.first
    client.close()
    expect(await result).toMatchObject({
      status: 'needs_confirmation',
      note: expect.stringContaining('The connection to the page closed'),
    })
  })

  it('waits in direct mode too', async () => {
    const { tm, client } = page()
    await client.ready
    const tools = await pageTools(client, {
      format: 'openai',
      mode: 'direct',
      awaitConfirmation: true,
    }).current()
    const close = tools.find((tool) => tool.function.name === 'tickets__close')!
    const result = close.execute('{"id":21}')
    const [id] = await pending(tm)
    await tm.confirmations.approve(id)
    expect(await result).toEqual({
      status: 'ok',
      data: { id: 21, status: 'closed' },
      approvalAsked: 'Close ticket #21',
    })
  })

  it('tells the model how results read when it waits, and keeps the description stable', async () => {
    const { client } = page()
    await client.ready
    const [plain] = pageTools(client, { format: 'anthropic' })
    const [awaited] = pageTools(client, { format: 'anthropic', awaitConfirmation: true })
    expect(plain.description).toContain('the outcome arrives later')
    expect(awaited.description).toContain(
      'A call the user must approve waits for their decision and returns its final result, ' +
        'with approvalAsked naming what they were asked',
    )
    expect(awaited.description).not.toContain('the outcome arrives later')
    const [again] = pageTools(client, { format: 'anthropic', awaitConfirmation: { timeoutMs: 5 } })
    expect(again.description).toBe(awaited.description)
  })

  it('returns at once what needs no person', async () => {
    const { client } = page((tm) =>
      tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') }),
    )
    await client.ready
    const [call] = pageTools(client, { format: 'anthropic', awaitConfirmation: true })
    const waiting = vi.fn()
    expect(
      await call.execute({ tool: 'ping', input: {} }, { onNeedsConfirmation: waiting }),
    ).toEqual({ status: 'ok', data: 'pong' })
    expect(waiting).not.toHaveBeenCalled()
  })
})
