import { afterEach, describe, expect, it } from 'vitest'
import { createToolmark, type ConfirmationEntry } from '@toolmark/core'
import { FILLED, TURN, helpDesk, shownValues } from '../../core/test/fixtures/helpDesk'
import { pairPage, startServer, toolNamesUntil } from './harness'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** MCP names tools by llmName: `ticket.fill` → `ticket__fill`. */
const mcpName = (tool: string) => tool.replace(/\./g, '__')

describe('desktop MCP keeps the ordering promise', () => {
  for (const delay of [0, 5, 100]) {
    it(`runs what the confirmation showed when slow call + fill + submit come in one turn (approved after ${delay} ms)`, async () => {
      const cli = await startServer()
      cleanups.push(() => cli.close())
      const tm = createToolmark({ dev: true })
      cleanups.push(tm.confirmations.attachPresenter())
      const { created } = helpDesk(tm)
      const paired = await pairPage(tm, cli)
      cleanups.push(() => paired.dispose())
      await toolNamesUntil(cli.client, (names) => names.includes('ticket__submit'), 'the tools')
      const entries: ConfirmationEntry[] = []
      tm.events.on('confirm', (event) => {
        if (event.status !== 'pending') return
        entries.push(event.entry)
        setTimeout(() => void tm.confirmations.approve(event.entry.id), delay)
      })
      // A model's parallel tool calls: three requests in flight at once.
      const results = await Promise.all(
        TURN.map((c) => cli.client.callTool({ name: mcpName(c.tool), arguments: c.input })),
      )
      expect(entries).toHaveLength(1)
      expect(shownValues(entries[0])).toEqual(FILLED)
      expect(results[2].structuredContent).toEqual({ status: 'ok', data: { id: 1 } })
      expect(created).toEqual([FILLED])
    })
  }
})
