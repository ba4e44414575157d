import type { BrowserContext, Page } from 'playwright'
import { ask, helpdeskSuite } from './harness.ts'

// The assistant on a phone: its notices never cover where the person types, and a form it fills
// is on screen without a tap.

const PHONE = { width: 390, height: 844 }

// Native WebMCP is behind a flag in this Chromium; the flag changes nothing else.
const suite = helpdeskSuite(['--enable-features=WebMCP'])

/** Opens the app at `hash` in a fresh context of that size; page errors fail the test. */
async function open(viewport = PHONE, hash = ''): Promise<{ context: BrowserContext; page: Page }> {
  const context = await suite.browser.newContext({ viewport })
  const page = await context.newPage()
  page.on('pageerror', (error) => {
    throw error
  })
  await page.goto(`${suite.app.url}/${hash}`)
  await page.getByRole('list', { name: 'Tickets' }).waitFor()
  return { context, page }
}

/** Taps the header's Assistant button and waits for the panel (a drawer on a phone). */
async function openAssistant(page: Page) {
  await page.getByRole('button', { name: 'Assistant', exact: true }).click()
  await page.getByRole('complementary', { name: 'Assistant' }).waitFor()
}

type Box = { x: number; y: number; width: number; height: number }

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

/** Whether the element's box lies on the screen, whole or in part. */
const onScreen = (box: Box | null, viewport = PHONE) =>
  box !== null &&
  box.width > 0 &&
  box.height > 0 &&
  box.y < viewport.height &&
  box.y + box.height > 0 &&
  box.x < viewport.width &&
  box.x + box.width > 0

const composer = (page: Page) => page.locator('#assistant .assistant__composer')
const drawer = (page: Page) => page.getByRole('complementary', { name: 'Assistant' })
const newTicketForm = (page: Page) => page.getByRole('form', { name: 'New ticket' })

/** What has focus, in words a test can compare. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement
    if (!element || element === document.body) return 'body'
    return `${element.tagName.toLowerCase()}: ${element.textContent?.trim().replace(/\s+/g, ' ')}`
  })

/**
 * Three notices at once while the assistant is open: each ticket the page is sent to is not
 * there, and the page says so in a toast (and goes back to the queue).
 */
async function threeToasts(page: Page) {
  for (const id of [99_991, 99_992, 99_993]) {
    await page.evaluate((ticket) => (window.location.hash = `#/tickets/${ticket}`), id)
    await expect
      .poll(() => page.locator('.toast').last().textContent())
      .toBe(`Ticket #${id} does not exist.`)
  }
  expect(await page.locator('.toast').count()).toBe(3)
}

/** Every toast's box, beside the composer's: none may cover it. */
async function toastsOverComposer(page: Page): Promise<string[]> {
  const typing = await composer(page).boundingBox()
  expect(typing).not.toBeNull()
  const covering: string[] = []
  for (const toast of await page.locator('.toast').all()) {
    const box = (await toast.boundingBox())!
    if (overlap(box, typing!)) covering.push(`${await toast.textContent()} at y ${box.y}`)
  }
  return covering
}

describe('toasts on a phone (390×844)', () => {
  it('never cover the assistant’s composer, however many there are', async () => {
    const { context, page } = await open()
    await openAssistant(page)
    await threeToasts(page)
    expect(await toastsOverComposer(page)).toEqual([])
    // They still show, on the screen, over the drawer.
    for (const toast of await page.locator('.toast').all()) {
      expect(onScreen(await toast.boundingBox())).toBe(true)
      expect(await toast.isVisible()).toBe(true)
    }
    // The person can still type and send while they show.
    const box = page.getByRole('textbox', { name: 'Message the assistant' })
    await box.click()
    expect(await focused(page)).toBe('input: ')
    await context.close()
  })

  it('stay clear of the assistant’s column on a medium screen too', async () => {
    const medium = { width: 960, height: 800 }
    const { context, page } = await open(medium, '#/tickets/7')
    // A wide screen opens with the assistant beside the work.
    await drawer(page).waitFor()
    await page.getByRole('heading', { level: 1, name: /./ }).waitFor()
    // The ticket is deleted in another tab: this one lets it go with a long notice.
    const other = await context.newPage()
    await other.goto(`${suite.app.url}/#/tickets/7`)
    await other.getByRole('button', { name: 'Delete ticket' }).click()
    await other.getByRole('button', { name: 'Delete for good' }).click()
    const toast = page.locator('.toast')
    await expect.poll(() => toast.textContent()).toContain('Ticket #7 is no longer here')
    expect(await toastsOverComposer(page)).toEqual([])
    expect(onScreen(await toast.boundingBox(), medium)).toBe(true)
    await context.close()
  })
})

