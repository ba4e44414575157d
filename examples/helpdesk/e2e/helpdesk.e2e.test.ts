import type { Browser, Page } from 'playwright'
import type { Ticket, TicketList } from '../shared/ticket.ts'
import {
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
  ;[app, browser] = await Promise.all([startHelpdesk({ dataDir }), launchChromium()])
})

afterAll(async () => {
  await browser?.close()
  await app?.stop()
  if (dataDir) removeDir(dataDir)
})

async function openPage(hash = ''): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(`${app.url}/${hash}`)
  await page.getByRole('list', { name: 'Tickets' }).waitFor()
  expect(errors).toEqual([])
  return page
}

async function apiJson<T>(path: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const response = await fetch(`${app.url}/api${path}`, init)
  const text = await response.text()
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T }
}

const rowTitles = (page: Page) =>
  page.getByRole('list', { name: 'Tickets' }).locator('.ticket-row__title').allTextContents()

describe('the helpdesk, started with npm start', () => {
  it('lists the seeded tickets, newest first, with counts per view', async () => {
    const page = await openPage()
    const titles = await rowTitles(page)
    // The inbox shows open and pending tickets: 9 of the 12 seeded.
    expect(titles).toHaveLength(9)
    expect(titles[0]).toBe('Badge does not open the server room door')
    expect(titles).toContain('Printer on floor 3 keeps reporting a paper jam in tray 2')
    expect(titles).not.toContain('Reset MFA after phone replacement')

    const views = page.getByRole('navigation', { name: 'Ticket views' })
    await expect
      .poll(() => views.getByRole('button', { name: /All tickets/ }).textContent())
      .toMatch(/12$/)
    await views.getByRole('button', { name: /Closed/ }).click()
    await expect.poll(() => rowTitles(page)).toHaveLength(3)
    expect(await rowTitles(page)).toContain('Reset MFA after phone replacement')
    await page.close()
  })

  it('searches titles, descriptions and people', async () => {
    const page = await openPage()
    await page.getByRole('searchbox', { name: 'Search tickets' }).fill('printer')
    await expect
      .poll(() => rowTitles(page))
      .toEqual([
        'Warehouse label printer prints blank labels',
        'Printer on floor 3 keeps reporting a paper jam in tray 2',
      ])
    await page.getByRole('searchbox', { name: 'Search tickets' }).fill('daniel')
    await expect.poll(() => rowTitles(page)).toEqual(['Need access to the Finance shared drive'])
    await page.close()
  })

  it('creates a ticket through the form, and the ticket survives a reload', async () => {
    const page = await openPage('#/new')
    await page.getByLabel('Title').fill('Projector in room Kilimanjaro shows no signal')
    await page.getByLabel('Requester email').fill('nina.larsen@northwind.example')
    await page.getByLabel('Category').selectOption('hardware')
    await page.getByRole('group', { name: 'Priority' }).getByText('High').click()
    await page
      .getByLabel('Description')
      .fill('HDMI and USB-C both show "No signal". The cable works on another screen.')
    await page.getByRole('button', { name: 'Create ticket', exact: true }).click()

    await page.waitForURL(/#\/tickets\/13$/)
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('Projector in room Kilimanjaro shows no signal')
    await expect
      .poll(() => rowTitles(page))
      .toContain('Projector in room Kilimanjaro shows no signal')
    expect(await page.locator('.toasts').textContent()).toContain('Ticket #13 created')

    await page.reload()
    await page.getByRole('list', { name: 'Tickets' }).waitFor()
    expect((await rowTitles(page))[0]).toBe('Projector in room Kilimanjaro shows no signal')
    await expect
      .poll(() => page.locator('.detail__meta').textContent())
      .toContain('nina.larsen@northwind.example')

    const stored = await apiJson<Ticket>('/tickets/13')
    expect(stored.status).toBe(200)
    expect(stored.body).toMatchObject({
      id: 13,
      title: 'Projector in room Kilimanjaro shows no signal',
      requester: 'nina.larsen@northwind.example',
      category: 'hardware',
      priority: 'high',
      status: 'open',
    })
    await page.close()
  })

  it('shows what is wrong with an invalid ticket and saves nothing', async () => {
    const before = await apiJson<TicketList>('/tickets?view=all')
    const page = await openPage('#/new')
    await page.getByLabel('Title').fill('No')
    await page.getByLabel('Requester email').fill('not an email')
    await page.getByRole('button', { name: 'Create ticket', exact: true }).click()

    await expect
      .poll(() => page.locator('.field__error').allTextContents())
      .toEqual([
        'Give the ticket a title of at least 3 characters',
        'Enter the email address of the person who reported it',
      ])
    expect(await page.getByLabel('Title').getAttribute('aria-invalid')).toBe('true')
    expect(page.url()).toMatch(/#\/new$/)
    const after = await apiJson<TicketList>('/tickets?view=all')
    expect(after.body.counts.all).toBe(before.body.counts.all)
    await page.close()
  })

  it('edits, closes and deletes a ticket from the detail pane', async () => {
    const page = await openPage('#/tickets/6')
    await page.getByRole('link', { name: 'Edit' }).click()
    await page.getByLabel('Title').fill('Laptop and headset for new starter Aisha Khan')
    await page.getByRole('button', { name: 'Save changes', exact: true }).click()
    await page.waitForURL(/#\/tickets\/6$/)
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('Laptop and headset for new starter Aisha Khan')

    await page.getByRole('button', { name: 'Close ticket', exact: true }).click()
    await expect.poll(() => page.locator('.detail__toolbar .status').textContent()).toBe('Closed')
    expect((await apiJson<Ticket>('/tickets/6')).body.status).toBe('closed')

    await page.getByRole('button', { name: 'Delete ticket', exact: true }).click()
    await page.getByRole('button', { name: 'Delete for good', exact: true }).click()
    await page.waitForURL(/#\/$/)
    expect((await apiJson('/tickets/6')).status).toBe(404)
    await page.close()
  })

  it('answers the API with validation issues and proper status codes', async () => {
    const json = { 'Content-Type': 'application/json' }
    const invalid = await apiJson<{ error: string; issues: { path: string }[] }>('/tickets', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ title: 'Hi', requester: 'x', category: 'coffee', priority: 'high' }),
    })
    expect(invalid.status).toBe(400)
    expect(invalid.body.error).toBe('invalid')
    expect(invalid.body.issues.map((issue) => issue.path).sort()).toEqual([
      'category',
      'description',
      'requester',
      'title',
    ])

    const created = await apiJson<Ticket>('/tickets', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        title: '  Keyboard missing the letter E  ',
        requester: 'ravi.shah@northwind.example',
        category: 'hardware',
        priority: 'low',
        description: '',
      }),
    })
    expect(created.status).toBe(201)
    expect(created.body.title).toBe('Keyboard missing the letter E')

    const id = created.body.id
    const patched = await apiJson<Ticket>(`/tickets/${id}`, {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ priority: 'urgent', status: 'pending' }),
    })
    expect(patched.body).toMatchObject({ priority: 'urgent', status: 'pending' })
    const unknownField = await apiJson(`/tickets/${id}`, {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ id: 1 }),
    })
    expect(unknownField.status).toBe(400)

    expect((await apiJson(`/tickets/${id}/close`, { method: 'POST' })).status).toBe(200)
    const again = await apiJson<{ error: string }>(`/tickets/${id}/close`, { method: 'POST' })
    expect(again).toEqual({
      status: 409,
      body: { error: 'already_closed', message: `Ticket #${id} is already closed` },
    })

    expect((await apiJson(`/tickets/${id}`, { method: 'DELETE' })).status).toBe(204)
    expect((await apiJson(`/tickets/${id}`, { method: 'DELETE' })).status).toBe(404)
    expect((await apiJson('/tickets/999999')).status).toBe(404)
    expect((await apiJson('/tickets', { method: 'PUT' })).status).toBe(405)
    expect((await apiJson('/tickets', { method: 'POST', body: 'title=x' })).status).toBe(415)
    expect(
      (await apiJson('/tickets', { method: 'POST', headers: json, body: '{"title":' })).status,
    ).toBe(400)
    expect(
      (
        await apiJson('/tickets', {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ description: 'x'.repeat(70_000) }),
        })
      ).status,
    ).toBe(413)
    expect((await apiJson('/nothing')).status).toBe(404)
  })

  it('keeps its data on disk when the app restarts', async () => {
    const before = await apiJson<TicketList>('/tickets?view=all')
    await app.stop()
    app = await startHelpdesk({ dataDir })
    const after = await apiJson<TicketList>('/tickets?view=all')
    // Not seeded again: the same tickets, including the one created through the form.
    expect(after.body.counts).toEqual(before.body.counts)
    expect(after.body.tickets.map((t) => t.title)).toContain(
      'Projector in room Kilimanjaro shows no signal',
    )
  })
})
