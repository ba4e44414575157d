import { afterEach, describe, expect, it } from 'vitest'
import { createToolmark } from '@toolmark/core'
import { createScriptedAgent } from '@toolmark/core/testing'
import { FILLED, helpDesk } from '../../core/test/fixtures/helpDesk'
import { pairPage, startServer, toolNamesUntil } from './harness'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('a scripted agent over the real toolmark-mcp', () => {
  it('fills and submits a form in one round through the SDK client, as a person approves', async () => {
    const cli = await startServer()
    cleanups.push(() => cli.close())
    const tm = createToolmark({ dev: true })
    cleanups.push(tm.confirmations.attachPresenter())
    const { created } = helpDesk(tm)
    const paired = await pairPage(tm, cli)
    cleanups.push(() => paired.dispose())
    await toolNamesUntil(cli.client, (names) => names.includes('ticket__submit'), 'the tools')
    tm.events.on('confirm', (event) => {
      if (event.status === 'pending') void tm.confirmations.approve(event.entry.id)
    })

    // The SDK's own Client is the agent's MCP client, as it is.
    const agent = createScriptedAgent({ mcp: cli.client })
    const listing = await agent.listing()
    expect(listing.tools.map((t) => [t.name, t.shownAs])).toContainEqual([
      'ticket.fill',
      'ticket__fill',
    ])
    const report = await agent.run([
      () => [
        { tool: 'ticket.fill', input: { values: FILLED } },
        { tool: 'ticket.submit', input: {} },
      ],
    ])
    expect(report.rounds).toBe(1)
    expect(report.records.map((r) => r.result.status)).toEqual(['ok', 'ok'])
    expect(report.records[1].result).toEqual({ status: 'ok', data: { id: 1 } })
    expect([report.invalid, report.refused, report.errors]).toEqual([0, 0, 0])
    expect(report.firstListing.bytes).toBe(Buffer.byteLength(listing.text))
    expect(created).toEqual([FILLED])
  })
})
