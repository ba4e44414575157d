// The matchers example of docs/testing.md, as written: matchers.test.ts checks that this file
// below these two lines is that block, character for character.
import { expect, it } from 'vitest'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import { toolmarkMatchers, type ToolmarkMatchers } from '@toolmark/core/testing'

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Matchers extends ToolmarkMatchers {}
}
expect.extend(toolmarkMatchers)

it('serves close to every agent, and asks a person first', async () => {
  const tm = createToolmark()
  // What a mounted <ConfirmDialog> does. webmcp is asked inline, while its call waits: without
  // anyone to ask, the registry hides tools that ask a person from it.
  tm.confirmations.attachPresenter()
  tm.register({
    name: 'tickets.close',
    description: 'Closes a ticket by its number once the issue is solved',
    hints: { consequential: true },
    input: z.object({ id: z.number() }),
    summary: ({ id }) => `Close ticket #${id}`,
    run: ({ id }) => ok({ changes: [{ path: 'status', before: 'open', after: 'closed' }], id }),
  })

  expect(tm).toHaveTool('tickets.close', { hints: { consequential: true }, caller: 'webmcp' })
  expect(tm.describe('tickets.close')).toBeConsequential()
  const asked = await tm.call('tickets.close', { id: 3 }, { caller: 'inapp' })
  expect(asked).toBeConsequential() // needs_confirmation
  const done = await tm.call('tickets.close', { id: 3 }, { caller: 'human' })
  expect(done).toHaveChanged('status', 'closed')
})
