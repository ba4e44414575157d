import type { Browser, Page } from 'playwright'
import type { Ticket, TicketList } from '../shared/ticket.ts'
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
  ;[app, browser] = await Promise.all([startHelpdesk({ dataDir }), launchChromium()])
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

async function ticketCount(): Promise<number> {
  const response = await fetch(`${app.url}/api/tickets?view=all`)
  return ((await response.json()) as TicketList).counts.all
}

/**
 * Pastes a file into the assistant's message box the way the browser delivers a paste: a
 * `ClipboardEvent` whose `clipboardData` holds the file. `bytes` are base64, or `{ size }` for a
 * PNG of that many bytes (its signature, then zeros).
 */
async function paste(
  page: Page,
  file: { name: string; type: string; base64?: string; size?: number },
): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message the assistant' })
  await box.focus()
  await box.evaluate((element, { name, type, base64, size }) => {
    const bytes = base64
      ? Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
      : new Uint8Array(size ?? 0)
    if (!base64) bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const clipboardData = new DataTransfer()
    clipboardData.items.add(new File([bytes], name, { type }))
    element.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }),
    )
  }, file)
}

const lastAnswer = (page: Page) => page.locator('.bubble--assistant').last()

describe('“attach the screenshot I just pasted”', () => {
  it('attaches a pasted screenshot to the new ticket, and the server stores its bytes', async () => {
    const page = await openPage('#/new')
    // A real screenshot of the page, pasted into the chat as the clipboard delivers it.
    const screenshot = await page.screenshot({ clip: { x: 0, y: 0, width: 240, height: 160 } })
    await paste(page, {
      name: 'image.png',
      type: 'image/png',
      base64: screenshot.toString('base64'),
    })

    const pasted = page.locator('.bubble--paste').last()
    await expect.poll(() => pasted.textContent()).toContain('as paste:1')
    expect(await pasted.textContent()).toContain('Pasted image.png (')
    expect(await pasted.locator('img').count()).toBe(1)
    // The paste went to the assistant, not into the message box as text.
    expect(await page.getByRole('textbox', { name: 'Message the assistant' }).inputValue()).toBe('')

    const before = await ticketCount()
    await ask(
      page,
      'new ticket: login page shows error 500, high priority, attach the screenshot I just pasted',
    )
    const fill = step(page, 'ticket.fill')
    await expect.poll(() => fill.locator('.step__state').textContent()).toBe('Done')
    expect(await fill.locator('.step__detail').textContent()).toBe(
      'Filled attachment, priority and title',
    )
    // The fill's change shows the file by name, size and type: never its bytes.
    const result = JSON.parse((await fill.locator('.step__result pre').textContent()) ?? '{}')
    expect(result.data.changes[0]).toEqual({
      path: 'attachment',
      after: [{ file: { name: 'image.png', size: screenshot.length, type: 'image/png' } }],
    })
    expect(JSON.stringify(result)).not.toContain(screenshot.toString('base64').slice(0, 40))
    // The form shows it too.
    await expect
      .poll(() => page.getByRole('list', { name: 'Attached files' }).textContent())
      .toContain('image.png')

    // The submit waits for the person, whose dialog lists the file with a preview.
    await dialog(page).waitFor()
    const text = (await dialog(page).textContent()) ?? ''
    expect(text).toContain('Create ticket “Login page shows error 500” (high priority)')
    expect(text).toMatch(/image\.png \([\d.]+ KB, image\/png\)/)
    expect(await dialog(page).locator('[data-part="file-preview"]').count()).toBe(1)
    expect(await ticketCount()).toBe(before)

    await dialog(page).getByRole('button', { name: 'Approve', exact: true }).click()
    const submit = step(page, 'ticket.submit')
    await expect.poll(() => submit.locator('.step__state').textContent()).toBe('Done')
    const saved = /Saved ticket #(\d+) “Login page shows error 500” with image\.png attached/.exec(
      (await submit.locator('.step__detail').textContent()) ?? '',
    )
    expect(saved).not.toBeNull()
    const id = Number(saved![1])

    // The server has the ticket with its attachment, and the very bytes that were pasted.
    const ticket = (await (await fetch(`${app.url}/api/tickets/${id}`)).json()) as Ticket
    expect(ticket).toMatchObject({ title: 'Login page shows error 500', priority: 'high' })
    expect(ticket.attachments).toEqual([
      { id: expect.any(Number), name: 'image.png', size: screenshot.length, type: 'image/png' },
    ])
    const file = await fetch(`${app.url}/api/tickets/${id}/attachments/${ticket.attachments[0].id}`)
    expect(file.headers.get('content-type')).toBe('image/png')
    expect(file.headers.get('x-content-type-options')).toBe('nosniff')
    expect(Buffer.from(await file.arrayBuffer()).equals(screenshot)).toBe(true)

    // The ticket view lists it, with the image itself.
    await page.waitForURL(new RegExp(`#/tickets/${id}$`))
    const attachments = page.getByRole('region', { name: 'Attachments' })
    await expect.poll(() => attachments.getByRole('link').textContent()).toBe('image.png')
    expect(await attachments.textContent()).toContain('image/png')
    await expect
      .poll(() => attachments.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(screenshot.readUInt32BE(16))
    await page.close()
  })

  it('refuses a ref the page does not have, and writes nothing', async () => {
    const page = await openPage('#/new')
    const before = await ticketCount()
    await ask(page, 'new ticket: scanner is offline, attach paste:7')
    const fill = step(page, 'ticket.fill')
    await expect.poll(() => fill.locator('.step__state').textContent()).toBe('Stopped')
    expect(await fill.locator('.step__detail').textContent()).toBe(
      'Refused (file_rejected): File field "attachment" rejected (ref): the app has no file "paste:7"',
    )
    await expect.poll(() => lastAnswer(page).textContent()).toContain('I stopped there.')
    // All or nothing: the title of the same fill was not written, and nothing was submitted.
    expect(await page.getByLabel('Title').inputValue()).toBe('')
    expect(await step(page, 'ticket.submit').count()).toBe(0)
    expect(await dialog(page).isVisible()).toBe(false)
    expect(await ticketCount()).toBe(before)
    await page.close()
  })

  it('refuses a pasted file of a type the form does not take', async () => {
    const page = await openPage('#/new')
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    await paste(page, {
      name: 'diagram.svg',
      type: 'image/svg+xml',
      base64: Buffer.from(svg).toString('base64'),
    })
    await expect
      .poll(() => page.locator('.bubble--paste').last().textContent())
      .toContain('paste:1')
    await ask(page, 'attach the image I just pasted')
    const fill = step(page, 'ticket.fill')
    await expect.poll(() => fill.locator('.step__state').textContent()).toBe('Stopped')
    expect(await fill.locator('.step__detail').textContent()).toBe(
      'Refused (file_rejected): File field "attachment" rejected (accept): image/svg+xml (diagram.svg) is not accepted',
    )
    expect(await page.getByRole('list', { name: 'Attached files' }).count()).toBe(0)
    await page.close()
  })

  it('refuses a pasted file that is too large, and writes none of the fill', async () => {
    const page = await openPage('#/new')
    const before = await ticketCount()
    await paste(page, { name: 'huge.png', type: 'image/png', size: 3 * 1024 * 1024 })
    await expect.poll(() => page.locator('.bubble--paste').last().textContent()).toContain('3 MB')
    await ask(page, 'new ticket: monitor flickers, urgent, attach the screenshot I just pasted')
    const fill = step(page, 'ticket.fill')
    await expect.poll(() => fill.locator('.step__state').textContent()).toBe('Stopped')
    expect(await fill.locator('.step__detail').textContent()).toBe(
      'Refused (file_rejected): File field "attachment" rejected (maxBytes): the file is 3 MB; at most 2 MB',
    )
    expect(await page.getByLabel('Title').inputValue()).toBe('')
    expect(await page.getByRole('radio', { name: 'Urgent' }).isChecked()).toBe(false)
    expect(await step(page, 'ticket.submit').count()).toBe(0)
    expect(await ticketCount()).toBe(before)
    await page.close()
  })

  it('attaches on its own when asked, shows it in the form, and “undo that” takes it off', async () => {
    const page = await openPage('#/new')
    const screenshot = await page.screenshot({ clip: { x: 0, y: 0, width: 120, height: 80 } })
    await paste(page, {
      name: 'image.png',
      type: 'image/png',
      base64: screenshot.toString('base64'),
    })
    await page.getByLabel('Title').fill('Typed by the person')
    await ask(page, 'attach the screenshot I just pasted')
    const fill = step(page, 'ticket.fill')
    await expect.poll(() => fill.locator('.step__state').textContent()).toBe('Done')
    expect(await fill.locator('.step__detail').textContent()).toBe('Filled attachment')
    await expect.poll(() => lastAnswer(page).textContent()).toContain('Attached to the new ticket')
    // Only the attachment: nothing is submitted until the person (or “create it”) says so.
    expect(await step(page, 'ticket.submit').count()).toBe(0)
    const input = page.locator('#field-attachment')
    expect(await input.evaluate((el: HTMLInputElement) => el.files?.[0]?.name)).toBe('image.png')
    expect(await page.getByRole('list', { name: 'Attached files' }).textContent()).toContain(
      'image.png',
    )

    await ask(page, 'undo that')
    await expect.poll(() => lastAnswer(page).textContent()).toMatch(/^Undone: /)
    await expect.poll(() => page.getByRole('list', { name: 'Attached files' }).count()).toBe(0)
    expect(await page.getByLabel('Title').inputValue()).toBe('Typed by the person')
    await page.close()
  })

  it('says to paste first when nothing was pasted', async () => {
    const page = await openPage('#/new')
    await ask(page, 'attach the screenshot I just pasted')
    await expect.poll(() => lastAnswer(page).textContent()).toContain('Nothing has been pasted yet')
    expect(await step(page, 'ticket.fill').count()).toBe(0)
    await page.close()
  })
})

