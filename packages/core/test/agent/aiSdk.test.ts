import { generateText, jsonSchema, stepCountIs } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { CallEvent } from '@toolmark/core'
import { bridge, createInPageChannel } from '@toolmark/core/bridge'
import { createPageClient, pageTools } from '@toolmark/core/agent'

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()!()
})

function page() {
  const tm = createToolmark({ dev: true })
  const calls: CallEvent[] = []
  tm.events.on('call', (event) => calls.push(event))
  tm.register({
    name: 'tickets.search',
    description: 'Searches tickets.',
    hints: { readOnly: true, untrustedContent: true },
    input: z.object({ query: z.string().max(200), view: z.enum(['open', 'closed']).optional() }),
    run: (input) => ok({ query: input.query, tickets: [{ id: 9, title: 'Printer jams' }] }),
  })
  tm.register({
    name: 'tickets.close',
    description: 'Closes a ticket.',
    hints: { consequential: true },
    input: z.object({ id: z.number().int().positive() }),
    summary: (input) => `Close ticket #${input.id}`,
    run: (input) => ok({ id: input.id, status: 'closed' }),
  })
  const channel = createInPageChannel()
  const stop = tm.use(bridge({ transport: channel.page }))
  const client = createPageClient({ transport: channel.agent })
  cleanups.push(() => (client.close(), stop(), channel.close()))
  return { tm, client, calls }
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
}

/** A model that asks for these tool calls, one per step, then answers in words. */
function scriptedModel(steps: { toolName: string; input: object }[]) {
  let step = 0
  return new MockLanguageModelV4({
    doGenerate: async () => {
      const next = steps[step++]
      if (!next) {
        return {
          content: [{ type: 'text', text: 'Done.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        }
      }
      return {
        content: [
          {
            type: 'tool-call',
            toolCallId: `call_${step}`,
            toolName: next.toolName,
            input: JSON.stringify(next.input),
          },
        ],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      }
    },
  })
}

describe('pageTools with the AI SDK (ai 7, generateText)', () => {
  it('direct mode: the SDK rejects arguments that do not match before the page sees them', async () => {
    const { client, calls } = page()
    const tools = await pageTools(client, {
      format: 'ai-sdk',
      jsonSchema,
      mode: 'direct',
    }).current()
    const model = scriptedModel([
      { toolName: 'tickets__search', input: { query: 42, view: 'all' } },
      { toolName: 'tickets__search', input: { query: 'printer' } },
    ])
    const result = await generateText({
      model,
      tools,
      prompt: 'Find printer tickets',
      stopWhen: stepCountIs(5),
    })

    const [bad, good] = result.steps
    const error = bad.content.find((part) => part.type === 'tool-error')
    expect(error).toMatchObject({ toolName: 'tickets__search' })
    expect(String((error as { error: unknown }).error)).toContain(
      'query: Expected a string, received number; view: Expected one of "open", "closed"',
    )
    expect(good.toolResults).toMatchObject([
      {
        toolName: 'tickets__search',
        output: {
          untrustedContent: true,
          status: 'ok',
          data: { query: 'printer', tickets: [{ id: 9, title: 'Printer jams' }] },
        },
      },
    ])
    // Only the valid call reached the page.
    expect(calls.map((call) => call.input)).toEqual([{ query: 'printer' }])
  })

  it('stable mode: the SDK checks page_call arguments too', async () => {
    const { client, calls } = page()
    const tools = pageTools(client, { format: 'ai-sdk', jsonSchema })
    const model = scriptedModel([
      { toolName: 'page_call', input: { tool: 7 } },
      { toolName: 'page_call', input: { tool: 'tickets.search', input: { query: 'printer' } } },
    ])
    const result = await generateText({
      model,
      tools,
      prompt: 'Find printer tickets',
      stopWhen: stepCountIs(5),
    })
    const error = result.steps[0].content.find((part) => part.type === 'tool-error')
    expect(String((error as { error: unknown }).error)).toContain(
      'input: Required; tool: Expected a string, received number',
    )
    expect(result.steps[1].toolResults[0].output).toMatchObject({ status: 'ok' })
    expect(calls).toHaveLength(1)
  })

  it('awaitConfirmation: one generateText step returns the outcome of the approved call', async () => {
    const { tm, client } = page()
    // The person approves in the page a moment after the dialog opens.
    tm.events.on('confirm', (event) => {
      if (event.status === 'pending') {
        setTimeout(() => void tm.confirmations.approve(event.entry.id), 20)
      }
    })
    await client.ready
    const tools = pageTools(client, { format: 'ai-sdk', jsonSchema, awaitConfirmation: true })
    const model = scriptedModel([
      { toolName: 'page_call', input: { tool: 'tickets.close', input: { id: 12 } } },
    ])
    const result = await generateText({
      model,
      tools,
      prompt: 'Close ticket 12',
      stopWhen: stepCountIs(3),
    })

    expect(result.steps).toHaveLength(2)
    expect(result.steps[0].toolResults).toMatchObject([
      {
        toolName: 'page_call',
        output: {
          status: 'ok',
          data: { id: 12, status: 'closed' },
          approvalAsked: 'Close ticket #12',
        },
      },
    ])
    // The model's next request already carries the final outcome.
    const prompt = model.doGenerateCalls[1].prompt
    const toolMessage = prompt.find((message) => message.role === 'tool')!
    expect(JSON.stringify(toolMessage.content)).toContain('"approvalAsked":"Close ticket #12"')
    expect(result.text).toBe('Done.')
  })

  it('direct mode: a tool that went away since the list was made answers unknown_tool', async () => {
    const { tm, client } = page()
    const handle = tm.register({ name: 'tickets.export', description: 'Exports', run: () => ok(1) })
    await new Promise((resolve) => setTimeout(resolve, 0))
    const tools = await pageTools(client, {
      format: 'ai-sdk',
      jsonSchema,
      mode: 'direct',
    }).current()
    expect(Object.keys(tools)).toContain('tickets__export')
    handle.dispose()
    const model = scriptedModel([{ toolName: 'tickets__export', input: {} }])
    const result = await generateText({ model, tools, prompt: 'Export', stopWhen: stepCountIs(3) })
    expect(result.steps[0].toolResults[0].output).toMatchObject({
      status: 'refused',
      code: 'unknown_tool',
    })
  })
})
