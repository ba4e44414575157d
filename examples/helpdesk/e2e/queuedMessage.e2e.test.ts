import { createServer, type Server } from 'node:http'
import type { Browser, Page } from 'playwright'
import type { Ticket } from '../shared/ticket.ts'
import {
  ask,
  dialog,
  freshDataDir,
  launchChromium,
  removeDir,
  startHelpdesk,
  step,
  type RunningHelpdesk,
} from './harness.ts'

// A person keeps typing while the assistant's turn goes on: what they send waits, shown under the
// conversation, and goes out once the turn ends, in order. The confirmation dialog is modal, so
// the composer cannot be reached while it asks; the turn also waits without it (the model
// thinking), and a message sent then stays queued through the dialog that follows.

const DESKTOP = { width: 1280, height: 800 }
const PHONE = { width: 390, height: 844 }

interface ChatMessage {
  role: string
  content: string | null
  tool_calls?: { id: string; function: { name: string; arguments: string } }[]
  tool_call_id?: string
}

/**
 * A stand-in for an OpenAI-compatible server: "close ticket N" calls `tickets.close`, a tool
 * result is answered in words, anything else gets "You asked: …". `hold()` keeps the next
 * answer back until the test releases it: the model is still thinking.
 */
function startStubModel() {
  const received: ChatMessage[][] = []
  let held: Promise<void> | undefined
  const server: Server = createServer(async (req, res) => {
    let text = ''
    for await (const chunk of req) text += chunk
    const { messages, model } = JSON.parse(text) as { messages: ChatMessage[]; model: string }
    received.push(messages)
    const waiting = held
    held = undefined
    await waiting
    const last = messages.at(-1)!
    const reply = (message: object) => {
      res.setHeader('Content-Type', 'application/json')
      res.end(
        JSON.stringify({
          id: `chatcmpl-${received.length}`,
          object: 'chat.completion',
          model,
          choices: [
            { index: 0, finish_reason: 'stop', message: { role: 'assistant', ...message } },
          ],
          usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
        }),
      )
    }
    const close = last.role === 'user' && /close ticket (\d+)/.exec(last.content ?? '')
    if (close) {
      const args = { tool: 'tickets.close', input: { id: Number(close[1]) } }
      return reply({
        content: null,
        tool_calls: [
          {
            id: `call_close_${close[1]}`,
            type: 'function',
            function: { name: 'page_call', arguments: JSON.stringify(args) },
          },
        ],
      })
    }
    if (last.role === 'tool') {
      const result = JSON.parse(last.content ?? '{}')
      return reply({ content: `Ticket #${result.data?.id} is ${result.data?.status}.` })
    }
    reply({ content: `You asked: ${last.content}` })
  })
  const stub = {
    server,
    received,
    url: '',
    /** Holds the next answer until the returned function is called. */
    hold(): () => void {
      let release = () => {}
      held = new Promise<void>((resolve) => (release = resolve))
      return release
    },
  }
  return new Promise<typeof stub>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      stub.url = `http://127.0.0.1:${port}/v1`
      resolve(stub)
    })
  })
}

let app: RunningHelpdesk
let browser: Browser
let dataDir: string
let stub: Awaited<ReturnType<typeof startStubModel>>

beforeAll(async () => {
  stub = await startStubModel()
  dataDir = freshDataDir()
  const env = { OPENAI_BASE_URL: stub.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'stub-model-1' }
  ;[app, browser] = await Promise.all([startHelpdesk({ dataDir, env }), launchChromium()])
})

afterAll(async () => {
  await browser?.close()
  await app?.stop()
  await new Promise((resolve) => stub?.server.close(resolve))
  if (dataDir) removeDir(dataDir)
})

async function getTicket(id: number): Promise<Ticket> {
  return (await fetch(`${app.url}/api/tickets/${id}`)).json() as Promise<Ticket>
}

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message the assistant' })
const queued = (page: Page) => page.getByRole('list', { name: 'Queued messages' })
const bubbles = (page: Page, kind: 'user' | 'assistant') =>
  page.getByRole('list', { name: 'Conversation' }).locator(`.bubble--${kind}`).allTextContents()

for (const [name, viewport, id] of [
  ['a wide screen', DESKTOP, 11],
  ['a phone', PHONE, 10],
] as const) {
  describe(`a message sent while the turn waits, on ${name}`, () => {
    it('is queued, survives the approval, and is sent and answered once the turn ends', async () => {
      const context = await browser.newContext({ viewport })
      const page = await context.newPage()
      page.on('pageerror', (error) => {
        throw error
      })
      await page.goto(`${app.url}/`)
      await page.getByRole('list', { name: 'Tickets' }).waitFor()
      if (viewport === PHONE)
        await page.getByRole('button', { name: 'Assistant', exact: true }).click()
      await page.getByText('Model: stub-model-1').waitFor()
      expect((await getTicket(id)).status).not.toBe('closed')
      const before = stub.received.length

      // The model thinks about the first request: the turn waits, and the composer stays usable.
      const release = stub.hold()
      await ask(page, `close ticket ${id}`)
      await expect.poll(() => stub.received.length).toBe(before + 1)
      await ask(page, 'what is open?')
      await ask(page, 'never mind that')
      await expect.poll(() => queued(page).locator('li').count()).toBe(2)
      expect(await queued(page).textContent()).toContain('what is open?')
      expect(await composer(page).inputValue()).toBe('')
      // Stop stays its own button; the send button queues.
      expect(await page.getByRole('button', { name: 'Stop', exact: true }).isVisible()).toBe(true)
      await page.getByRole('button', { name: 'Remove “never mind that” from the queue' }).click()
      await expect.poll(() => queued(page).locator('li').count()).toBe(1)

      // The model asks to close the ticket: the dialog asks, the queued message still waits.
      release()
      await dialog(page).waitFor()
      expect(await queued(page).textContent()).toContain('what is open?')
      expect(stub.received.length).toBe(before + 1)
      expect(await bubbles(page, 'user')).toEqual([`close ticket ${id}`])
      await dialog(page).getByRole('button', { name: 'Approve', exact: true }).click()
      await dialog(page).waitFor({ state: 'hidden' })

      // The turn ends with the model's answer; then the queued message goes out and is answered.
      await expect
        .poll(() => bubbles(page, 'assistant'))
        .toEqual([`Ticket #${id} is closed.`, 'You asked: what is open?'])
      expect(await bubbles(page, 'user')).toEqual([`close ticket ${id}`, 'what is open?'])
      expect(await queued(page).count()).toBe(0)
      expect(await step(page, 'tickets.close').locator('.step__state').textContent()).toBe('Done')
      expect((await getTicket(id)).status).toBe('closed')

      // The model read one valid thread: the tool call had its result before the next message,
      // and the removed message never went out.
      const requests = stub.received.slice(before)
      expect(requests).toHaveLength(3)
      expect(
        requests[2].map((m) =>
          m.role === 'system' ? 'system' : `${m.role}: ${m.content ?? m.tool_calls?.[0].id}`,
        ),
      ).toEqual([
        'system',
        `user: close ticket ${id}`,
        `assistant: call_close_${id}`,
        expect.stringMatching(/^tool: .*"status":"closed"/),
        `assistant: Ticket #${id} is closed.`,
        'user: what is open?',
      ])
      expect(JSON.stringify(stub.received)).not.toContain('never mind that')
      await context.close()
    })
  })
}
