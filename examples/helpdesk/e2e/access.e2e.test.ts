import type { Browser, Page } from 'playwright'
import type { Ticket, TicketList } from '../shared/ticket.ts'
import {
  ask,
  dialog,
  freshDataDir,
  launchChromium,
  removeDir,
  startHelpdesk,
  type RunningHelpdesk,
} from './harness.ts'

let app: RunningHelpdesk
let browser: Browser
let dataDir: string

beforeAll(async () => {
  dataDir = freshDataDir()
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

/** The newest ticket whose requester is `email`. */
async function ticketOf(email: string): Promise<Ticket | undefined> {
  const response = await fetch(`${app.url}/api/tickets?view=all&q=${encodeURIComponent(email)}`)
  return ((await response.json()) as TicketList).tickets[0]
}

const steps = (page: Page, tool: string) =>
  page.getByRole('list', { name: 'Conversation' }).locator(`.step[data-tool="${tool}"]`)
const wizard = (page: Page) => page.getByRole('form', { name: 'Request access' })

describe('the access-request wizard', () => {
  it('takes a person through its three steps and files an access ticket', async () => {
    const page = await openPage()
    await page.getByRole('link', { name: 'Request access' }).click()
    await page.waitForURL(/#\/access$/)
    const stepper = wizard(page).getByRole('list', { name: 'Steps' })
    expect(await stepper.locator('[aria-current="step"]').textContent()).toContain(
      'Who needs access',
    )

    // Next checks the step on screen.
    await wizard(page).getByRole('button', { name: 'Next' }).click()
    await expect
      .poll(() => wizard(page).locator('.field__error').allTextContents())
      .toEqual(['Enter the email address of the person who needs access'])
    await wizard(page).getByLabel('Email').fill('nina.larsen@northwind.example')
    await wizard(page).getByLabel('Name').fill('Nina Larsen')
    await wizard(page).getByRole('button', { name: 'Next' }).click()

    await wizard(page).getByLabel('System').selectOption('crm')
    await wizard(page).getByRole('group', { name: 'Access level' }).getByText('Admin').click()
    await wizard(page).getByRole('button', { name: 'Next' }).click()

    await wizard(page).getByLabel('Reason').fill('Takes over the customer import project')
    await wizard(page).getByLabel('Until').fill('2031-06-30')
    await wizard(page).getByRole('button', { name: 'Submit request' }).click()

    // A person's submit needs no approval: the wizard files it and shows the new ticket.
    await page.waitForURL(/#\/tickets\/\d+$/)
    expect(await dialog(page).count()).toBe(0)
    const ticket = await ticketOf('nina.larsen@northwind.example')
    expect(ticket).toMatchObject({
      title: 'Access to CRM (admin) for Nina Larsen',
      requester: 'nina.larsen@northwind.example',
      category: 'access',
      status: 'open',
    })
    expect(ticket?.description).toContain('until 2031-06-30')
    expect(ticket?.description).toContain('Reason: Takes over the customer import project')
    await page.close()
  })

  it('is filled by the assistant in one fill and submitted after one approval listing every step', async () => {
    const page = await openPage('#/new')
    await ask(
      page,
      'Request write access to payroll for olivia.grant@northwind.example until 2030-01-31 because she covers the quarterly audit',
    )
    await dialog(page).waitFor()
    await page.waitForURL(/#\/access$/)
    expect(await steps(page, 'access.start').count()).toBe(1)
    expect(await steps(page, 'access.fill').count()).toBe(1)
    expect(await steps(page, 'access.fill').locator('.step__state').textContent()).toBe('Done')

    // The one approval shows the whole submission: every field of every step, labelled.
    const text = await dialog(page).innerText()
    expect(text).toContain('Request write access to Payroll for olivia.grant@northwind.example')
    const rows = dialog(page).getByRole('row')
    const shown = async (label: string) =>
      (await rows.filter({ has: page.getByRole('rowheader', { name: label }) }).innerText())
        .replace(/\s+/g, ' ')
        .trim()
    expect(await shown('Email')).toMatch(/olivia\.grant@northwind\.example$/)
    expect(await shown('Name')).toMatch(/Olivia Grant$/)
    expect(await shown('System')).toMatch(/payroll$/)
    // The assistant wrote it (from the default read to write): the row says so beside its name.
    expect(await shown('Access level')).toBe('Access level Filled by assistant read write')
    expect(await shown('Reason')).toMatch(/She covers the quarterly audit$/)
    expect(await shown('Until')).toMatch(/2030-01-31$/)
    // The wizard shows its last step, where a person reviews and submits.
    expect(
      await wizard(page)
        .getByRole('list', { name: 'Steps' })
        .locator('[aria-current="step"]')
        .textContent(),
    ).toContain('Why and until when')

    await dialog(page).getByRole('button', { name: 'Approve', exact: true }).click()
    await expect
      .poll(() => steps(page, 'access.submit').locator('.step__state').textContent())
      .toBe('Done')
    await page.waitForURL(/#\/tickets\/\d+$/)
    expect(await dialog(page).count()).toBe(0)
    expect(await ticketOf('olivia.grant@northwind.example')).toMatchObject({
      title: 'Access to Payroll (write) for Olivia Grant',
      category: 'access',
      requester: 'olivia.grant@northwind.example',
    })
    await page.close()
  })

  it('is reachable by a browser agent through native WebMCP: start, then one fill and one submit', async () => {
    const page = await openPage()
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('WebMCP.enable' as any)
    const { frameTree } = await cdp.send('Page.getFrameTree')
    const invoke = async (toolName: string, input: object) => {
      const responded = new Promise<any>((resolve) => {
        const listener = (event: any) => {
          cdp.off('WebMCP.toolResponded' as any, listener)
          resolve(event)
        }
        cdp.on('WebMCP.toolResponded' as any, listener)
      })
      await cdp.send(
        'WebMCP.invokeTool' as any,
        { frameId: frameTree.frame.id, toolName, input } as any,
      )
      const response = await responded
      return JSON.parse((response.output.content as { text: string }[])[0].text)
    }
    const names = () =>
      page.evaluate(async () =>
        (
          await (
            document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]> } }
          ).modelContext.getTools()
        ).map((t) => t.name),
      )
    await expect.poll(names).toContain('access.start')
    expect(await names()).not.toContain('access.fill')

    expect(await invoke('access.start', {})).toMatchObject({ status: 'ok' })
    await expect.poll(names).toContain('access.fill')
    const values = {
      who: { email: 'grace.obi@northwind.example', name: 'Grace Obi' },
      system: { system: 'github', level: 'read' },
      why: { reason: 'Reviews the release pipeline', until: '2030-12-31' },
    }
    expect(await invoke('access.fill', { values })).toMatchObject({ status: 'ok' })
    const submitted = invoke('access.submit', {})
    await dialog(page).waitFor()
    expect(await dialog(page).textContent()).toContain('Requested by Browser agent')
    await dialog(page).getByRole('button', { name: 'Approve', exact: true }).click()
    expect(await submitted).toMatchObject({ status: 'ok' })
    expect(await ticketOf('grace.obi@northwind.example')).toMatchObject({
      title: 'Access to GitHub organization (read) for Grace Obi',
      category: 'access',
    })
    await cdp.detach()
    await page.close()
  })
})

describe('the scripted planner in the app', () => {
  it('files “Create a ticket for ana@example.com: VPN keeps dropping, urgent” under that requester', async () => {
    const page = await openPage('#/new')
    await ask(page, 'Create a ticket for ana@example.com: VPN keeps dropping, urgent')
    await dialog(page).waitFor()
    // Fill and submit went out together: no detour through tickets.compose.
    expect(await steps(page, 'tickets.compose').count()).toBe(0)
    const text = (await dialog(page).textContent()) ?? ''
    expect(text).toContain('ana@example.com')
    expect(text).toContain('VPN keeps dropping')
    await dialog(page).getByRole('button', { name: 'Approve', exact: true }).click()
    await page.waitForURL(/#\/tickets\/\d+$/)
    await expect
      .poll(() => page.locator('.bubble--assistant').last().textContent())
      .toMatch(/^Saved ticket #\d+ “VPN keeps dropping”\.$/)
    expect(await ticketOf('ana@example.com')).toMatchObject({
      title: 'VPN keeps dropping',
      requester: 'ana@example.com',
      priority: 'urgent',
    })
    await page.close()
  })

  it('answers gibberish and bulk requests in words, with no dialog', async () => {
    const page = await openPage()
    await ask(page, 'asdf qwer zxcv')
    const answer = page.locator('.bubble--assistant').last()
    await expect.poll(() => answer.textContent()).toContain('I did not understand')
    await ask(page, 'close all tickets')
    await expect
      .poll(() => page.locator('.bubble--assistant').last().textContent())
      .toContain('one ticket at a time')
    expect(await page.locator('.step').count()).toBe(0)
    expect(await dialog(page).count()).toBe(0)
    await page.close()
  })

  it('lists pending tickets and undoes its last priority change', async () => {
    const page = await openPage()
    await ask(page, 'show pending tickets')
    const answer = page.locator('.bubble--assistant').last()
    await expect.poll(() => answer.textContent()).toMatch(/^Found \d+ tickets?:/)
    const pending = await (await fetch(`${app.url}/api/tickets?view=pending`)).json()
    expect(await answer.getByRole('link').count()).toBe((pending as TicketList).tickets.length)

    // Ticket #8 is open (a closed one is refused: its priority would change nothing).
    await ask(page, 'please make ticket number 8 urgent')
    await expect
      .poll(() => page.locator('.bubble--assistant').last().textContent())
      .toContain('Set ticket #8 to urgent')
    const before = (await (await fetch(`${app.url}/api/tickets/8`)).json()) as Ticket
    expect(before.priority).toBe('urgent')
    await ask(page, 'undo that')
    await expect
      .poll(() => page.locator('.bubble--assistant').last().textContent())
      .toContain('Undone')
    await expect
      .poll(
        async () => ((await (await fetch(`${app.url}/api/tickets/8`)).json()) as Ticket).priority,
      )
      .toBe('normal')
    await page.close()
  })
})
