import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createToolmark, ok, refuse } from '@toolmark/core'
import { createScriptedAgent } from '@toolmark/core/testing'
import { servePage } from './pagePair'

function tickets() {
  const tm = createToolmark({ dev: false })
  let answer: unknown = { id: 'T-1', title: 'Printer jams', open: true }
  tm.register({
    name: 'tickets.get',
    description: 'One ticket.',
    input: z.object({ id: z.string() }),
    output: z.object({ id: z.string(), title: z.string(), open: z.boolean() }),
    hints: { readOnly: true, untrustedContent: true },
    run: ({ id }) => (id === 'none' ? refuse('not_found', 'No such ticket') : ok(answer as never)),
  })
  tm.register({
    name: 'tickets.count',
    description: 'How many tickets.',
    output: z.number(),
    hints: { readOnly: true },
    run: () => ok(3),
  })
  tm.register({
    name: 'tickets.ping',
    description: 'No output schema.',
    hints: { readOnly: true },
    run: () => ok({ pong: true }),
  })
  return { tm, setAnswer: (value: unknown) => (answer = value) }
}

describe('MCP structured output', () => {
  it('lists a matching outputSchema and returns data that the SDK client validates', async () => {
    const { tm } = tickets()
    const { client, close } = await servePage(tm)
    const { tools } = await client.listTools()
    const get = tools.find((tool) => tool.name === 'tickets__get')!
    expect(get.outputSchema).toMatchObject({
      type: 'object',
      properties: { id: { type: 'string' }, title: { type: 'string' }, open: { type: 'boolean' } },
      required: ['id', 'title', 'open'],
    })

    // `callTool` validates structuredContent against the listed outputSchema and throws if not.
    const result = await client.callTool({ name: 'tickets__get', arguments: { id: 'T-1' } })

    expect(result.structuredContent).toEqual({ id: 'T-1', title: 'Printer jams', open: true })
    expect(result.isError).toBeUndefined()
    // The text block stays for clients that read text; the untrusted marks are unchanged.
    expect(result.content).toEqual([
      {
        type: 'text',
        text:
          '[untrusted page content] ' +
          JSON.stringify({ status: 'ok', data: { id: 'T-1', title: 'Printer jams', open: true } }),
      },
    ])
    expect(result._meta).toEqual({ 'toolmark/untrustedContent': true })
    await close()
  })

  it('a refusal of such a tool is an error without structuredContent, so validation does not reject it', async () => {
    const { tm } = tickets()
    const { client, close } = await servePage(tm)
    await client.listTools()
    const result = await client.callTool({ name: 'tickets__get', arguments: { id: 'none' } })
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toBeUndefined()
    expect(result.content).toEqual([
      {
        type: 'text',
        text:
          '[untrusted page content] ' +
          JSON.stringify({ status: 'refused', code: 'not_found', message: 'No such ticket' }),
      },
    ])
    await close()
  })

  it('data that does not match the schema is sent as an error, never as invalid structuredContent', async () => {
    const { tm, setAnswer } = tickets()
    const { client, close } = await servePage(tm)
    await client.listTools()
    setAnswer({ id: 'T-1', title: 42 })
    const result = await client.callTool({ name: 'tickets__get', arguments: { id: 'T-1' } })
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toBeUndefined()
    expect((result.content as { text: string }[])[0].text).toContain(
      '[output does not match its schema] {"status":"ok"',
    )
    await close()
  })

  it('a tool whose output is not an object, or has no output schema, keeps the envelope', async () => {
    const { tm } = tickets()
    const { client, close } = await servePage(tm)
    const { tools } = await client.listTools()
    expect(tools.find((tool) => tool.name === 'tickets__count')!.outputSchema).toBeUndefined()
    expect(tools.find((tool) => tool.name === 'tickets__ping')!.outputSchema).toBeUndefined()
    const count = await client.callTool({ name: 'tickets__count', arguments: {} })
    expect(count.structuredContent).toEqual({ status: 'ok', data: 3 })
    const ping = await client.callTool({ name: 'tickets__ping', arguments: {} })
    expect(ping.structuredContent).toEqual({ status: 'ok', data: { pong: true } })
    await close()
  })

  it("the testing kit's MCP surface reads the whole result from the text when structuredContent is data", async () => {
    const { tm } = tickets()
    const { client, close } = await servePage(tm)
    const agent = createScriptedAgent({ mcp: client })
    const report = await agent.run([
      () => [
        { tool: 'tickets.get', input: { id: 'T-1' } },
        { tool: 'tickets.get', input: { id: 'none' } },
      ],
    ])
    expect(report.records.map((record) => record.result)).toEqual([
      { status: 'ok', data: { id: 'T-1', title: 'Printer jams', open: true } },
      { status: 'refused', code: 'not_found', message: 'No such ticket' },
    ])
    await close()
  })
})
