import type { Page } from 'playwright'
import type { Ticket, TicketList } from '../shared/ticket.ts'
import { ask, authenticatorOn, dialog, helpdeskSuite, step } from './harness.ts'

// What the person is asked, and what they are not asked again: grants only where repeating is
// harmless, shown in the conversation with Revoke; a question when the assistant cannot tell two
// tickets apart; the passkey for the assistant's delete too.

const suite = helpdeskSuite()

async function openPage(hash = ''): Promise<Page> {
  const page = await suite.browser.newPage({ viewport: { width: 1440, height: 900 } })
  page.on('pageerror', (error) => {
    throw error
  })
  await page.goto(`${suite.app.url}/${hash}`)
  await page.getByRole('list', { name: 'Tickets' }).waitFor()
  return page
}

async function getTicket(id: number): Promise<{ status: number; ticket?: Ticket }> {
  const response = await fetch(`${suite.app.url}/api/tickets/${id}`)
  return { status: response.status, ticket: response.ok ? await response.json() : undefined }
}

/** Active tickets that are not about a printer (those two are the question's). */
async function activeTickets(): Promise<number[]> {
  const response = await fetch(`${suite.app.url}/api/tickets?view=active`)
  const { tickets } = (await response.json()) as TicketList
  return tickets.filter((t) => !/printer/i.test(t.title)).map((t) => t.id)
}

const closes = (page: Page) =>
  page.getByRole('list', { name: 'Conversation' }).locator('.step[data-tool="tickets.close"]')
const state = (page: Page, tool: string) => step(page, tool).locator('.step__state').textContent()

/** Counts every time a dialog opens from now on. */
async function countDialogs(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const counter = window as unknown as { dialogsSeen: number }
    counter.dialogsSeen = 0
    let open = false
    new MutationObserver(() => {
      const now = document.querySelector('[role="alertdialog"][open]') !== null
      if (now && !open) counter.dialogsSeen++
      open = now
    }).observe(document.body, { subtree: true, childList: true, attributes: true })
  })
  return () => page.evaluate(() => (window as unknown as { dialogsSeen: number }).dialogsSeen)
}

describe('a new ticket’s approval', () => {
  it('marks only real changes (no attachment) and offers no "Allow for this session"', async () => {
    const page = await openPage()
    // Not about a printer: the question below finds exactly the two seeded printer tickets.
    await ask(page, 'new ticket: keyboard is missing keys, high priority')
    await dialog(page).waitFor()

    const changed = await dialog(page).locator('tr[data-changed] th').allTextContents()
    expect(changed.some((name) => name.startsWith('Title'))).toBe(true)
    expect(changed.some((name) => name.startsWith('Priority'))).toBe(true)
    expect(changed.some((name) => name.includes('Attachment'))).toBe(false)
    // Each change has a value after it: never "— → —".
    for (const after of await dialog(page).locator('tr[data-changed] [data-part="after"]').all()) {
      expect(await after.locator('[data-part="empty"]').count()).toBe(0)
    }
    expect(await dialog(page).getByRole('button', { name: 'Allow for this session' }).count()).toBe(
      0,
    )
    await dialog(page).getByRole('button', { name: 'Approve', exact: true }).click()
    await expect.poll(() => state(page, 'ticket.submit'), { timeout: 20_000 }).toBe('Done')

    // The next new ticket asks again.
    await ask(page, 'new ticket: projector shows no signal, urgent')
    await dialog(page).waitFor()
    expect(await dialog(page).textContent()).toContain('Create ticket')
    await dialog(page).getByRole('button', { name: 'Deny', exact: true }).click()
    await expect.poll(() => state(page, 'ticket.submit')).toBe('Stopped')
    await page.close()
  })
})

