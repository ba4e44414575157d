import type { Browser, BrowserContext, Page } from 'playwright'
import type { Ticket } from '../shared/ticket.ts'
import {
  dialog,
  freshDataDir,
  launchChromium,
  removeDir,
  startHelpdesk,
  step,
  type RunningHelpdesk,
} from './harness.ts'

// What a person can do while the dialog asks (Stop the assistant's turn), and where focus lands
// once the dialog is gone, whichever way it went.

const DESKTOP = { width: 1440, height: 900 }
const PHONE = { width: 390, height: 844 }

let app: RunningHelpdesk
let browser: Browser
let dataDir: string

beforeAll(async () => {
  dataDir = freshDataDir()
  // Native WebMCP plays a browser agent acting on the form; the flag changes nothing else.
  ;[app, browser] = await Promise.all([
    startHelpdesk({ dataDir }),
    launchChromium(['--enable-features=WebMCP']),
  ])
})

afterAll(async () => {
  await browser?.close()
  await app?.stop()
  if (dataDir) removeDir(dataDir)
})

/** Opens the app in a fresh context and waits for the queue; page errors fail the test. */
async function open(
  hash = '',
  viewport = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport })
  const page = await context.newPage()
  page.on('pageerror', (error) => {
    throw error
  })
  await page.goto(`${app.url}/${hash}`)
  await page.getByRole('list', { name: 'Tickets' }).waitFor()
  return { context, page }
}

async function getTicket(id: number): Promise<{ status: number; ticket?: Ticket }> {
  const response = await fetch(`${app.url}/api/tickets/${id}`)
  return { status: response.status, ticket: response.ok ? await response.json() : undefined }
}

async function ticketCount(): Promise<number> {
  const response = await fetch(`${app.url}/api/tickets?view=all`)
  return ((await response.json()) as { tickets: Ticket[] }).tickets.length
}

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message the assistant' })

async function ask(page: Page, text: string) {
  await composer(page).fill(text)
  await composer(page).press('Enter')
}

const lastAnswer = (page: Page) => page.locator('.bubble--assistant').last()

/** What has focus, in words a test can compare. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement
    if (!element || element === document.body) return 'body'
    const name =
      element.getAttribute('aria-label') ??
      (element instanceof HTMLInputElement ? element.value : element.textContent?.trim())
    return `${element.tagName.toLowerCase()}: ${name?.replace(/\s+/g, ' ')}`
  })

describe('Stop while the dialog asks', () => {
  it('ends the turn and withdraws its request: the dialog closes and nothing runs', async () => {
    const { context, page } = await open()
    await ask(page, 'close ticket 3')
    const close = step(page, 'tickets.close')
    await expect.poll(() => close.locator('.step__state').textContent()).toBe('Needs approval')
    await dialog(page).waitFor()

    // The panel's own Stop sits behind the modal dialog; the dialog offers its own.
    await dialog(page).getByRole('button', { name: 'Stop assistant', exact: true }).click()

    await dialog(page).waitFor({ state: 'hidden' })
    await expect.poll(() => close.locator('.step__state').textContent()).toBe('Stopped')
    expect(await close.locator('.step__detail').textContent()).toBe(
      'Stopped; the request was withdrawn and nothing changed.',
    )
    await expect.poll(() => lastAnswer(page).textContent()).toBe('Stopped.')
    // The turn is over: the composer sends again.
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor()
    await expect.poll(() => focused(page)).toBe('input: Message the assistant')
    // Nothing ran, then or later.
    await new Promise((r) => setTimeout(r, 500))
    expect((await getTicket(3)).ticket?.status).toBe('open')
    expect(await dialog(page).count()).toBe(0)

    // The withdrawn request is gone for good: asking again opens a dialog with only the new one,
    // and denying it leaves no other request behind.
    await ask(page, 'close ticket 3')
    await dialog(page).waitFor()
    expect(await dialog(page).getByRole('button', { name: 'Approve all' }).count()).toBe(0)
    await dialog(page).getByRole('button', { name: 'Deny', exact: true }).click()
    await dialog(page).waitFor({ state: 'hidden' })
    expect((await getTicket(3)).ticket?.status).toBe('open')
    await context.close()
  })

  it('withdraws the submit of a fill-and-submit round: the fill stays, no ticket is created', async () => {
    const { context, page } = await open('#/new')
    const before = await ticketCount()
    await ask(page, 'new ticket: printer jammed, high priority')
    const submit = step(page, 'ticket.submit')
    await expect.poll(() => submit.locator('.step__state').textContent()).toBe('Needs approval')
    await dialog(page).waitFor()

    await dialog(page).getByRole('button', { name: 'Stop assistant', exact: true }).click()

    await dialog(page).waitFor({ state: 'hidden' })
    await expect.poll(() => submit.locator('.step__state').textContent()).toBe('Stopped')
    expect(await step(page, 'ticket.fill').locator('.step__state').textContent()).toBe('Done')
    const form = page.getByRole('form', { name: 'New ticket' })
    expect(await form.getByLabel('Title').inputValue()).toBe('Printer jammed')
    await new Promise((r) => setTimeout(r, 500))
    expect(await ticketCount()).toBe(before)
    expect(page.url()).toMatch(/#\/new$/)
    await context.close()
  })

  it('stops from the drawer on a phone: the delete never runs, focus stays in the drawer', async () => {
    const { context, page } = await open('', PHONE)
    await page.getByRole('button', { name: 'Assistant', exact: true }).click()
    await expect.poll(() => focused(page)).toBe('input: Message the assistant')
    await ask(page, 'delete ticket 7')
    await dialog(page).waitFor()
    const stop = dialog(page).getByRole('button', { name: 'Stop assistant', exact: true })
    const box = await stop.boundingBox()
    expect(box!.x).toBeGreaterThanOrEqual(0)
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width)
    await stop.click()

    await dialog(page).waitFor({ state: 'hidden' })
    await expect
      .poll(() => step(page, 'tickets.delete').locator('.step__state').textContent())
      .toBe('Stopped')
    await expect.poll(() => focused(page)).toBe('input: Message the assistant')
    expect(await page.getByRole('complementary', { name: 'Assistant' }).isVisible()).toBe(true)
    await new Promise((r) => setTimeout(r, 500))
    expect((await getTicket(7)).status).toBe(200)
    await context.close()
  })

  it('offers no Stop for a request that is not the assistant’s', async () => {
    const { context, page } = await open('#/tickets/5')
    await page.getByRole('heading', { level: 1 }).waitFor()
    const invoked = invoke(page, 'tickets.close', { id: 5 })
    await dialog(page).waitFor()
    expect(await dialog(page).textContent()).toContain('Requested by Browser agent')
    expect(
      await dialog(page).getByRole('button', { name: 'Stop assistant', exact: true }).count(),
    ).toBe(0)
    await dialog(page).getByRole('button', { name: 'Deny', exact: true }).click()
    expect((await invoked).status).toBe('Completed')
    expect((await getTicket(5)).ticket?.status).not.toBe('closed')
    await context.close()
  })
})

/** Calls a page tool the way the browser's own agent does: native WebMCP over CDP. */
async function invoke(page: Page, toolName: string, input: object): Promise<{ status: string }> {
  // Registration follows the page's first revision; wait for the tool.
  await page.waitForFunction(
    async (name) => {
      const context = (
        document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]> } }
      ).modelContext
      return (await context.getTools()).some((tool) => tool.name === name)
    },
    toolName,
    { polling: 100 },
  )
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebMCP.enable' as never)
  const responded = new Promise<{ status: string }>((resolve) =>
    cdp.on('WebMCP.toolResponded' as never, resolve as never),
  )
  const { frameTree } = await cdp.send('Page.getFrameTree')
  await cdp.send(
    'WebMCP.invokeTool' as never,
    {
      frameId: frameTree.frame.id,
      toolName,
      input,
    } as never,
  )
  return responded
}

