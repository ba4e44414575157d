import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createToolmark, grants, ok, type Toolmark, type ToolResult } from '@toolmark/core'
import { bridge, createInPageChannel } from '@toolmark/core/bridge'
import { createPageClient } from '@toolmark/core/agent'
import { webmcp } from '../src/webmcp'
import { createFakeModelContext, settle } from './webmcp/fakeModelContext'

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()!()
})

/** A registry that makes grants, with a consequential tool that records every run. */
function desk() {
  const tm = createToolmark({ confirm: { grants: grants() } })
  const runs: Array<{ id: number; by: string | undefined }> = []
  tm.register({
    name: 'tickets.close',
    description: 'Closes a ticket',
    input: z.object({ id: z.number() }),
    hints: { consequential: true },
    summary: ({ id }) => `Close ticket #${id}`,
    run: ({ id }, ctx) => {
      runs.push({ id, by: ctx.approval?.by })
      return ok({ closed: id })
    },
  })
  return { tm, runs }
}

/** An agent served over a fresh bridge: the page side attached, the agent's client ready. */
async function session(tm: Toolmark, caller: 'inapp' | 'mcp' = 'inapp') {
  const channel = createInPageChannel()
  const detach = tm.use(bridge({ transport: channel.page, caller }))
  const client = createPageClient({ transport: channel.agent, deadlineMs: 5_000 })
  const end = () => {
    client.close()
    detach()
    channel.close()
  }
  cleanups.push(end)
  await client.ready
  return { channel, client, end }
}

const confirmIdOf = (result: ToolResult) => {
  expect(result.status).toBe('needs_confirmation')
  return (result as { confirmId: string }).confirmId
}

describe('a grant ends with the session it was given to', () => {
  it('over a bridge: the next agent served after the bridge ends is asked again', async () => {
    const { tm, runs } = desk()
    const first = await session(tm)
    const asked = confirmIdOf(await first.client.call('tickets.close', { id: 1 }))
    await tm.confirmations.approve(asked, { grant: { for: 'session' } })
    expect(await first.client.call('tickets.close', { id: 2 })).toEqual(ok({ closed: 2 }))
    expect(runs.map((run) => run.by)).toEqual(['api', 'grant'])
    expect(tm.confirmations.grants()).toHaveLength(1)

    first.end()
    expect(tm.confirmations.grants()).toEqual([])
    const next = await session(tm)
    confirmIdOf(await next.client.call('tickets.close', { id: 3 }))
    expect(runs.map((run) => run.id)).toEqual([1, 2])
  })

  it('over a bridge: a new agent saying hello on the same wire is asked again', async () => {
    const { tm, runs } = desk()
    const first = await session(tm)
    const asked = confirmIdOf(await first.client.call('tickets.close', { id: 1 }))
    await tm.confirmations.approve(asked, { grant: { for: 'session' } })
    expect(tm.confirmations.grants()).toHaveLength(1)

    const other = createPageClient({ transport: first.channel.agent, deadlineMs: 5_000 })
    cleanups.push(() => other.close())
    await other.ready
    expect(tm.confirmations.grants()).toEqual([])
    confirmIdOf(await other.call('tickets.close', { id: 2 }))
    expect(runs.map((run) => run.id)).toEqual([1])
  })

  it('a grant approved after its bridge ended covers nothing of the next one', async () => {
    const { tm, runs } = desk()
    const first = await session(tm)
    const asked = confirmIdOf(await first.client.call('tickets.close', { id: 1 }))
    first.end()
    // The deferred request outlives the bridge; the person grants it afterwards.
    await tm.confirmations.approve(asked, { grant: { for: 'session' } })
    expect(tm.confirmations.grants()).toHaveLength(1)
    const next = await session(tm)
    expect(tm.confirmations.grants()).toEqual([])
    confirmIdOf(await next.client.call('tickets.close', { id: 2 }))
    expect(runs.map((run) => run.id)).toEqual([1])
  })

  it("ends only the grants of the bridge's own caller", async () => {
    const { tm } = desk()
    tm.confirmations.attachPresenter()
    const asked = confirmIdOf(await tm.call('tickets.close', { id: 1 }, { caller: 'test' }))
    await tm.confirmations.approve(asked, { grant: { for: 'session' } })
    const desktop = await session(tm, 'mcp')
    desktop.end()
    expect(tm.confirmations.grants().map((grant) => grant.caller)).toEqual(['test'])
    expect(await tm.call('tickets.close', { id: 2 }, { caller: 'test' })).toEqual(ok({ closed: 2 }))
  })

  it('over WebMCP: a grant ends when the consumer is torn down, and the next one asks again', async () => {
    const { tm, runs } = desk()
    cleanups.push(tm.confirmations.attachPresenter())
    const ctx = createFakeModelContext()
    const stop = tm.use(webmcp({ modelContext: ctx }))
    await settle()
    tm.events.on('confirm', (event) => {
      if (event.status === 'pending' && runs.length === 0) {
        void tm.confirmations.approve(event.entry.id, { grant: { for: 'session' } })
      }
    })
    const first = await ctx.executeTool('tickets.close', { id: 1 })
    expect(first.structuredContent).toEqual(ok({ closed: 1 }))
    const second = await ctx.executeTool('tickets.close', { id: 2 })
    expect(second.structuredContent).toEqual(ok({ closed: 2 }))
    expect(runs.map((run) => run.by)).toEqual(['api', 'grant'])

    stop()
    expect(tm.confirmations.grants()).toEqual([])
    const again = createFakeModelContext()
    cleanups.push(tm.use(webmcp({ modelContext: again })))
    await settle()
    const third = again.executeTool('tickets.close', { id: 3 })
    await settle()
    expect(tm.confirmations.list().map((entry) => entry.caller)).toEqual(['webmcp'])
    await tm.confirmations.reject(tm.confirmations.list()[0].id)
    expect((await third).structuredContent).toEqual({ status: 'cancelled', by: 'operator' })
    expect(runs.map((run) => run.id)).toEqual([1, 2])
  })
})
