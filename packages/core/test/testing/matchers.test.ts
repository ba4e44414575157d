import { z } from 'zod'
import { createToolmark, ok } from '../../src/index'
import { toolmarkMatchers } from '../../src/testing'

expect.extend(toolmarkMatchers)

function registry() {
  const tm = createToolmark()
  tm.register({
    name: 'tickets.search',
    description: 'Searches tickets',
    hints: { readOnly: true },
    run: () => ok([]),
  })
  tm.register({
    name: 'tickets.delete',
    description: 'Deletes a ticket',
    hints: { destructive: true },
    summary: () => 'Delete it',
    input: z.object({ id: z.number() }),
    run: () => ok(true),
  })
  return tm
}

describe('toolmarkMatchers', () => {
  it('toHaveTool finds a tool by name and hints, per caller, in a registry or a manifest', () => {
    const tm = registry()
    expect(tm).toHaveTool('tickets.search', { hints: { readOnly: true } })
    expect(tm).toHaveTool('tickets.delete', { hints: { destructive: true, readOnly: false } })
    expect(tm).not.toHaveTool('tickets.delete', { caller: 'webmcp' })
    expect(tm.manifest({ caller: 'inapp' })).toHaveTool('tickets.delete')
    expect(tm).not.toHaveTool('tickets.search', { hints: { consequential: true } })
  })

  it('toHaveTool fails with the tools there are, or the hints it has', () => {
    const tm = registry()
    expect(() => expect(tm).toHaveTool('tickets.close')).toThrow(
      'expected a tool "tickets.close" for caller test; the tools are ["tickets.delete","tickets.search"]',
    )
    expect(() => expect(tm).toHaveTool('tickets.search', { hints: { destructive: true } })).toThrow(
      'expected "tickets.search" to have hints {"destructive":true}, it has {"readOnly":true}',
    )
    expect(() => expect(42).toHaveTool('x')).toThrow('toHaveTool expects a registry or a manifest')
  })

  it('toBeConsequential reads a manifest entry or a result', async () => {
    const tm = registry()
    expect(tm.describe('tickets.delete')).toBeConsequential()
    expect(tm.describe('tickets.search')).not.toBeConsequential()
    const pending = await tm.call('tickets.delete', { id: 1 }, { caller: 'inapp' })
    expect(pending).toBeConsequential()
    expect(await tm.call('tickets.search')).not.toBeConsequential()
    expect(() => expect(tm.describe('tickets.search')).toBeConsequential()).toThrow(
      'expected "tickets.search" to be consequential or destructive, its hints are {"readOnly":true}',
    )
    expect(() => expect(undefined).toBeConsequential()).toThrow('toBeConsequential expects')
  })

  it('toHaveChanged reads a fill result, a confirmation or a list of changes', () => {
    const fill = {
      status: 'ok' as const,
      data: { changes: [{ path: 'priority', before: 'low', after: 'high' }], skipped: [] },
    }
    expect(fill).toHaveChanged('priority')
    expect(fill).toHaveChanged('priority', 'high')
    expect(fill).not.toHaveChanged('priority', 'low')
    expect(fill).not.toHaveChanged('title')
    expect({
      status: 'needs_confirmation',
      confirmId: 'x',
      summary: 's',
      changes: [{ path: 'tags', after: ['a'] }],
    }).toHaveChanged('tags', ['a'])
    expect([{ path: 'title' }]).toHaveChanged('title', undefined)
    expect(() => expect(fill).toHaveChanged('priority', 'urgent')).toThrow(
      'expected "priority" to change to "urgent", it changed to "high"',
    )
    expect(() => expect(fill).toHaveChanged('title')).toThrow(
      'expected a change at "title"; the changes are at ["priority"]',
    )
    expect(() => expect({ status: 'error', message: 'x' }).toHaveChanged('a')).toThrow(
      'toHaveChanged expects a fill result',
    )
  })
})
