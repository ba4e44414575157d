import type { Browser, Page } from 'playwright'
import { launchChromium, startApp, type RunningApp } from './harness.ts'

let app: RunningApp
let browser: Browser

beforeAll(async () => {
  ;[app, browser] = await Promise.all([startApp(), launchChromium()])
})

afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

async function openPage(): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } })
  const errors: string[] = []
  const requests: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('request', (request) => {
    if (request.url().endsWith('/api/chat')) requests.push(request.postData() ?? '')
  })
  await page.goto(`${app.url}/assistant-ui.html`)
  await page.getByRole('form', { name: 'New ticket' }).waitFor()
  return { page, errors, requests }
}

async function ask(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text)
  await page.getByRole('button', { name: 'Send' }).click()
}

const conversation = (page: Page) => page.getByRole('list', { name: 'Conversation' })

// The first page load waits for Vite to optimize assistant-ui's dependencies.
describe(
  'the assistant-ui page of the AI SDK chat example (useChatRuntime)',
  { timeout: 120_000 },
  () => {
    it('fills the form, asks the person, submits once approved, and goes on by itself', async () => {
      const { page, errors, requests } = await openPage()
      await ask(page, 'File a ticket about the printer on floor 3 jamming')

      const dialog = page.getByRole('alertdialog')
      await dialog.waitFor()
      await expect
        .poll(() => dialog.textContent())
        .toContain('Create the ticket “The printer on floor 3 jamming” (normal priority)')
      expect(await page.getByRole('textbox', { name: 'Title' }).inputValue()).toBe(
        'The printer on floor 3 jamming',
      )
      await dialog.getByRole('button', { name: 'Approve' }).click()

      await conversation(page)
        .getByText('Created ticket T-1: “The printer on floor 3 jamming”.')
        .waitFor()
      expect(
        await page
          .getByRole('list', { name: 'Created tickets' })
          .getByRole('listitem')
          .allTextContents(),
      ).toEqual(['T-1 The printer on floor 3 jamming (normal)'])
      expect(await conversation(page).locator('.tool-line').allTextContents()).toEqual([
        'ticket.fill ok',
        'ticket.submit ok',
      ])
      // Two requests, both with the page's tools for the route to check arguments against.
      expect(requests).toHaveLength(2)
      for (const body of requests) {
        const posted = JSON.parse(body) as { toolmark: { tools: { name: string }[] } }
        expect(posted.toolmark.tools.map((tool) => tool.name)).toEqual([
          'ticket.fill',
          'ticket.state',
          'ticket.submit',
        ])
      }
      expect(errors).toEqual([])
      await page.close()
    })

    it('Stop in the dialog runs nothing and sends nothing more until the person writes again', async () => {
      const { page, errors, requests } = await openPage()
      await ask(page, 'File a ticket about the VPN being down')
      const dialog = page.getByRole('alertdialog')
      await dialog.waitFor()
      await dialog.getByRole('button', { name: 'Stop assistant' }).click()
      await dialog.waitFor({ state: 'hidden' })
      await expect
        .poll(() => conversation(page).locator('.tool-line').allTextContents())
        .toEqual(['ticket.fill ok', 'ticket.submit not run'])
      await page.waitForTimeout(500)
      expect(requests).toHaveLength(1)
      expect(await page.getByText('No tickets yet.').isVisible()).toBe(true)
      expect(errors).toEqual([])
      await page.close()
    })
  },
)
