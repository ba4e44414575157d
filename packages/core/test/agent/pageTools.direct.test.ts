import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { bridge, createInPageChannel } from '@toolmark/core/bridge'
import type { Transport } from '@toolmark/core/bridge'
import { createPageClient, pageTools } from '@toolmark/core/agent'

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()!()
})

function page() {
  const tm: Toolmark = createToolmark({ dev: true })
  const received: unknown[] = []
  tm.register({
    name: 'tickets.search',
    description: 'Searches tickets.',
    hints: { readOnly: true },
    input: z.object({
      query: z.string().max(200),
      view: z.enum(['open', 'closed']).optional(),
      page: z.object({ size: z.int().min(1).max(50).optional() }).optional(),
    }),
    run: (input) => (received.push(input), ok({ hits: 0 })),
  })
  tm.register({
    name: 'ticket.fill',
    description: 'Fills the ticket form; null clears a field.',
    input: z.object({ values: z.object({ title: z.string().nullish() }) }),
    run: (input) => (received.push(input), ok({ changes: [] })),
  })
  const channel = createInPageChannel()
  const stop = tm.use(bridge({ transport: channel.page }))
  const client = createPageClient({ transport: channel.agent })
  cleanups.push(() => (client.close(), stop(), channel.close()))
  return { tm, client, received }
}

describe("pageTools mode 'direct'", () => {
  it('gives one OpenAI tool per page tool, strict where the schema allows', async () => {
    const { client } = page()
    const tools = await pageTools(client, { format: 'openai', mode: 'direct' }).current()
    const wire = JSON.parse(JSON.stringify(tools))
    expect(wire.map((t: any) => [t.function.name, t.function.strict])).toEqual([
      ['ticket__fill', false],
      ['tickets__search', true],
    ])
    expect(wire[1].function).toEqual({
      name: 'tickets__search',
      description: '<page-supplied>Searches tickets.</page-supplied> Read-only.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          view: { anyOf: [{ type: 'string', enum: ['open', 'closed'] }, { type: 'null' }] },
          page: {
            type: ['object', 'null'],
            properties: { size: { type: ['integer', 'null'], minimum: 1, maximum: 50 } },
            required: ['size'],
            additionalProperties: false,
          },
        },
        required: ['query', 'view', 'page'],
        additionalProperties: false,
      },
      strict: true,
    })
    // Not strict: the page's own schema, as it is (null and absent mean different things).
    expect(wire[0].function.parameters).toEqual({
      type: 'object',
      properties: {
        values: {
          type: 'object',
          properties: { title: { type: ['string', 'null'] } },
        },
      },
      required: ['values'],
    })
  })

  it('drops the nulls a strict model sends for absent optionals before calling the page', async () => {
    const { client, received } = page()
    const tools = await pageTools(client, { format: 'openai', mode: 'direct' }).current()
    const search = tools.find((t) => t.function.name === 'tickets__search')!
    expect(await search.execute('{"query":"printer","view":null,"page":{"size":null}}')).toEqual({
      status: 'ok',
      data: { hits: 0 },
    })
    expect(received).toEqual([{ query: 'printer', page: {} }])
    // Without strict, a null is the model's own value and reaches the page as it is.
    const fill = tools.find((t) => t.function.name === 'ticket__fill')!
    expect(await fill.execute({ values: { title: null } })).toMatchObject({ status: 'ok' })
    expect(received[1]).toEqual({ values: { title: null } })
  })

  it('gives the Responses, Anthropic and AI SDK shapes', async () => {
    const { client } = page()
    const responses = await pageTools(client, {
      format: 'openai',
      api: 'responses',
      mode: 'direct',
    }).current()
    expect(responses.map((t) => [t.name, t.strict])).toEqual([
      ['ticket__fill', false],
      ['tickets__search', true],
    ])
    const anthropic = await pageTools(client, { format: 'anthropic', mode: 'direct' }).current()
    expect(Object.keys(JSON.parse(JSON.stringify(anthropic[1])))).toEqual([
      'name',
      'description',
      'input_schema',
    ])
    // Anthropic gets the page's schema: optional stays optional.
    expect(anthropic[1].input_schema).toMatchObject({ required: ['query'] })
    expect(anthropic[1].input_schema).not.toHaveProperty('$schema')

    const jsonSchema = vi.fn((schema: object, options: { validate: (v: unknown) => unknown }) => ({
      schema,
      validate: options.validate,
    }))
    const aiSdk = await pageTools(client, {
      format: 'ai-sdk',
      jsonSchema,
      mode: 'direct',
    }).current()
    expect(Object.keys(aiSdk)).toEqual(['ticket__fill', 'tickets__search'])
    const { validate } = aiSdk.tickets__search.inputSchema
    expect(validate({ query: 'printer' })).toEqual({ success: true, value: { query: 'printer' } })
    const refused = validate({ query: 7, view: 'all' }) as { success: false; error: Error }
    expect(refused.success).toBe(false)
    expect(refused.error.message).toBe(
      "The input does not match the tool's schema: query: Expected a string, received number; " +
        'view: Expected one of "open", "closed"',
    )
    expect(await aiSdk.tickets__search.execute({ query: 'x' })).toMatchObject({ status: 'ok' })
  })

  it('follows manifest revisions, and gives the same object for the same revision', async () => {
    const { tm, client } = page()
    const direct = pageTools(client, { format: 'anthropic', mode: 'direct' })
    const first = await direct.current()
    expect(await direct.current()).toBe(first)
    const added = tm.register({ name: 'tickets.count', description: 'Counts.', run: () => ok(1) })
    await settle()
    await settle()
    const second = await direct.current()
    expect(second.map((t) => t.name)).toEqual(['ticket__fill', 'tickets__count', 'tickets__search'])
    added.dispose()
    await settle()
    await settle()
    expect((await direct.current()).map((t) => t.name)).toEqual(['ticket__fill', 'tickets__search'])
  })

  it('waits for the first manifest, and rejects when its signal aborts first', async () => {
    const channel = createInPageChannel()
    const client = createPageClient({ transport: channel.agent })
    cleanups.push(() => (client.close(), channel.close()))
    const direct = pageTools(client, { format: 'anthropic', mode: 'direct' })
    const controller = new AbortController()
    const aborted = direct.current({ signal: controller.signal })
    controller.abort(new Error('gave up'))
    await expect(aborted).rejects.toThrow('gave up')
    const later = direct.current()
    const tm = createToolmark({ dev: true })
    tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })
    cleanups.push(tm.use(bridge({ transport: channel.page })))
    expect((await later).map((t) => t.name)).toEqual(['ping'])
  })

  it('answers arguments that are not a JSON object with invalid', async () => {
    const { client, received } = page()
    const [, search] = await pageTools(client, { format: 'anthropic', mode: 'direct' }).current()
    expect(await search.execute('{"query":')).toEqual({
      status: 'invalid',
      issues: [{ path: '', message: 'Expected a JSON object' }],
    })
    expect(await search.execute([1])).toMatchObject({ status: 'invalid' })
    expect(received).toEqual([])
  })
})

