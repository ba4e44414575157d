import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createToolmark, grants, ok, type ToolResult } from '@toolmark/core'
import { mcpPairing, type McpPairingStatus } from '@toolmark/mcp/client'
import { createPairing } from '../src/pairing'
import { startPairingServer, type PairedPage } from '../src/pairingServer'
import { createPageLink } from '../src/pageLink'
import type { PageLink } from '../src/mcpServer'
import { ORIGIN, OriginWebSocket, testStorage, until } from './harness'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A pairing server whose paired pages are spoken to as a desktop client's calls would be. */
async function server() {
  const links: PageLink[] = []
  const pairing = createPairing()
  const running = await startPairingServer({
    port: 0,
    allowOrigins: [ORIGIN],
    pairing,
    log: () => {},
    onPaired: (page: PairedPage) => links.push(createPageLink(page, { deadlineMs: 10_000 })),
  })
  cleanups.push(() => running.close())
  return { running, pairing, links }
}

/** A page that makes grants, shows a dialog, and pairs with `code`. */
function page(port: number, code: string) {
  const tm = createToolmark({ confirm: { grants: grants() } })
  cleanups.push(tm.confirmations.attachPresenter())
  const runs: Array<{ id: number; by: string | undefined }> = []
  tm.register({
    name: 'tickets.close',
    description: 'Closes a ticket',
    input: z.object({ id: z.number() }),
    hints: { consequential: true },
    run: ({ id }, ctx) => {
      runs.push({ id, by: ctx.approval?.by })
      return ok({ closed: id })
    },
  })
  const statuses: McpPairingStatus[] = []
  const dispose = tm.use(
    mcpPairing({
      code,
      port,
      storage: testStorage(),
      WebSocket: OriginWebSocket,
      reconnect: { initialMs: 20, maxMs: 40 },
      onStatus: (status) => statuses.push(status),
    }),
  )
  cleanups.push(dispose)
  return { tm, runs, statuses, dispose }
}

/** Calls through the newest link once the page's tools reached it. */
async function call(links: PageLink[], id: number): Promise<ToolResult> {
  await until(() => links.at(-1)?.manifest() !== undefined, 'the manifest')
  return links.at(-1)!.call('tickets.close', { id }, { signal: new AbortController().signal })
}

describe('a grant to a paired MCP client', () => {
  it('ends with its connection: the client paired next is asked again', async () => {
    const { running, pairing, links } = await server()
    const { tm, runs, statuses } = page(running.port, pairing.currentCode().code)
    await until(() => statuses.includes('paired'), 'paired')

    const first = call(links, 1)
    await until(() => tm.confirmations.list().length === 1, 'the confirmation')
    await tm.confirmations.approve(tm.confirmations.list()[0].id, { grant: { for: 'session' } })
    expect(await first).toEqual(ok({ closed: 1 }))
    expect(await call(links, 2)).toEqual(ok({ closed: 2 }))
    expect(runs.map((run) => run.by)).toEqual(['api', 'grant'])
    expect(tm.confirmations.grants()).toHaveLength(1)

    // The connection drops; the page resumes, and whoever is paired now is another session.
    running.current()!.close(1011, 'server hiccup')
    await until(() => statuses.filter((s) => s === 'paired').length === 2, 'resumed')
    expect(tm.confirmations.grants()).toEqual([])
    const third = call(links, 3)
    await until(() => tm.confirmations.list().length === 1, 'a new confirmation')
    expect(runs.map((run) => run.id)).toEqual([1, 2])
    await tm.confirmations.reject(tm.confirmations.list()[0].id)
    expect(await third).toEqual({ status: 'cancelled', by: 'operator' })
  })

  it('ends when the pairing is disposed', async () => {
    const { running, pairing, links } = await server()
    const { tm, statuses, dispose } = page(running.port, pairing.currentCode().code)
    await until(() => statuses.includes('paired'), 'paired')
    const first = call(links, 1)
    await until(() => tm.confirmations.list().length === 1, 'the confirmation')
    await tm.confirmations.approve(tm.confirmations.list()[0].id, { grant: { for: 'session' } })
    expect(await first).toEqual(ok({ closed: 1 }))
    expect(tm.confirmations.grants()).toHaveLength(1)
    dispose()
    expect(tm.confirmations.grants()).toEqual([])
  })
})
