import { createRequire } from 'node:module'
import type { Browser, BrowserContext, Page } from 'playwright'
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

// The showcase as a newcomer meets it: on a phone, in two tabs, across a reload, from the
// keyboard, with axe, in light and dark.

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

const DESKTOP = { width: 1440, height: 900 }
const LAPTOP = { width: 1280, height: 800 }
const PHONE = { width: 390, height: 844 }

let app: RunningHelpdesk
let browser: Browser
let dataDir: string

beforeAll(async () => {
  dataDir = freshDataDir()
  ;[app, browser] = await Promise.all([startHelpdesk({ dataDir }), launchChromium()])
})

afterAll(async () => {
  await browser?.close()
  await app?.stop()
  if (dataDir) removeDir(dataDir)
})

async function newContext(
  viewport = DESKTOP,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<BrowserContext> {
  return browser.newContext({ viewport, colorScheme })
}

/** Opens the app in `context` and waits for the queue; page errors fail the test. */
async function open(context: BrowserContext, hash = ''): Promise<Page> {
  const page = await context.newPage()
  page.on('pageerror', (error) => {
    throw error
  })
  await page.goto(`${app.url}/${hash}`)
  await page.locator('.app').waitFor()
  return page
}

async function getTicket(id: number): Promise<{ status: number; ticket?: Ticket }> {
  const response = await fetch(`${app.url}/api/tickets/${id}`)
  return { status: response.status, ticket: response.ok ? await response.json() : undefined }
}

const rows = (page: Page) => page.getByRole('list', { name: 'Tickets' })
const row = (page: Page, id: number) => rows(page).locator(`[data-ticket-id="${id}"]`)

/** How far the page scrolls sideways: 0 when nothing is wider than the screen. */
const sideways = (page: Page) =>
  page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)

/** What has focus, in words a test can compare. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement
    if (!element || element === document.body) return 'body'
    return `${element.tagName.toLowerCase()}: ${element.textContent?.trim().replace(/\s+/g, ' ')}`
  })

/** The accessible label of what has focus (a text box has no text to tell it by). */
const focusedLabel = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label'))

/**
 * axe's violations on the page, of every impact (content outside the landmarks and a screen
 * without an `h1` are moderate), as `impact rule: targets`.
 */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeSource })
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe
    const results = await axe.run(document, { resultTypes: ['violations'] })
    return results.violations.map(
      (v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    )
  })
}

