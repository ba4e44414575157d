// The first example of docs/testing.md, run: the block between the markers below is that block
// with its imports left out, and the last test checks it is, character for character.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { z } from 'zod'
import { ok, type ToolDefinition } from '@toolmark/core'
import { createTestToolmark } from '@toolmark/core/testing'

const closeTicket: ToolDefinition<{ id: number }, { id: number; status: 'closed' }> = {
  name: 'tickets.close',
  description: 'Closes a ticket by its number once the issue is solved',
  hints: { consequential: true },
  input: z.object({ id: z.number() }),
  run: ({ id }) => ok({ id, status: 'closed' }),
}

it('defers an inapp call, and the scripted approval runs it as the person', async () => {
  // docs:start
  const tm = createTestToolmark({ answer: 'approve' })
  tm.register(closeTicket)

  const result = await tm.call('tickets.close', { id: 3 }, { caller: 'inapp' })
  expect(result.status).toBe('needs_confirmation') // deferred, as in production
  await tm.settled() // the scripted person has answered
  // One `result` event per call: the call's own answer. The approval ran the tool as the person,
  // and its outcome arrives with the confirmation's final `confirm` event.
  expect(tm.recorder.lastResult('tickets.close')?.status).toBe('needs_confirmation')
  const [, approved] = tm.recorder.confirmations
  expect(approved).toMatchObject({ status: 'approved', by: 'api' })
  expect(approved?.result).toEqual({ status: 'ok', data: { id: 3, status: 'closed' } })
  // docs:end
  expect(tm.recorder.results).toHaveLength(1)
})

it('is the block of docs/testing.md', () => {
  const here = path.dirname(fileURLToPath(import.meta.url))
  const own = readFileSync(fileURLToPath(import.meta.url), 'utf8')
  const block = own
    .slice(own.indexOf('  // docs:start\n') + 16, own.indexOf('  // docs:end'))
    .replace(/^ {2}/gm, '')
  const docs = readFileSync(path.join(here, '../../../../docs/testing.md'), 'utf8')
  expect(docs).toContain(block)
})