describe('a session grant for closing tickets', () => {
  it('says in the conversation which closes it let through, and Revoke makes the next one ask', async () => {
    const [first, second, third, fourth] = await activeTickets()
    const page = await openPage()
    await ask(page, `close ticket ${first}`)
    await dialog(page).getByRole('button', { name: 'Allow for this session' }).click()
    await expect.poll(async () => (await getTicket(first)).ticket?.status).toBe('closed')
    expect(await step(page, 'tickets.close').locator('.step__grant').count()).toBe(0)
    // From the moment it is given, the grant is listed by the conversation, with Revoke.
    const granted = page.getByRole('region', { name: 'Allowed without asking' })
    await expect.poll(() => granted.textContent()).toContain('Close ticket')

    // Two closes in one round, both let through: each step says so.
    const dialogs = await countDialogs(page)
    await ask(page, `close tickets ${second} and ${fourth}`)
    await expect.poll(() => closes(page).count()).toBe(3)
    for (const i of [1, 2]) {
      await expect
        .poll(() => closes(page).nth(i).locator('.step__state').textContent(), { timeout: 20_000 })
        .toBe('Done')
      expect(await closes(page).nth(i).locator('.step__grant').textContent()).toContain(
        'allowed by your earlier approval',
      )
    }
    expect(await dialogs()).toBe(0)
    expect((await getTicket(second)).ticket?.status).toBe('closed')
    expect((await getTicket(fourth)).ticket?.status).toBe('closed')
    await expect.poll(() => granted.textContent()).toContain('used 2 times')
    const note = step(page, 'tickets.close').locator('.step__grant')

    await note.getByRole('button', { name: 'Revoke “Close ticket” for this session' }).click()
    await expect.poll(() => granted.count()).toBe(0)
    await expect.poll(() => note.textContent()).toContain('That approval has ended')
    expect(await note.getByRole('button').count()).toBe(0)

    await ask(page, `close ticket ${third}`)
    await expect.poll(() => closes(page).count()).toBe(4)
    await dialog(page).waitFor()
    expect(await dialogs()).toBe(1)
    await dialog(page).getByRole('button', { name: 'Deny', exact: true }).click()
    await expect.poll(() => state(page, 'tickets.close')).toBe('Stopped')
    expect((await getTicket(third)).ticket?.status).not.toBe('closed')
    await page.close()
  })
})

describe('a question from the assistant', () => {
  it('asks which of two matching tickets the person means, and opens that one', async () => {
    const page = await openPage()
    await ask(page, 'open the printer ticket')
    await dialog(page).waitFor()
    expect(await dialog(page).textContent()).toContain(
      '2 tickets match “printer”. Which one do you mean?',
    )
    const choice = dialog(page).getByLabel('Ticket')
    const options = await choice.locator('option').allTextContents()
    const floor3 = options.find((o) => o.includes('Printer on floor 3'))!
    expect(floor3).toMatch(/^#\d+ /)
    expect(options.some((o) => o.includes('Warehouse label printer'))).toBe(true)
    await choice.selectOption({ label: floor3 })
    await dialog(page).getByRole('button', { name: 'Answer', exact: true }).click()

    const id = Number(/^#(\d+)/.exec(floor3)![1])
    await expect.poll(() => state(page, 'tickets.find')).toBe('Done')
    expect(await step(page, 'tickets.find').locator('.step__detail').first().textContent()).toBe(
      `Opened ticket #${id} “Printer on floor 3 keeps reporting a paper jam in tray 2”`,
    )
    await page.waitForURL(new RegExp(`#/tickets/${id}$`))
    await page.close()
  })

  it('ends without opening anything when the person declines', async () => {
    const page = await openPage()
    await ask(page, 'open the printer ticket')
    await dialog(page).waitFor()
    await dialog(page).getByRole('button', { name: 'Decline', exact: true }).click()
    await expect.poll(() => state(page, 'tickets.find')).toBe('Stopped')
    expect(page.url()).not.toMatch(/#\/tickets\/\d+$/)
    await page.close()
  })
})

describe('the in-app assistant’s delete', () => {
  it('asks for the person’s passkey: Approve alone deletes nothing', async () => {
    const [, , , victim] = await activeTickets()
    const page = await openPage()
    const authenticator = await authenticatorOn(await page.context().newCDPSession(page))
    const approve = dialog(page).getByRole('button', { name: 'Delete ticket', exact: true })

    await authenticator.setUserVerified(false)
    await ask(page, `delete ticket ${victim}`)
    await dialog(page).waitFor()
    expect(await dialog(page).textContent()).toContain('Approving asks for your passkey')
    await approve.click()
    await dialog(page).getByText('Your passkey did not confirm this request').waitFor()
    expect((await getTicket(victim)).status).toBe(200)

    await dialog(page).locator('[data-part="actions"] button', { hasText: 'Close' }).click()
    await authenticator.setUserVerified(true)
    await approve.click()
    await expect.poll(() => state(page, 'tickets.delete'), { timeout: 20_000 }).toBe('Done')
    expect((await getTicket(victim)).status).toBe(404)
    await page.close()
  })

  it('is refused by the server without a passkey approval, for the assistant as for a browser agent', async () => {
    const [id] = await activeTickets()
    for (const caller of ['inapp', 'webmcp']) {
      const response = await fetch(`${suite.app.url}/api/tickets/${id}`, {
        method: 'DELETE',
        headers: { 'X-Toolmark-Caller': caller },
      })
      expect(response.status).toBe(403)
      expect(await response.json()).toMatchObject({ error: 'verification_failed' })
    }
    expect((await getTicket(id)).status).toBe(200)
  })
})
