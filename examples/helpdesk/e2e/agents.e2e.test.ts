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

let app: RunningHelpdesk
let browser: Browser
let dataDir: string

beforeAll(async () => {
  dataDir = freshDataDir()
  // Native WebMCP is behind a flag in this Chromium; the flag changes nothing else.
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

async function openPage(hash = ''): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  page.on('pageerror', (error) => {
    throw error
  })
  await page.goto(`${app.url}/${hash}`)
  await page.getByRole('list', { name: 'Tickets' }).waitFor()
  return page
}

async function getTicket(id: number): Promise<{ status: number; ticket?: Ticket }> {
  const response = await fetch(`${app.url}/api/tickets/${id}`)
  return { status: response.status, ticket: response.ok ? await response.json() : undefined }
}

describe('the in-app assistant (scripted planner over the in-page bridge)', () => {
  it('asks before closing a ticket, and closes it once approved in the dialog', async () => {
    const page = await openPage()
    await ask(page, 'close ticket 3')

    const close = step(page, 'tickets.close')
    await expect.poll(() => close.locator('.step__state').textContent()).toBe('Needs approval')
    await dialog(page).waitFor()
    expect(await dialog(page).textContent()).toContain('Requested by Assistant')
    expect(await dialog(page).textContent()).toContain(
      'Close ticket #3 “Zoom screen sharing shows a black window”',
    )
    // Nothing happened yet.
    expect((await getTicket(3)).ticket?.status).toBe('open')

    await dialog(page).getByRole('button', { name: 'Approve', exact: true }).click()
    await expect.poll(() => close.locator('.step__state').textContent()).toBe('Done')
    expect(await close.locator('.step__detail').textContent()).toBe('Closed ticket #3')
    expect((await getTicket(3)).ticket?.status).toBe('closed')
    // The list refetched: #3 left the inbox.
    await expect
      .poll(() =>
        page.getByRole('list', { name: 'Tickets' }).locator('[data-ticket-id="3"]').count(),
      )
      .toBe(0)
    await page.close()
  })

  it('leaves the ticket alone when the person denies', async () => {
    const page = await openPage()
    await ask(page, 'delete ticket 7')
    await dialog(page).waitFor()
    expect(await dialog(page).textContent()).toContain('Delete ticket')
    // A destructive request looks like one: the button says what it does, in danger colors.
    const danger = dialog(page).getByRole('button', { name: 'Delete ticket', exact: true })
    expect(await danger.getAttribute('data-variant')).toBe('danger')
    expect(await dialog(page).getByRole('button', { name: 'Approve' }).count()).toBe(0)
    await dialog(page).getByRole('button', { name: 'Deny', exact: true }).click()

    const remove = step(page, 'tickets.delete')
    await expect.poll(() => remove.locator('.step__state').textContent()).toBe('Stopped')
    expect(await remove.locator('.step__detail').textContent()).toBe(
      'You denied it; nothing changed.',
    )
    expect((await getTicket(7)).status).toBe(200)
    await page.close()
  })

  it('searches through the query cache and links the tickets it found', async () => {
    const page = await openPage()
    await ask(page, 'search printer')
    const answer = page.locator('.bubble--assistant').last()
    await expect.poll(() => answer.textContent()).toContain('Found 2 tickets')
    expect(await answer.getByRole('link').allTextContents()).toEqual([
      '#9 Warehouse label printer prints blank labels',
      '#8 Printer on floor 3 keeps reporting a paper jam in tray 2',
    ])
    await answer.getByRole('link').first().click()
    await page.waitForURL(/#\/tickets\/9$/)
    await page.close()
  })

  it('changes a priority without asking, through the mutation cache', async () => {
    const page = await openPage('#/tickets/8')
    await ask(page, 'make ticket 8 urgent')
    const prioritize = step(page, 'tickets.prioritize')
    await expect.poll(() => prioritize.locator('.step__state').textContent()).toBe('Done')
    expect(await prioritize.locator('.step__detail').textContent()).toBe(
      'Set ticket #8 to urgent (was normal)',
    )
    expect(await dialog(page).isVisible()).toBe(false)
    await expect
      .poll(() => page.locator('.detail__meta .priority').textContent())
      .toContain('Urgent')
    expect((await getTicket(8)).ticket?.priority).toBe('urgent')
    await page.close()
  })
})

describe('asking only for what can happen (the tools check first)', () => {
  it('refuses to delete a ticket that does not exist, without a dialog', async () => {
    const page = await openPage()
    await ask(page, 'delete ticket 999')
    const remove = step(page, 'tickets.delete')
    await expect.poll(() => remove.locator('.step__state').textContent()).toBe('Stopped')
    expect(await remove.locator('.step__detail').textContent()).toBe(
      'Refused (not_found): Ticket #999 does not exist',
    )
    expect(await dialog(page).count()).toBe(0)
    expect(await page.evaluate(() => document.querySelector('dialog[open]'))).toBeNull()
    await page.close()
  })

  it('refuses to close a closed ticket, and to reprioritize it, without a dialog', async () => {
    const closed = (await (await fetch(`${app.url}/api/tickets?view=closed`)).json()) as {
      tickets: Ticket[]
    }
    const id = closed.tickets[0].id
    const before = (await getTicket(id)).ticket
    const page = await openPage()

    await ask(page, `close ticket ${id}`)
    const close = step(page, 'tickets.close')
    await expect.poll(() => close.locator('.step__state').textContent()).toBe('Stopped')
    expect(await close.locator('.step__detail').textContent()).toBe(
      `Refused (already_closed): Ticket #${id} is already closed`,
    )
    await ask(page, `make ticket ${id} urgent`)
    const prioritize = step(page, 'tickets.prioritize')
    await expect.poll(() => prioritize.locator('.step__state').textContent()).toBe('Stopped')
    expect(await prioritize.locator('.step__detail').textContent()).toBe(
      `Refused (ticket_closed): Ticket #${id} is closed; reopen it to change its priority`,
    )

    expect(await dialog(page).count()).toBe(0)
    expect((await getTicket(id)).ticket).toEqual(before)
    await page.close()
  })

  it('checks again at approval: a ticket closed meanwhile is refused, not closed twice', async () => {
    const page = await openPage()
    await ask(page, 'close ticket 10')
    await dialog(page).waitFor()
    // Someone closes it while the dialog waits.
    expect((await fetch(`${app.url}/api/tickets/10/close`, { method: 'POST' })).status).toBe(200)
    await dialog(page).getByRole('button', { name: 'Approve', exact: true }).click()

    await expect
      .poll(() => dialog(page).getByRole('alert').textContent())
      .toContain('Ticket #10 is already closed')
    await dialog(page).getByRole('button', { name: 'Close', exact: true }).click()
    const close = step(page, 'tickets.close')
    await expect.poll(() => close.locator('.step__state').textContent()).toBe('Stopped')
    expect(await close.locator('.step__detail').textContent()).toBe(
      'Refused (already_closed): Ticket #10 is already closed',
    )
    await page.close()
  })
})

describe('the ticket form as agent tools (ticket.fill / ticket.submit)', () => {
  const form = (page: Page) => page.getByRole('form', { name: 'New ticket' })
  const priority = (page: Page, label: string) =>
    form(page).getByRole('group', { name: 'Priority' }).getByRole('radio', { name: label })

  it('fills the form on screen, asks before submitting, and saves once approved', async () => {
    const page = await openPage('#/new')
    await ask(page, 'new ticket: printer jammed, high priority')

    // The fill is visible in the fields before anything is submitted.
    const submit = step(page, 'ticket.submit')
    await expect.poll(() => submit.locator('.step__state').textContent()).toBe('Needs approval')
    expect(await form(page).getByLabel('Title').inputValue()).toBe('Printer jammed')
    expect(await priority(page, 'High').isChecked()).toBe(true)
    expect(await step(page, 'ticket.fill').locator('.step__detail').textContent()).toBe(
      'Filled priority and title',
    )

    // The dialog shows every value that will be submitted, the changed ones marked.
    await dialog(page).waitFor()
    const values = dialog(page).getByRole('table', { name: 'Values' })
    const row = (label: string) => values.getByRole('row').filter({ hasText: label }).first()
    expect(await row('Priority').textContent()).toMatch(/Changed.*normal.*high/s)
    expect(await row('Title').textContent()).toMatch(/Changed.*Printer jammed/s)
    // The requester was not changed, and the person sees who the ticket is filed under.
    expect(await row('Requester').textContent()).toContain('sam.rivera@northwind.example')
    expect(await row('Requester').textContent()).not.toContain('Changed')
    await dialog(page).getByRole('button', { name: 'Approve', exact: true }).click()

    await expect.poll(() => submit.locator('.step__state').textContent()).toBe('Done')
    expect(await submit.locator('.step__detail').textContent()).toBe(
      'Saved ticket #13 “Printer jammed”',
    )
    await page.waitForURL(/#\/tickets\/13$/)
    const rows = page.getByRole('list', { name: 'Tickets' })
    await expect
      .poll(() => rows.locator('[data-ticket-id="13"]').textContent())
      .toContain('Printer jammed')

    await page.reload()
    await rows.waitFor()
    expect(await rows.locator('[data-ticket-id="13"]').textContent()).toContain('High')
    expect((await getTicket(13)).ticket).toMatchObject({
      title: 'Printer jammed',
      priority: 'high',
      requester: 'sam.rivera@northwind.example',
      status: 'open',
    })
    await page.close()
  })

  it('skips a field the person typed into and reports it in skipped', async () => {
    const page = await openPage('#/new')
    await form(page).getByLabel('Title').fill('Paper tray 2 is stuck')
    await ask(page, 'new ticket: printer jammed, high priority')

    const fill = step(page, 'ticket.fill')
    await expect.poll(() => fill.locator('.step__state').textContent()).toBe('Done')
    expect(await fill.locator('.step__detail').textContent()).toBe(
      'Filled priority; skipped title (you edited it)',
    )
    const result = JSON.parse((await fill.locator('.step__result pre').textContent()) ?? '{}')
    expect(result).toEqual({
      status: 'ok',
      data: {
        changes: [{ path: 'priority', before: 'normal', after: 'high' }],
        skipped: [{ path: 'title', reason: 'user_edited' }],
      },
    })
    expect(await form(page).getByLabel('Title').inputValue()).toBe('Paper tray 2 is stuck')
    expect(await priority(page, 'High').isChecked()).toBe(true)

    await dialog(page).waitFor()
    await dialog(page).getByRole('button', { name: 'Deny', exact: true }).click()
    await expect
      .poll(() => step(page, 'ticket.submit').locator('.step__state').textContent())
      .toBe('Stopped')
    expect(page.url()).toMatch(/#\/new$/)
    await page.close()
  })

  it('restores the form when the fill is undone from the devtools', async () => {
    const page = await openPage('#/new')
    await ask(page, 'new ticket: vpn keeps dropping, urgent, network, tried another router')
    await dialog(page).waitFor()
    expect(await form(page).getByLabel('Title').inputValue()).toBe('Vpn keeps dropping')
    expect(await form(page).getByLabel('Category').inputValue()).toBe('network')
    expect(await form(page).getByLabel('Description').inputValue()).toBe('tried another router')
    expect(await priority(page, 'Urgent').isChecked()).toBe(true)
    await dialog(page).getByRole('button', { name: 'Deny', exact: true }).click()

    const devtools = page.getByRole('complementary', { name: 'Toolmark devtools' })
    await devtools.getByRole('button', { name: 'Toolmark devtools' }).click()
    await devtools.getByRole('tab', { name: 'Activity' }).click()
    await devtools.getByRole('button', { name: 'Undo ticket.fill' }).click()

    await expect.poll(() => form(page).getByLabel('Title').inputValue()).toBe('')
    expect(await form(page).getByLabel('Category').inputValue()).toBe('other')
    expect(await form(page).getByLabel('Description').inputValue()).toBe('')
    expect(await priority(page, 'Normal').isChecked()).toBe(true)
    await page.close()
  })
})

describe('a browser agent through native WebMCP', () => {
  it('lists the tools (delete among them, behind the person’s passkey), and closes a ticket after approval', async () => {
    const page = await openPage()
    const names = await page.evaluate(async () => {
      const context = (
        document as unknown as {
          modelContext: { getTools(): Promise<{ name: string }[]> }
        }
      ).modelContext
      // Registration follows the page's first revision; wait for it.
      for (let i = 0; i < 50; i++) {
        const tools = await context.getTools()
        if (tools.length > 0) return tools.map((t) => t.name).sort()
        await new Promise((r) => setTimeout(r, 100))
      }
      return []
    })
    expect(names).toContain('tickets.close')
    expect(names).toContain('tickets.search')
    expect(names).toContain('tickets.delete')

    // Invoke it the way the browser's own agent does: over the DevTools protocol.
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('WebMCP.enable' as any)
    const responded = new Promise<any>((resolve) => cdp.on('WebMCP.toolResponded' as any, resolve))
    const { frameTree } = await cdp.send('Page.getFrameTree')
    await cdp.send(
      'WebMCP.invokeTool' as any,
      {
        frameId: frameTree.frame.id,
        toolName: 'tickets.close',
        input: { id: 5 },
      } as any,
    )

    await dialog(page).waitFor()
    expect(await dialog(page).textContent()).toContain('Requested by Browser agent')
    expect((await getTicket(5)).ticket?.status).toBe('pending')
    await dialog(page).getByRole('button', { name: 'Approve', exact: true }).click()

    const response = await responded
    expect(response.status).toBe('Completed')
    const [content] = response.output.content as { type: string; text: string }[]
    expect(JSON.parse(content.text)).toMatchObject({
      status: 'ok',
      data: { id: 5, status: 'closed' },
    })
    expect((await getTicket(5)).ticket?.status).toBe('closed')
    await cdp.detach()
    await page.close()
  })
})