describe("pageTools mode 'direct' against a page that answers describe badly", () => {
  /** A page whose manifest lists a, b and c; describe: a ok, b gone, c never answered. */
  function fakePage() {
    const clientId = 'page_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
    const sent: any[] = []
    let deliver: (text: string) => void = () => {}
    const reply = (message: object) =>
      queueMicrotask(() => deliver(JSON.stringify({ protocol: 1, clientId, ...message })))
    let answerC = false
    const transport: Transport = {
      send(text) {
        const message = JSON.parse(text)
        sent.push(message)
        if (message.type !== 'describe') return
        const entry = (name: string) => ({
          name,
          llmName: name,
          description: `Tool ${name}`,
          hints: {},
          inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
        })
        if (message.tool === 'a' || (message.tool === 'c' && answerC)) {
          reply({
            type: 'result',
            id: message.id,
            result: { status: 'ok', data: entry(message.tool) },
          })
        } else if (message.tool === 'b') {
          const result = { status: 'refused', code: 'unknown_tool', message: 'gone' }
          reply({ type: 'result', id: message.id, result })
        }
      },
      onMessage(listener) {
        deliver = listener
        return () => {}
      },
    }
    const summary = (name: string) => ({ name, llmName: name, description: name, hints: {} })
    const client = createPageClient({ transport, deadlineMs: 20 })
    cleanups.push(() => client.close())
    deliver(
      JSON.stringify({
        protocol: 1,
        type: 'manifest',
        clientId,
        rev: 1,
        tools: [summary('a'), summary('b'), summary('c')],
      }),
    )
    return { client, sent, answer: () => (answerC = true) }
  }

  it('leaves out a tool that is gone and offers one it could not describe as free-form', async () => {
    const { client, sent, answer } = fakePage()
    const direct = pageTools(client, { format: 'openai', mode: 'direct' })
    const [first, again] = await Promise.all([direct.current(), direct.current()])
    // Concurrent callers share one describe per tool.
    expect(again).toBe(first)
    expect(sent.filter((m) => m.type === 'describe').map((m) => m.tool)).toEqual(['a', 'b', 'c'])
    expect(first.map((t) => [t.function.name, t.function.strict, t.function.parameters])).toEqual([
      [
        'a',
        true,
        {
          type: 'object',
          properties: { n: { type: 'number' } },
          required: ['n'],
          additionalProperties: false,
        },
      ],
      ['c', false, { type: 'object' }],
    ])
    // The failed description is tried again on the next call.
    answer()
    const next = await direct.current()
    expect(next.map((t) => [t.function.name, t.function.strict])).toEqual([
      ['a', true],
      ['c', true],
    ])
  })
})