describe('the attachment field, for the person', () => {
  it('uploads a file the person chose with the ticket, and refuses one its rules do not allow', async () => {
    const page = await openPage('#/new')
    const before = await ticketCount()
    await page.getByLabel('Title').fill('Badge reader beeps twice')
    await page.getByLabel('Attachment').setInputFiles({
      name: 'diagram.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    })
    await page.getByRole('button', { name: 'Create ticket', exact: true }).click()
    await expect
      .poll(() => page.locator('#field-attachment-error').textContent())
      .toBe('diagram.svg: attach an image, a PDF or text')
    expect(await ticketCount()).toBe(before)

    const notes = Buffer.from('Beeps twice, then the door stays shut.\n')
    await page.getByLabel('Attachment').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: notes,
    })
    await page.getByRole('button', { name: 'Create ticket', exact: true }).click()
    await page.waitForURL(/#\/tickets\/\d+$/)
    const id = Number(/(\d+)$/.exec(page.url())![1])
    const ticket = (await (await fetch(`${app.url}/api/tickets/${id}`)).json()) as Ticket
    expect(ticket.attachments).toEqual([
      { id: expect.any(Number), name: 'notes.txt', size: notes.length, type: 'text/plain' },
    ])
    const attachments = page.getByRole('region', { name: 'Attachments' })
    await expect.poll(() => attachments.getByRole('link').textContent()).toBe('notes.txt')
    // Text is not an image: listed, without a preview.
    expect(await attachments.locator('img').count()).toBe(0)
    await page.close()
  })
})

describe('the attachment API', () => {
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  )
  const fields = {
    title: 'Keyboard missing keys',
    requester: 'ana@northwind.example',
    category: 'hardware',
    priority: 'low',
    description: '',
  }
  const post = (parts: [string, string | Blob, string?][]) => {
    const body = new FormData()
    for (const [name, value, fileName] of parts) {
      if (typeof value === 'string') body.append(name, value)
      else body.append(name, value, fileName)
    }
    return fetch(`${app.url}/api/tickets`, { method: 'POST', body })
  }

  it('stores a ticket and its file together, with a safe name', async () => {
    const response = await post([
      ['ticket', JSON.stringify(fields)],
      ['attachment', new Blob([PNG], { type: 'image/png' }), '../../etc/\u202Ekeys.png'],
    ])
    expect(response.status).toBe(201)
    const ticket = (await response.json()) as Ticket
    expect(ticket.attachments).toEqual([
      { id: expect.any(Number), name: 'keys.png', size: PNG.length, type: 'image/png' },
    ])
    const file = await fetch(
      `${app.url}/api/tickets/${ticket.id}/attachments/${ticket.attachments[0].id}`,
    )
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true)
    // Another ticket's attachment id is not this ticket's.
    const other = await fetch(`${app.url}/api/tickets/1/attachments/${ticket.attachments[0].id}`)
    expect(other.status).toBe(404)
  })

  it.each([
    [
      'a type it does not take',
      [['attachment', new Blob(['<svg/>'], { type: 'image/svg+xml' }), 'a.svg']],
      415,
      'unsupported_type',
    ],
    [
      'bytes that are not of the declared type',
      [['attachment', new Blob(['MZ\u0090\u0000'], { type: 'image/png' }), 'tool.png']],
      415,
      'unsupported_type',
    ],
    [
      'a file over 2 MB',
      [
        [
          'attachment',
          new Blob([PNG, new Uint8Array(2 * 1024 * 1024)], { type: 'image/png' }),
          'big.png',
        ],
      ],
      413,
      'too_large',
    ],
    [
      'two files',
      [
        ['attachment', new Blob([PNG], { type: 'image/png' }), 'a.png'],
        ['attachment', new Blob([PNG], { type: 'image/png' }), 'b.png'],
      ],
      400,
      'invalid',
    ],
    ['a part it does not know', [['extra', 'x']], 400, 'invalid'],
  ] as [string, [string, string | Blob, string?][], number, string][])(
    'refuses %s and stores nothing',
    async (_name, parts, status, code) => {
      const before = await ticketCount()
      const response = await post([['ticket', JSON.stringify(fields)], ...parts])
      expect(response.status).toBe(status)
      expect(((await response.json()) as { error: string }).error).toBe(code)
      expect(await ticketCount()).toBe(before)
    },
  )

  it('refuses a body larger than a ticket and its file may be', async () => {
    const before = await ticketCount()
    const response = await post([
      ['ticket', JSON.stringify(fields)],
      ['attachment', new Blob([new Uint8Array(5 * 1024 * 1024)], { type: 'image/png' }), 'x.png'],
    ])
    expect(response.status).toBe(413)
    expect(await ticketCount()).toBe(before)
  })
})
