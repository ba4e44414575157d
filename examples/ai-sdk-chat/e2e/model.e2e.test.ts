import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createToolmark } from '@toolmark/core'
import { chatToolList } from '@toolmark/core/ai-sdk'
import { z } from 'zod'
import { handleChat } from '../server/chatRoute.ts'
import { chooseModel } from '../server/model.ts'

/** A local stand-in for an OpenAI-compatible endpoint: it records requests and streams tool calls. */
let server: Server
let baseURL: string
const received: { url: string; auth: string | undefined; body: Record<string, unknown> }[] = []
let nextArguments = '{}'

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ''
    req.on('data', (chunk) => (text += chunk))
    req.on('end', () => resolve(text))
  })

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>
    received.push({ url: req.url ?? '', auth: req.headers.authorization, body })
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'test-model',
        choices: [{ index: 0, delta, finish_reason: finish }],
      })}\n\n`
    res.write(
      chunk(
        {
          role: 'assistant',
          tool_calls: [
            {
              index: 0,
              id: 'call_1',
              type: 'function',
              function: { name: 'ticket__fill', arguments: nextArguments },
            },
          ],
        },
        null,
      ),
    )
    res.write(chunk({}, 'tool_calls'))
    res.end('data: [DONE]\n\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function pageTools() {
  const tm = createToolmark({ dev: false })
  tm.register({
    name: 'ticket.fill',
    description: 'Fills the ticket form.',
    hints: { untrustedContent: true },
    input: z.object({ values: z.object({ title: z.string().min(3) }) }),
    run: () => ({ status: 'ok', data: null }),
  })
  return JSON.parse(JSON.stringify(chatToolList(tm)))
}

async function chat(env: NodeJS.ProcessEnv) {
  const { model, label } = chooseModel(env)
  const request = new Request('http://localhost/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id: 'c1',
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'File a ticket' }] }],
      toolmark: pageTools(),
    }),
  })
  const response = await handleChat(request, model)
  return { label, response, text: await response.text() }
}

describe('the example server with an OpenAI-compatible endpoint (@ai-sdk/openai-compatible)', () => {
  it('offers the page tools with their schemas and streams the model’s tool calls to the page', async () => {
    nextArguments = JSON.stringify({ values: { title: 'Printer jams' } })
    const { label, response, text } = await chat({
      OPENAI_BASE_URL: baseURL,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MODEL: 'test-model',
    })
    expect(label).toBe(`test-model at ${baseURL}`)
    expect(response.status).toBe(200)
    const sent = received.at(-1)!
    expect(sent.url).toBe('/v1/chat/completions')
    expect(sent.auth).toBe('Bearer sk-test')
    expect(sent.body).toMatchObject({
      model: 'test-model',
      tools: [
        {
          type: 'function',
          function: {
            name: 'ticket__fill',
            description: expect.stringContaining('Fills the ticket form.'),
            parameters: { type: 'object', properties: { values: { type: 'object' } } },
          },
        },
      ],
    })
    expect(text).toContain(
      '"type":"tool-input-available","toolCallId":"call_1","toolName":"ticket__fill","input":{"values":{"title":"Printer jams"}}',
    )
  })

  it('refuses the model’s bad arguments on the server, before the page sees them', async () => {
    nextArguments = JSON.stringify({ values: { title: 42 } })
    const { text } = await chat({ OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: 'sk-test' })
    expect(text).toContain('"type":"tool-input-error","toolCallId":"call_1"')
    expect(text).toContain('values.title: Expected a string, received number')
    expect(text).not.toContain('"type":"tool-input-available"')
  })

  it('uses the scripted model when no endpoint is configured', () => {
    expect(chooseModel({}).label).toBe('the scripted model')
  })
})
