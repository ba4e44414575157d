import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import { webmcp } from '@toolmark/core/webmcp'

// Native WebMCP in this Chromium (156, `--enable-features=WebMCP`): a tool registered with an
// `outputSchema` is accepted and runs; tools from `getTools()` are read member by member.

interface NativeTool {
  readonly name: string
  readonly description: string
}

interface NativeModelContext {
  getTools(): Promise<NativeTool[]>
  executeTool(tool: NativeTool, input: object): Promise<string>
}

const modelContext = () =>
  (document as unknown as { modelContext: NativeModelContext }).modelContext

describe('native WebMCP with output schemas', () => {
  it('accepts a tool that carries outputSchema, lists it and runs it', async () => {
    const tm = createToolmark({ dev: false })
    tm.register({
      name: 'orders.get',
      description: 'One order.',
      input: z.object({ id: z.string() }),
      output: z.object({ id: z.string(), total: z.number() }),
      hints: { readOnly: true },
      run: ({ id }) => ok({ id, total: 12 }),
    })
    const errors: string[] = []
    tm.events.on('error', (event) => errors.push(event.code))
    const detach = tm.use(webmcp())

    let tool: NativeTool | undefined
    for (let i = 0; i < 50 && !tool; i++) {
      tool = (await modelContext().getTools()).find((t) => t.name === 'orders.get')
      if (!tool) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(errors).toEqual([])
    expect(tool?.name).toBe('orders.get')
    expect(tool?.description).toBe('One order.')
    const answer = await modelContext().executeTool(tool!, { id: 'A-1' })
    expect(JSON.parse(answer)).toMatchObject({
      structuredContent: { status: 'ok', data: { id: 'A-1', total: 12 } },
    })
    detach()
  })
})
