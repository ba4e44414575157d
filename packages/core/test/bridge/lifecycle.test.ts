import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { ConfirmationEntry, StandardSchemaV1, ToolResult } from '@toolmark/core'
import { bridge, createInPageChannel } from '@toolmark/core/bridge'
import { createPageClient } from '@toolmark/core/agent'
import type { PageConfirmedEvent } from '@toolmark/core/agent'
import { FILLED, TURN, helpDesk, shownValues } from '../fixtures/helpDesk'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()!()
})

function connect(confirm: 'deferred' | 'inline') {
  const tm = createToolmark({ dev: true, confirm: { inapp: confirm } })
  const desk = helpDesk(tm)
  const channel = createInPageChannel()
  cleanups.push(tm.use(bridge({ transport: channel.page })))
  const client = createPageClient({ transport: channel.agent, deadlineMs: 5_000 })
  cleanups.push(() => client.close())
  return { tm, client, ...desk }
}

describe('the bridge keeps the ordering promise', () => {
  for (const confirm of ['deferred', 'inline'] as const) {
    for (const delay of [0, 5, 100]) {
      it(`runs what the ${confirm} confirmation showed when slow call + fill + submit come in one turn (approved after ${delay} ms)`, async () => {
        const { tm, client, created } = connect(confirm)
        if (confirm === 'inline') cleanups.push(tm.confirmations.attachPresenter())
        const entries: ConfirmationEntry[] = []
        tm.events.on('confirm', (event) => {
          if (event.status !== 'pending') return
          entries.push(event.entry)
          setTimeout(() => void tm.confirmations.approve(event.entry.id), delay)
        })
        const confirmed = new Promise<PageConfirmedEvent>((resolve) => client.onConfirmed(resolve))
        await client.ready
        const results = await Promise.all(TURN.map((c) => client.call(c.tool, c.input)))
        const submitted = results[2]
        const final: ToolResult =
          confirm === 'deferred'
            ? (expect(submitted.status).toBe('needs_confirmation'), (await confirmed).result)
            : submitted
        expect(entries).toHaveLength(1)
        expect(shownValues(entries[0])).toEqual(FILLED)
        expect(final).toEqual({ status: 'ok', data: { id: 1 } })
        expect(created).toEqual([FILLED])
      })
    }
  }

  it('ends a call whose validator never settles when the agent cancels it', async () => {
    const tm = createToolmark()
    const hanging: StandardSchemaV1<{ id: number }> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: () => new Promise(() => {}),
        jsonSchema: { input: () => ({ type: 'object' }) },
      },
    }
    tm.register({ name: 'stuck', description: 'Never validates', input: hanging, run: () => ok(1) })
    const channel = createInPageChannel()
    cleanups.push(tm.use(bridge({ transport: channel.page })))
    const client = createPageClient({ transport: channel.agent, deadlineMs: 60_000 })
    cleanups.push(() => client.close())
    await client.ready
    const controller = new AbortController()
    const pending = client.call('stuck', { id: 1 }, { signal: controller.signal })
    await sleep(10)
    const seen = new Promise<ToolResult>((resolve) =>
      tm.events.on('result', (event) => resolve(event.result)),
    )
    controller.abort()
    expect(await seen).toEqual({ status: 'cancelled', by: 'signal' })
    expect((await pending).status).toBe('cancelled')
  })

  it('delivers an error result that carried an extra key, message intact, without waiting for a deadline', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'leaky',
      description: 'Leaks',
      input: z.object({}),
      run: () =>
        ({ status: 'error', message: 'Lookup failed', detail: { sql: 'select' } }) as never,
    })
    const channel = createInPageChannel()
    cleanups.push(tm.use(bridge({ transport: channel.page })))
    const client = createPageClient({ transport: channel.agent, deadlineMs: 60_000 })
    cleanups.push(() => client.close())
    await client.ready
    const started = Date.now()
    expect(await client.call('leaky', {})).toEqual({ status: 'error', message: 'Lookup failed' })
    expect(Date.now() - started).toBeLessThan(5_000)
  })
})