describe('focus after the dialog', () => {
  it('goes to the composer after Deny when the request went out with the Send button, which Stop replaces', async () => {
    const { context, page } = await open()
    await composer(page).fill('close ticket 9')
    // A click on Send, which Stop replaces while the turn runs.
    await page.getByRole('button', { name: 'Send', exact: true }).click()
    await dialog(page).waitFor()
    await dialog(page).getByRole('button', { name: 'Deny', exact: true }).click()
    await dialog(page).waitFor({ state: 'hidden' })
    await expect.poll(() => focused(page)).toBe('input: Message the assistant')
    await context.close()
  })

  it('goes back to the composer after Escape', async () => {
    const { context, page } = await open()
    await ask(page, 'close ticket 8')
    await dialog(page).waitFor()
    await page.keyboard.press('Escape')
    await dialog(page).waitFor({ state: 'hidden' })
    await expect.poll(() => focused(page)).toBe('input: Message the assistant')
    expect((await getTicket(8)).ticket?.status).not.toBe('closed')
    await context.close()
  })

  it('goes back to the field a person was in after they deny an agent’s submit of the form', async () => {
    const { context, page } = await open('#/new')
    const form = page.getByRole('form', { name: 'New ticket' })
    await form.getByLabel('Title').fill('Badge reader at the back door beeps')
    const invoked = invoke(page, 'ticket.submit', {})
    await dialog(page).waitFor()
    await dialog(page).getByRole('button', { name: 'Deny', exact: true }).click()
    expect((await invoked).status).toBe('Completed')
    await expect.poll(() => focused(page)).toBe('input: Badge reader at the back door beeps')
    await context.close()
  })

  it('goes to the saved ticket’s heading after the form it was in is submitted by an approval', async () => {
    const { context, page } = await open('#/new')
    const form = page.getByRole('form', { name: 'New ticket' })
    await form.getByLabel('Title').fill('Meeting room screen flickers')
    const invoked = invoke(page, 'ticket.submit', {})
    await dialog(page).waitFor()
    await dialog(page).getByRole('button', { name: 'Approve', exact: true }).click()
    expect((await invoked).status).toBe('Completed')
    await page.waitForURL(/#\/tickets\/\d+$/)
    await expect.poll(() => focused(page)).toBe('h1: Meeting room screen flickers')
    await context.close()
  })
})
