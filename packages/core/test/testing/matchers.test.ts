import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { createToolmark, ok } from '../../src/index'
import { createTestToolmark, toolmarkMatchers } from '../../src/testing'

const here = path.dirname(fileURLToPath(import.meta.url))

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

  it('toHaveTool on a registry that shows the caller nothing says why, tool by tool', () => {
    const tm = createToolmark()
    tm.register({
      name: 'tickets.close',
      description: 'Closes a ticket',
      hints: { consequential: true },
      summary: () => 'Close it',
      run: () => ok(true),
    })
    tm.register({
      name: 'tickets.delete',
      description: 'Deletes a ticket',
      hints: { destructive: true },
      summary: () => 'Delete it',
      run: () => ok(true),
    })
    let message = ''
    try {
      expect(tm).toHaveTool('tickets.close', { caller: 'webmcp' })
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toBe(
      'expected a tool "tickets.close" for caller webmcp; the registry exposes no tools to webmcp; ' +
        'hidden from webmcp: "tickets.close" (consequential: it asks a person, webmcp is asked inline (while its call waits) and no presenter is attached — mount <ConfirmDialog> or call tm.confirmations.attachPresenter()); ' +
        `"tickets.delete" (destructive: the default policy shows destructive tools to inapp, test, human and tour only (policy: { webmcp: { allow: ['destructive', 'consequential', 'readOnly', 'none'] } } changes that)); ` +
        'callers that see tools: inapp (2), test (2), human (2)',
    )

    // With a presenter the close is there; the delete still says why it is not.
    const detach = tm.confirmations.attachPresenter()
    expect(tm).toHaveTool('tickets.close', { caller: 'webmcp' })
    expect(() => expect(tm).toHaveTool('tickets.delete', { caller: 'mcp' })).toThrow(
      'expected a tool "tickets.delete" for caller mcp; the tools are ["tickets.close"]; hidden from mcp: "tickets.delete" (destructive: the default policy',
    )
    detach()
  })

  it('toHaveTool names the policy when it hides a tool, and says when there are no tools at all', () => {
    const tm = createTestToolmark({ policy: { test: { tools: { deny: ['tickets.*'] } } } })
    tm.register({
      name: 'tickets.search',
      description: 'Searches tickets',
      hints: { readOnly: true },
      run: () => ok([]),
    })
    expect(() => expect(tm).toHaveTool('tickets.search')).toThrow(
      'expected a tool "tickets.search" for caller test; the registry exposes no tools to test; hidden from test: "tickets.search" (readOnly: the policy for test leaves it out (policy.test.allow or policy.test.tools)); callers that see tools: inapp (1), webmcp (1), mcp (1), human (1), tour (1)',
    )
    expect(() => expect(createToolmark()).toHaveTool('tickets.search')).toThrow(
      'expected a tool "tickets.search" for caller test; the registry has no tools at all (none registered yet, or every one is in a scope with when: false)',
    )
    expect(() => expect({ rev: 0, tools: [] }).toHaveTool('tickets.search')).toThrow(
      'expected a tool "tickets.search" for caller test; the manifest lists no tools',
    )
  })

  it('the example of docs/testing.md runs as written (docsMatchersExample.test.ts is that block)', () => {
    const docs = readFileSync(path.join(here, '../../../../docs/testing.md'), 'utf8')
    const blocks = [...docs.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1])
    const example = blocks.filter((b) => b.includes("declare module 'vitest'"))
    expect(example).toHaveLength(1)
    const file = readFileSync(path.join(here, 'docsMatchersExample.test.ts'), 'utf8')
    expect(file.split('\n').slice(2).join('\n')).toBe(example[0])
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
