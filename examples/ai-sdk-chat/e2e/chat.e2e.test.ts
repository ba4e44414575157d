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

async function openPage(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.goto(app.url)
  await page.getByRole('form', { name: 'New ticket' }).waitFor()
  return { page, errors }
}

async function ask(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text)
  await page.getByRole('button', { name: 'Send' }).click()
}

const conversation = (page: Page) => page.getByRole('list', { name: 'Conversation' })

describe('the AI SDK chat example, started with npm run start:ai-sdk', () => {
  it('fills the form, asks the person, submits once approved, and says what happened', async () => {
    const { page, errors } = await openPage()
    await ask(page, 'File a ticket about the printer on floor 3 jamming')

    const dialog = page.getByRole('alertdialog')
    await dialog.waitFor()
    await expect
      .poll(() => dialog.textContent())
      .toContain('Create the ticket “The printer on floor 3 jamming” (normal priority)')
    // The fill already ran: the form shows what the person is asked to approve.
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
    expect(errors).toEqual([])
    await page.close()
  })

  it('tells the model when the person denies, and creates nothing', async () => {
    const { page, errors } = await openPage()
    await ask(page, 'File a ticket about the VPN being down')
    const dialog = page.getByRole('alertdialog')
    await dialog.waitFor()
    await dialog.getByRole('button', { name: 'Deny' }).click()
    await conversation(page)
      .getByText('You declined, so I did not submit the ticket. The form keeps what I filled in.')
      .waitFor()
    expect(await page.getByText('No tickets yet.').isVisible()).toBe(true)
    expect(await page.getByRole('textbox', { name: 'Title' }).inputValue()).toBe(
      'The VPN being down',
    )
    expect(errors).toEqual([])
    await page.close()
  })

  it('files a second ticket in the same conversation, asking the person again', async () => {
    const { page, errors } = await openPage()
    const dialog = page.getByRole('alertdialog')
    await ask(page, 'File a ticket about the badge reader')
    await dialog.getByRole('button', { name: 'Approve' }).click()
    await conversation(page)
      .getByText(/^Created ticket T-1/)
      .waitFor()

    // The whole conversation, tool results included, goes back with the next request.
    await ask(page, 'File a ticket about the urgent server room door')
    await expect.poll(() => dialog.textContent()).toContain('(high priority)')
    await dialog.getByRole('button', { name: 'Approve' }).click()
    await conversation(page)
      .getByText('Created ticket T-2: “The urgent server room door”.')
      .waitFor()
    expect(
      await page
        .getByRole('list', { name: 'Created tickets' })
        .getByRole('listitem')
        .allTextContents(),
    ).toEqual(['T-1 The badge reader (normal)', 'T-2 The urgent server room door (high)'])
    expect(errors).toEqual([])
    await page.close()
  })

  it('on a phone: fits the screen, says what it is, offers suggestions, and Stop works from the dialog', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } })
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    await page.goto(app.url)
    await page.getByRole('form', { name: 'New ticket' }).waitFor()

    await expect
      .poll(() => page.getByTestId('model-note').textContent())
      .toContain('a scripted model answers')
    expect(await page.locator('header').textContent()).toContain('Toolmark')
    const width = () => page.evaluate(() => document.documentElement.scrollWidth)
    expect(await width()).toBeLessThanOrEqual(390)
    const assistant = await page.getByRole('region', { name: 'Assistant' }).boundingBox()
    expect(assistant!.x).toBeGreaterThanOrEqual(0)
    expect(assistant!.x + assistant!.width).toBeLessThanOrEqual(390)
    await page.getByRole('button', { name: /^Toolmark devtools/ }).waitFor()

    await page
      .getByRole('list', { name: 'Suggestions' })
      .getByRole('button', { name: 'File a ticket: the printer on floor 3 keeps jamming' })
      .click()
    const dialog = page.getByRole('alertdialog')
    await dialog.waitFor()
    expect(await width()).toBeLessThanOrEqual(390)
    await dialog.getByRole('button', { name: 'Stop assistant' }).click()

    await dialog.waitFor({ state: 'hidden' })
    await expect
      .poll(() => conversation(page).locator('.tool-line').allTextContents())
      .toEqual(['ticket.fill ok', 'ticket.submit cancelled'])
    expect(await page.getByText('No tickets yet.').isVisible()).toBe(true)
    expect(await page.getByRole('button', { name: 'Send' }).isVisible()).toBe(true)
    // The suggestion is gone; focus is back in the composer, not lost on the page.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Message')
    expect(errors).toEqual([])
    await page.close()
  })

  it('answers a hostile tool list with a typed 400, and keeps serving', async () => {
    const post = (body: string) =>
      fetch(`${app.url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
    const deep = await post(`{"messages":[],"toolmark":${'['.repeat(200)}${']'.repeat(200)}}`)
    expect(deep.status).toBe(400)
    expect(await deep.json()).toMatchObject({ code: 'body_too_deep' })
    const wrong = await post(JSON.stringify({ messages: [], toolmark: { tools: [{ name: 'x' }] } }))
    expect(wrong.status).toBe(400)
    expect(await wrong.json()).toMatchObject({ code: 'invalid_tools' })
    const big = await post(JSON.stringify({ messages: [], pad: 'x'.repeat(5_000_000) }))
    expect(big.status).toBe(400)
    expect(await big.json()).toMatchObject({ code: 'body_too_large' })
    expect((await fetch(`${app.url}/api/health`)).ok).toBe(true)
  })
})
