// Type-checked with the project (not run): the `tools` fixture extends @playwright/test as the
// docs show, so a change to its shape that breaks `test.extend` fails `tsc`.
import { test as base } from '@playwright/test'
import { toolmarkFixtures, type PageUnderTest } from '../../src/testing'

export const test = base.extend<{ tools: PageUnderTest }>(toolmarkFixtures)

test('the fixture gives each test its page tools', async ({ tools }) => {
  await tools.waitForTool('tickets.close')
  const result = await tools.call('tickets.close', { id: 3 }, { caller: 'webmcp' })
  base.expect(result.status).toBe('ok')
})