describe('a form the assistant fills on a phone (390×844)', () => {
  it('is on screen once filled, with no tap, and the dialog asks over it', async () => {
    const { context, page } = await open()
    await openAssistant(page)
    await ask(page, 'new ticket: scanner on floor 4 is offline, high priority')

    // The fill switched the screen to the form and the drawer stepped aside: the submit's
    // approval asks over the filled form.
    const dialog = page.getByRole('alertdialog')
    await dialog.waitFor()
    expect(page.url()).toMatch(/#\/new$/)
    expect(await drawer(page).count()).toBe(0)
    expect(await newTicketForm(page).isVisible()).toBe(true)

    // Deny: the form the assistant filled is the screen, its heading has focus.
    await dialog.getByRole('button', { name: 'Deny', exact: true }).click()
    await expect.poll(() => focused(page)).toBe('h1: New ticket')
    const title = newTicketForm(page).getByLabel('Title')
    expect(await title.inputValue()).toBe('Scanner on floor 4 is offline')
    expect(onScreen(await title.boundingBox())).toBe(true)
    expect(onScreen(await newTicketForm(page).getByRole('heading').boundingBox())).toBe(true)
    expect(
      await newTicketForm(page)
        .getByRole('group', { name: 'Priority' })
        .getByLabel('High')
        .isChecked(),
    ).toBe(true)
    await context.close()
  })

  it('shows the form after a fill alone (an attachment), focus on its heading', async () => {
    const { context, page } = await open()
    await openAssistant(page)
    // A pasted screenshot, as the clipboard delivers it.
    const box = page.getByRole('textbox', { name: 'Message the assistant' })
    await box.evaluate((element) => {
      const bytes = new Uint8Array(64)
      bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
      const clipboardData = new DataTransfer()
      clipboardData.items.add(new File([bytes], 'screen.png', { type: 'image/png' }))
      element.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }),
      )
    })
    await expect.poll(() => page.locator('.bubble--paste').count()).toBe(1)
    await ask(page, 'attach the screenshot I just pasted')

    await expect.poll(() => drawer(page).count()).toBe(0)
    expect(page.url()).toMatch(/#\/new$/)
    await expect.poll(() => focused(page)).toBe('h1: New ticket')
    const form = newTicketForm(page)
    expect(await form.isVisible()).toBe(true)
    expect(onScreen(await form.getByRole('heading', { name: 'New ticket' }).boundingBox())).toBe(
      true,
    )
    expect(await page.getByRole('alertdialog').count()).toBe(0)
    // The page does not scroll sideways either.
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBe(PHONE.width)
    await context.close()
  })

  it('shows the access request it fills, focus on its heading', async () => {
    const { context, page } = await open()
    await openAssistant(page)
    // Not on screen yet: the assistant opens the request, then fills what it was told.
    await ask(page, 'request access for ana@example.com')

    await expect.poll(() => drawer(page).count()).toBe(0)
    expect(page.url()).toMatch(/#\/access$/)
    const heading = page.getByRole('heading', { level: 1 })
    await expect.poll(() => focused(page)).toBe(`h1: ${await heading.textContent()}`)
    expect(onScreen(await heading.boundingBox())).toBe(true)
    // The fill wrote the first step and the wizard moved on to what is still missing.
    const system = page.getByLabel('System')
    expect(await system.isVisible()).toBe(true)
    expect(onScreen(await system.boundingBox())).toBe(true)
    await context.close()
  })

  it('leaves the drawer open while the person types, with the form waiting behind it', async () => {
    const { context, page } = await open()
    await openAssistant(page)
    const box = page.getByRole('textbox', { name: 'Message the assistant' })
    await box.fill('and make it urgent')

    // A browser agent fills the form while the person is typing to the assistant.
    const cdp = await context.newCDPSession(page)
    await cdp.send('WebMCP.enable' as never)
    const responded = new Promise<{ status: string }>((resolve) =>
      cdp.on('WebMCP.toolResponded' as never, resolve),
    )
    const { frameTree } = await cdp.send('Page.getFrameTree')
    await cdp.send(
      'WebMCP.invokeTool' as never,
      {
        frameId: frameTree.frame.id,
        toolName: 'ticket.fill',
        input: { values: { title: 'Badge reader at the side door' } },
      } as never,
    )
    expect((await responded).status).toBe('Completed')

    // What the person typed is still there, in the open drawer; the form is the screen behind it.
    await expect.poll(() => page.url()).toMatch(/#\/new$/)
    expect(await drawer(page).count()).toBe(1)
    expect(await box.inputValue()).toBe('and make it urgent')
    expect(await focused(page)).toBe('input: ')
    await page.getByRole('button', { name: 'Close the assistant' }).click()
    const title = newTicketForm(page).getByLabel('Title')
    expect(await title.inputValue()).toBe('Badge reader at the side door')
    expect(onScreen(await title.boundingBox())).toBe(true)
    await cdp.detach()
    await context.close()
  })
})
