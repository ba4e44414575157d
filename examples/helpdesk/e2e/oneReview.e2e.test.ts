import type { Browser, Locator } from 'playwright'
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

// The measure: how many clicks a person needs for "close tickets 3, 5 and 7, then file a
// ticket about the printer", with every approved request on screen at the moment it is approved.

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

async function getTicket(id: number): Promise<Ticket | undefined> {
  const response = await fetch(`${app.url}/api/tickets/${id}`)
  return response.ok ? ((await response.json()) as Ticket) : undefined
}

async function ticketsTitled(title: string): Promise<Ticket[]> {
  const response = await fetch(`${app.url}/api/tickets?view=all&q=${encodeURIComponent(title)}`)
  const body = (await response.json()) as { tickets: Ticket[] }
  return body.tickets.filter((ticket) => ticket.title === title)
}

/**
 * Whether the whole of `element` is visible: inside the window and inside every box that clips
 * it (the review list scrolls inside the dialog, which scrolls inside the window).
 */
function whollyOnScreen(element: Locator): Promise<boolean> {
  return element.evaluate((node) => {
    const box = node.getBoundingClientRect()
    if (box.width === 0 || box.height === 0) return false
    const inside = (outer: { top: number; bottom: number; left: number; right: number }) =>
      box.top >= outer.top - 0.5 &&
      box.bottom <= outer.bottom + 0.5 &&
      box.left >= outer.left - 0.5 &&
      box.right <= outer.right + 0.5
    if (!inside({ top: 0, left: 0, bottom: innerHeight, right: innerWidth })) return false
    for (let parent = node.parentElement; parent; parent = parent.parentElement) {
      const overflow = getComputedStyle(parent).overflowY
      if (
        (overflow === 'auto' || overflow === 'scroll' || overflow === 'hidden') &&
        !inside(parent.getBoundingClientRect())
      ) {
        return false
      }
    }
    return true
  })
}

describe('one review for one turn', () => {
  it('closes tickets 3, 5 and 7 and files the printer ticket in two clicks, each approved request on screen', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    page.on('pageerror', (error) => {
      throw error
    })
    await page.goto(`${app.url}/`)
    await page.getByRole('list', { name: 'Tickets' }).waitFor()
    for (const id of [3, 5, 7]) expect((await getTicket(id))?.status).not.toBe('closed')
    expect(await ticketsTitled('The printer')).toEqual([])

    let clicks = 0
    const click = async (target: Locator) => {
      clicks++
      await target.click()
    }

    const box = page.getByRole('textbox', { name: 'Message the assistant' })
    await box.fill('close tickets 3, 5 and 7, then file a ticket about the printer')
    await box.press('Enter')

    // The three closes arrive as one review list of the assistant's requests.
    const review = page.getByRole('alertdialog', { name: 'Review 3 requests' })
    await review.waitFor()
    const approveSelected = review.getByRole('button', { name: 'Approve selected (3)' })
    await approveSelected.waitFor()
    expect(await review.getByRole('button', { name: 'Approve all' }).count()).toBe(0)
    const boxes = review.getByRole('checkbox')
    expect(await boxes.count()).toBe(3)
    for (const id of [3, 5, 7]) {
      const row = review.locator('li', { hasText: `Close ticket #${id} ` })
      expect(await row.getByRole('checkbox').isChecked()).toBe(true)
      // Every request the click approves is wholly on screen as it is approved.
      expect(await whollyOnScreen(row)).toBe(true)
    }
    expect(await whollyOnScreen(approveSelected)).toBe(true)
    await click(approveSelected)

    // Then the new ticket: its own request, shown whole before it is approved.
    const create = page.getByRole('alertdialog', { name: 'Create ticket' })
    await create.waitFor({ timeout: 20_000 })
    const values = create.getByRole('table', { name: 'Values' })
    expect(await values.textContent()).toContain('The printer')
    expect(await whollyOnScreen(values)).toBe(true)
    const approve = create.getByRole('button', { name: 'Approve', exact: true })
    expect(await whollyOnScreen(approve)).toBe(true)
    await click(approve)

    await expect
      .poll(() => step(page, 'ticket.submit').locator('.step__state').textContent(), {
        timeout: 20_000,
      })
      .toBe('Done')
    for (const id of [3, 5, 7]) expect((await getTicket(id))?.status).toBe('closed')
    expect(await ticketsTitled('The printer')).toHaveLength(1)
    expect(await dialog(page).count()).toBe(0)

    console.log(
      `[measure] person clicks for "close tickets 3, 5 and 7, then file a ticket about the printer": ${clicks} (before: 4)`,
    )
    expect(clicks).toBeLessThanOrEqual(2)

    // A session grant for tickets.close, given in the dialog on one close…
    const seeded = await getTicket(9)
    if (seeded?.status === 'closed') {
      // The seed has #9 closed: open it again, as a person would, so there is something to close.
      const reopened = await fetch(`${app.url}/api/tickets/9`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'open' }),
      })
      expect(reopened.ok).toBe(true)
    }
    expect((await getTicket(12))?.status).not.toBe('closed')
    await box.fill('close ticket 12')
    await box.press('Enter')
    const single = page.getByRole('alertdialog', { name: 'Close ticket' })
    await single.waitFor()
    await single.getByRole('button', { name: 'Allow for this session' }).click()
    await expect.poll(async () => (await getTicket(12))?.status, { timeout: 20_000 }).toBe('closed')
    await expect.poll(() => dialog(page).count()).toBe(0)

    // …and a later "close ticket 9" asks nothing.
    await page.evaluate(() => {
      const counter = window as unknown as { dialogsSeen: number }
      counter.dialogsSeen = 0
      new MutationObserver(() => {
        if (document.querySelector('[role="alertdialog"][open]')) counter.dialogsSeen++
      }).observe(document.body, { subtree: true, childList: true, attributes: true })
    })
    await box.fill('close ticket 9')
    await box.press('Enter')
    await expect.poll(async () => (await getTicket(9))?.status, { timeout: 20_000 }).toBe('closed')
    expect(
      await page.evaluate(() => (window as unknown as { dialogsSeen: number }).dialogsSeen),
    ).toBe(0)
    expect(await dialog(page).count()).toBe(0)

    // The activity log says who let it through.
    const devtools = page.getByRole('complementary', { name: 'Toolmark devtools' })
    await devtools.getByRole('button', { name: 'Toolmark devtools' }).click()
    await devtools.getByRole('tab', { name: 'Activity' }).click()
    const log = devtools.getByRole('tabpanel')
    await expect.poll(() => log.textContent()).toContain('allowed by a grant')
    console.log(
      '[measure] "close ticket 9" after a session grant for tickets.close: 0 dialogs, 0 clicks',
    )
    await page.close()
  })
})
