import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createToolmark, ok } from '../../src'
import type { JsonSchema } from '../../src'
import { webmcp } from '../../src/webmcp'
import type { WebMCPModelContext, WebMCPTool } from '../../src/webmcp'
import { createScriptedAgent } from '../../src/testing'

/**
 * A tool as Chrome 160's `getTools()` returns it: an instance of a `Tool` interface whose
 * members are getters on the prototype (no own properties, so a spread gives `{}` and
 * `JSON.stringify` gives `"{}"`), empty members `null`, and `source` where `window` was.
 */
class Tool {
  readonly #dict: WebMCPTool
  constructor(dict: WebMCPTool) {
    this.#dict = dict
  }
  get name(): string {
    return this.#dict.name
  }
  get title(): string | null {
    return this.#dict.title ?? null
  }
  get description(): string {
    return this.#dict.description
  }
  get inputSchema(): JsonSchema | null {
    return this.#dict.inputSchema ?? null
  }
  get outputSchema(): JsonSchema | null {
    return this.#dict.outputSchema ?? null
  }
  get annotations(): WebMCPTool['annotations'] | null {
    return this.#dict.annotations ?? null
  }
  get source(): string {
    return 'page'
  }
  get execute(): WebMCPTool['execute'] {
    return this.#dict.execute
  }
}

/** A model context whose `getTools()` answers with `Tool` objects, like Chrome 160. */
function chrome160Host() {
  const tools = new Map<string, WebMCPTool>()
  const context: WebMCPModelContext & { getTools(): Promise<Tool[]> } = {
    registerTool(tool, options) {
      if (tools.has(tool.name)) throw new DOMException('Duplicate tool name', 'InvalidStateError')
      tools.set(tool.name, tool)
      options?.signal?.addEventListener('abort', () => tools.delete(tool.name), { once: true })
      return undefined
    },
    async getTools() {
      return [...tools.values()].map((dict) => new Tool(dict))
    },
  }
  return context
}

function registry() {
  const tm = createToolmark({ dev: false })
  tm.register({
    name: 'tickets.get',
    description: 'One ticket.',
    input: z.object({ id: z.string() }),
    output: z.object({ id: z.string(), title: z.string() }),
    hints: { readOnly: true },
    run: ({ id }) => ok({ id, title: 'Printer jams' }),
  })
  tm.register({
    name: 'tickets.count',
    title: 'Count tickets',
    description: 'How many tickets.',
    hints: { readOnly: true },
    run: () => ok(3),
  })
  return tm
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('WebMCP as Chrome 160 ships it', () => {
  it('the fake host behaves like Chrome 160: nothing to spread or stringify', async () => {
    const host = chrome160Host()
    const tm = registry()
    tm.use(webmcp({ modelContext: host }))
    await settle()
    const [tool] = await host.getTools()
    expect(JSON.stringify(tool)).toBe('{}')
    expect({ ...tool }).toEqual({})
    expect(tool.name).toBe('tickets.count')
  })

  it('registers outputSchema with each tool that has an output schema', async () => {
    const host = chrome160Host()
    const tm = registry()
    tm.use(webmcp({ modelContext: host }))
    await settle()
    const tools = await host.getTools()
    const get = tools.find((tool) => tool.name === 'tickets.get')!
    expect(get.outputSchema).toMatchObject({
      type: 'object',
      properties: { id: { type: 'string' }, title: { type: 'string' } },
      required: ['id', 'title'],
    })
    expect(tools.find((tool) => tool.name === 'tickets.count')!.outputSchema).toBeNull()
  })

  it('the testing kit reads such tools through their members, and null members as absent', async () => {
    const host = chrome160Host()
    const tm = registry()
    tm.use(webmcp({ modelContext: host }))
    await settle()
    const agent = createScriptedAgent({
      webmcp: { listTools: async () => (await host.getTools()) as unknown as WebMCPTool[] },
    })

    const listing = await agent.listing()
    const shown = JSON.parse(listing.text) as Record<string, unknown>[]
    expect(shown.map((tool) => tool.name)).toEqual(['tickets.count', 'tickets.get'])
    expect(shown[0]).toEqual({
      name: 'tickets.count',
      title: 'Count tickets',
      description: 'How many tickets.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: { readOnlyHint: true, untrustedContentHint: false, consequentialHint: false },
    })
    expect(shown[1]).not.toHaveProperty('title')
    expect(shown[1]).toHaveProperty('outputSchema')

    const report = await agent.run([() => ({ tool: 'tickets.get', input: { id: 'T-1' } })])
    expect(report.records.map((record) => record.result)).toEqual([
      { status: 'ok', data: { id: 'T-1', title: 'Printer jams' } },
    ])
  })
})
