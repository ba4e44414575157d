import { describe, expect, it } from 'vitest'
import { createToolmark } from '../../src/index'
import type { ConfirmationEntry } from '../../src/index'
import { webmcp } from '../../src/webmcp'
import { FILLED, TURN, helpDesk, shownValues } from '../fixtures/helpDesk'
import { createFakeModelContext, settle } from './fakeModelContext'

describe('WebMCP keeps the ordering promise', () => {
  for (const delay of [0, 5, 100]) {
    it(`runs what the inline confirmation showed when slow call + fill + submit come in one turn (approved after ${delay} ms)`, async () => {
      const tm = createToolmark()
      const { created } = helpDesk(tm)
      const ctx = createFakeModelContext()
      tm.confirmations.attachPresenter()
      tm.use(webmcp({ modelContext: ctx }))
      await settle()
      const entries: ConfirmationEntry[] = []
      tm.events.on('confirm', (event) => {
        if (event.status !== 'pending') return
        entries.push(event.entry)
        setTimeout(() => void tm.confirmations.approve(event.entry.id), delay)
      })
      // A browser agent executes the three tools at once, as a model's parallel tool calls.
      const responses = await Promise.all(TURN.map((c) => ctx.executeTool(c.tool, c.input)))
      expect(entries).toHaveLength(1)
      expect(shownValues(entries[0])).toEqual(FILLED)
      expect(responses[2].structuredContent).toEqual({ status: 'ok', data: { id: 1 } })
      expect(created).toEqual([FILLED])
    })
  }

  it('refuses stale when a fill sent after the submit changes the form while the person decides', async () => {
    const tm = createToolmark()
    const { created } = helpDesk(tm)
    const ctx = createFakeModelContext()
    tm.confirmations.attachPresenter()
    tm.use(webmcp({ modelContext: ctx }))
    await settle()
    tm.events.on('confirm', (event) => {
      if (event.status === 'pending')
        setTimeout(() => void tm.confirmations.approve(event.entry.id), 20)
    })
    const [, submitted] = await Promise.all([
      ctx.executeTool('ticket.fill', { values: { title: 'One' } }),
      ctx.executeTool('ticket.submit', {}),
      ctx.executeTool('ticket.fill', { values: { title: 'Two' } }),
    ])
    expect(submitted.structuredContent).toMatchObject({ status: 'refused', code: 'stale' })
    expect(created).toEqual([])
  })
})