describe('on a phone (390×844)', () => {
  it('shows one pane at a time and never scrolls sideways', async () => {
    const context = await newContext(PHONE)
    const page = await open(context)
    await rows(page).waitFor()
    expect(await sideways(page)).toBe(0)
    // The queue is the screen; the form waits for "New ticket".
    expect(await page.getByRole('form', { name: 'New ticket' }).isVisible()).toBe(false)
    expect(await page.getByRole('navigation', { name: 'Ticket views' }).isVisible()).toBe(true)

    await row(page, 9).click()
    await page.waitForURL(/#\/tickets\/9$/)
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('Warehouse label printer prints blank labels')
    expect(await rows(page).isVisible()).toBe(false)
    expect(await sideways(page)).toBe(0)
    await expect.poll(() => focused(page)).toBe('h1: Warehouse label printer prints blank labels')

    await page.getByRole('link', { name: 'All tickets' }).click()
    await page.waitForURL(/#\/$/)
    await rows(page).waitFor()
    expect(await sideways(page)).toBe(0)

    await page.getByRole('link', { name: 'New ticket' }).click()
    await page.getByRole('form', { name: 'New ticket' }).waitFor()
    expect(await sideways(page)).toBe(0)

    await page.getByRole('button', { name: 'Assistant', exact: true }).click()
    await page.getByRole('complementary', { name: 'Assistant' }).waitFor()
    expect(await sideways(page)).toBe(0)
    await context.close()
  })

  it('lets a person create a ticket with the form', async () => {
    const context = await newContext(PHONE)
    const page = await open(context)
    await page.getByRole('link', { name: 'New ticket' }).click()
    const form = page.getByRole('form', { name: 'New ticket' })
    await form.getByLabel('Title').fill('Phone cannot join the guest Wi-Fi')
    await form.getByLabel('Category').selectOption('network')
    await form.getByRole('group', { name: 'Priority' }).getByText('High').click()
    await form.getByRole('button', { name: 'Create ticket', exact: true }).click()

    await page.waitForURL(/#\/tickets\/\d+$/)
    const id = Number(/(\d+)$/.exec(page.url())![1])
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('Phone cannot join the guest Wi-Fi')
    await expect.poll(() => focused(page)).toBe('h1: Phone cannot join the guest Wi-Fi')
    expect(await sideways(page)).toBe(0)
    expect((await getTicket(id)).ticket).toMatchObject({
      title: 'Phone cannot join the guest Wi-Fi',
      category: 'network',
      priority: 'high',
    })
    await context.close()
  })

  it('lets a person answer a confirmation from the assistant drawer', async () => {
    const context = await newContext(PHONE)
    const page = await open(context)
    const toggle = page.getByRole('button', { name: 'Assistant', exact: true })
    await toggle.click()
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    // The drawer takes focus to its composer; the page behind is inert.
    await expect.poll(() => focused(page)).toBe('input: ')
    expect(await page.locator('main').getAttribute('inert')).not.toBeNull()

    await ask(page, 'close ticket 11')
    await dialog(page).waitFor()
    expect(await sideways(page)).toBe(0)
    const box = await dialog(page).boundingBox()
    expect(box!.x).toBeGreaterThanOrEqual(0)
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width)
    await dialog(page).getByRole('button', { name: 'Approve', exact: true }).click()

    await expect
      .poll(() => step(page, 'tickets.close').locator('.step__state').textContent())
      .toBe('Done')
    expect((await getTicket(11)).ticket?.status).toBe('closed')

    // Escape closes the drawer and focus goes back to its toggle.
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByRole('complementary', { name: 'Assistant' }).count()).toBe(0)
    expect(await focused(page)).toBe('button: Assistant')
    await context.close()
  })

  it('fits a 360 px screen too', async () => {
    const context = await newContext({ width: 360, height: 740 })
    const page = await open(context, '#/tickets/12')
    await page.getByRole('heading', { level: 1 }).waitFor()
    expect(await sideways(page)).toBe(0)
    await page.getByRole('button', { name: 'Delete ticket' }).click()
    await page.getByRole('button', { name: 'Delete for good' }).waitFor()
    expect(await sideways(page)).toBe(0)
    await page.keyboard.press('Escape')
    await page.goto(`${app.url}/#/tickets/12/edit`)
    await page.getByRole('form', { name: 'Edit ticket #12' }).waitFor()
    expect(await sideways(page)).toBe(0)
    await context.close()
  })
})

describe('every tab in sync', () => {
  it('refreshes the other tab after a delete and lets go of the ticket it showed', async () => {
    const context = await newContext()
    const a = await open(context)
    const b = await open(context, '#/tickets/6')
    await b.getByRole('heading', { level: 1 }).waitFor()
    await expect.poll(() => row(b, 6).count()).toBe(1)

    await a.bringToFront()
    await row(a, 6).click()
    await a.getByRole('button', { name: 'Delete ticket', exact: true }).click()
    await a.getByRole('button', { name: 'Delete for good', exact: true }).click()
    await a.waitForURL(/#\/$/)
    expect((await getTicket(6)).status).toBe(404)

    // Tab B: the list no longer has it, the pane let it go, and says why.
    await expect.poll(() => row(b, 6).count()).toBe(0)
    await b.waitForURL(/#\/$/)
    await expect
      .poll(() => b.locator('.toasts').textContent())
      .toContain('Ticket #6 is no longer here: it was deleted, perhaps in another tab.')
    const counts = (await (await fetch(`${app.url}/api/tickets?view=all`)).json()) as {
      tickets: Ticket[]
    }
    await expect
      .poll(() => rows(b).locator('[data-ticket-id]').count())
      .toBe(counts.tickets.filter((t) => t.status !== 'closed').length)
    await context.close()
  })

  it('shows a ticket created or changed in one tab in the other', async () => {
    const context = await newContext()
    const a = await open(context, '#/new')
    const b = await open(context, '#/tickets/7')
    await b.getByRole('heading', { level: 1 }).waitFor()

    await a.bringToFront()
    await a.getByLabel('Title').fill('Badge printer out of ribbons')
    await a.getByRole('button', { name: 'Create ticket', exact: true }).click()
    await a.waitForURL(/#\/tickets\/\d+$/)
    const id = Number(/(\d+)$/.exec(a.url())![1])
    await expect.poll(() => row(b, id).count()).toBe(1)

    // An agent's write in tab A (through the mutation cache) shows in tab B's open ticket.
    await ask(a, 'make ticket 7 urgent')
    await expect
      .poll(() => step(a, 'tickets.prioritize').locator('.step__state').textContent())
      .toBe('Done')
    await expect.poll(() => b.locator('.detail__meta .priority').textContent()).toContain('Urgent')
    await context.close()
  })
})

describe('across a reload', () => {
  it('reports a pending approval the reload dropped to the agent and the person', async () => {
    const context = await newContext()
    const page = await open(context)
    await ask(page, 'close ticket 9')
    await dialog(page).waitFor()
    await expect
      .poll(() => step(page, 'tickets.close').locator('.step__state').textContent())
      .toBe('Needs approval')

    await page.reload()
    await rows(page).waitFor()

    const close = step(page, 'tickets.close')
    await expect.poll(() => close.locator('.step__state').textContent()).toBe('Stopped')
    expect(await close.locator('.step__detail').textContent()).toBe(
      'The request was dropped when the page reloaded.',
    )
    const result = JSON.parse((await close.locator('.step__result pre').textContent()) ?? '{}')
    expect(result).toEqual({ status: 'cancelled', by: 'policy' })
    expect(await page.locator('.bubble--assistant').last().textContent()).toContain(
      '“Close ticket #9” was waiting for your approval, and nothing changed',
    )
    // The conversation before it is still there; no dialog asks for what no longer exists.
    expect(await page.locator('.bubble--user').allTextContents()).toEqual(['close ticket 9'])
    expect(await dialog(page).count()).toBe(0)
    expect((await getTicket(9)).ticket?.status).toBe('open')
    await context.close()
  })

  it('keeps the form draft', async () => {
    const context = await newContext()
    const page = await open(context, '#/new')
    const form = page.getByRole('form', { name: 'New ticket' })
    await form.getByLabel('Title').fill('Monitor flickers after lunch')
    await form.getByLabel('Description').fill('Only the left one.')
    await form.getByRole('group', { name: 'Priority' }).getByText('Urgent').click()

    await page.reload()
    await form.waitFor()
    await expect
      .poll(() => form.getByLabel('Title').inputValue())
      .toBe('Monitor flickers after lunch')
    expect(await form.getByLabel('Description').inputValue()).toBe('Only the left one.')
    expect(await form.getByRole('radio', { name: 'Urgent' }).isChecked()).toBe(true)
    expect(await form.textContent()).toContain('Unsaved changes')

    // The restored text is the person's: an agent's fill leaves it alone.
    await ask(page, 'new ticket: printer jammed, high priority')
    const fill = step(page, 'ticket.fill')
    await expect.poll(() => fill.locator('.step__state').textContent()).toBe('Done')
    expect(await fill.locator('.step__detail').textContent()).toContain('skipped')
    expect(await form.getByLabel('Title').inputValue()).toBe('Monitor flickers after lunch')
    await dialog(page).getByRole('button', { name: 'Deny', exact: true }).click()
    await context.close()
  })
})

describe('from the keyboard', () => {
  it('skips to the content, and lands focus after closing, deleting and Escape', async () => {
    const context = await newContext()
    const page = await open(context, '#/tickets/5')
    await page.getByRole('heading', { level: 1 }).waitFor()

    await page.keyboard.press('Tab')
    expect(await focused(page)).toBe('a: Skip to main content')
    await page.keyboard.press('Enter')
    await expect.poll(() => focused(page)).toBe('h1: Invoice PDF export fails with error 500')

    await page.getByRole('button', { name: 'Close ticket', exact: true }).focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('.detail__toolbar .status').textContent()).toBe('Closed')
    await expect.poll(() => focused(page)).toBe('h1: Invoice PDF export fails with error 500')

    await page.getByRole('button', { name: 'Delete ticket', exact: true }).focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => focused(page)).toBe('button: Delete for good')
    await page.keyboard.press('Escape')
    await expect.poll(() => focused(page)).toBe('button: ')
    expect(await page.getByRole('button', { name: 'Delete for good' }).count()).toBe(0)
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Delete ticket',
    )

    await page.keyboard.press('Enter')
    await page.keyboard.press('Enter')
    await page.waitForURL(/#\/$/)
    await expect.poll(() => focused(page)).toBe('h2: Inbox')
    expect((await getTicket(5)).status).toBe(404)
    await context.close()
  })
})

describe('the header’s Assistant toggle on a wide screen (1280×800)', () => {
  it('says whether the panel is expanded, takes focus to its composer, and gets it back', async () => {
    const context = await newContext(LAPTOP)
    const page = await open(context)
    await rows(page).waitFor()
    const toggle = page.getByRole('button', { name: 'Assistant', exact: true })
    const panel = page.getByRole('complementary', { name: 'Assistant' })

    // The panel a wide screen opens with: expanded, and focus stays where the page left it.
    await panel.waitFor()
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    expect(await toggle.getAttribute('aria-controls')).toBe('assistant')
    expect(await toggle.getAttribute('aria-pressed')).toBeNull()
    expect(await focused(page)).toBe('body')

    await toggle.click()
    await expect.poll(() => panel.count()).toBe(0)
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    expect(await toggle.getAttribute('aria-controls')).toBeNull()
    expect(await focused(page)).toBe('button: Assistant')

    // Opened from the keyboard: the person came to type.
    await page.keyboard.press('Enter')
    await panel.waitFor()
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    expect(await toggle.getAttribute('aria-controls')).toBe('assistant')
    await expect.poll(() => focusedLabel(page)).toBe('Message the assistant')
    // Beside the work, not over it: the page stays usable.
    expect(await page.locator('main').getAttribute('inert')).toBeNull()

    // Its close control gives focus back to the toggle.
    await panel.getByRole('button', { name: 'Close the assistant' }).click()
    await expect.poll(() => panel.count()).toBe(0)
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    await expect.poll(() => focused(page)).toBe('button: Assistant')

    // Opened with a click, the same.
    await toggle.click()
    await panel.waitFor()
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    await expect.poll(() => focusedLabel(page)).toBe('Message the assistant')
    await context.close()
  })
})

describe('after a dialog', () => {
  it('keeps focus in the composer after approving a request started from a suggestion', async () => {
    const context = await newContext()
    const page = await open(context)
    const suggestions = page.getByRole('list', { name: 'Suggestions' })
    if (!(await suggestions.isVisible())) {
      await page.getByRole('button', { name: 'Assistant', exact: true }).click()
    }
    await suggestions.getByRole('button', { name: 'close ticket 3' }).click()
    await dialog(page).waitFor()

    await dialog(page).getByRole('button', { name: 'Approve' }).click()

    await dialog(page).waitFor({ state: 'hidden' })
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Message the assistant')
    await context.close()
  })
})

describe('axe, on every screen, light and dark, desktop and phone', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    for (const scheme of ['light', 'dark'] as const) {
      const size = viewport === PHONE ? 'phone' : 'desktop'
      it(`has no violations of any impact (${size}, ${scheme})`, async () => {
        const context = await newContext(viewport, scheme)
        const page = await open(context)
        await rows(page).waitFor()
        expect(await page.evaluate(() => matchMedia(`(prefers-color-scheme: dark)`).matches)).toBe(
          scheme === 'dark',
        )
        const found: Record<string, string[]> = {}
        const check = async (screen: string) => {
          const violations = await axeViolations(page)
          // Every screen has one title (axe's page-has-heading-one only asks for at least one).
          // A screen that has just changed may still be rendering its title: give it a moment.
          let titles = await page.getByRole('heading', { level: 1 }).count()
          for (let i = 0; i < 20 && titles !== 1; i++) {
            await page.waitForTimeout(250)
            titles = await page.getByRole('heading', { level: 1 }).count()
          }
          if (titles !== 1) violations.push(`${titles} h1 on the screen`)
          if (violations.length) found[screen] = violations
        }

        await check('queue')
        await page.goto(`${app.url}/#/tickets/7`)
        await page.getByRole('heading', { level: 1 }).waitFor()
        await check('ticket')
        await page.getByRole('button', { name: 'Delete ticket', exact: true }).click()
        await check('ticket, confirming delete')
        await page.goto(`${app.url}/#/tickets/7/edit`)
        await page.getByRole('form', { name: 'Edit ticket #7' }).waitFor()
        await check('edit form')
        await page.goto(`${app.url}/#/access`)
        await page.getByRole('form', { name: 'Request access' }).waitFor()
        await check('access request')
        await page.goto(`${app.url}/#/new`)
        await page.getByRole('form', { name: 'New ticket' }).waitFor()
        await check('new form')

        if (viewport === PHONE)
          await page.getByRole('button', { name: 'Assistant', exact: true }).click()
        await check('assistant')
        await ask(page, 'delete ticket 7')
        await dialog(page).waitFor()
        await check('dialog, destructive')
        await dialog(page).getByRole('button', { name: 'Deny', exact: true }).click()
        await ask(page, 'new ticket: printer jammed, high priority')
        await dialog(page).waitFor()
        await check('dialog, whole submission')
        await dialog(page).getByRole('button', { name: 'Deny', exact: true }).click()

        expect(found).toEqual({})
        await context.close()
      })
    }
  }
})
