import type { Browser, Page } from 'playwright'
import type { Ticket, TicketList } from '../shared/ticket.ts'
import {
  authenticatorOn,
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

async function openPage(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  page.on('pageerror', (error) => {
    throw error
  })
  await page.goto(`${app.url}/`)
  await page.getByRole('list', { name: 'Tickets' }).waitFor()
  return page
}

async function tickets(): Promise<Ticket[]> {
  const response = await fetch(`${app.url}/api/tickets?view=all`)
  return ((await response.json()) as TicketList).tickets
}

const exists = async (id: number) => (await fetch(`${app.url}/api/tickets/${id}`)).status === 200

/** A browser agent: native WebMCP invoked over CDP, and the page's own Approve button. */
async function agentOn(page: Page) {
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
  return { cdp, invoke }
}

const dialog = (page: Page) => page.locator('dialog[role="alertdialog"]')
const closeNotice = (page: Page) =>
  dialog(page).locator('[data-part="actions"] button', { hasText: 'Close' }).click()
const approve = (page: Page) =>
  dialog(page).getByRole('button', { name: 'Delete ticket', exact: true })

describe('tickets.delete for a browser agent, behind the person’s passkey', () => {
  it('deletes nothing when the agent presses Approve; deletes with the person’s passkey; the server refuses a replay', async () => {
    const page = await openPage()
    const { cdp, invoke } = await agentOn(page)
    const authenticator = await authenticatorOn(cdp)
    const [first, second] = await tickets()
    const bodies: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'DELETE') bodies.push(request.postData() ?? '')
    })

    // The agent asks, then drives the page and presses Approve itself: the person verifies nothing.
    await authenticator.setUserVerified(false)
    const deleting = invoke('tickets.delete', { id: first.id })
    await dialog(page).waitFor()
    expect(await dialog(page).textContent()).toContain('Approving asks for your passkey')
    await approve(page).click()
    await dialog(page).getByText('Your passkey did not confirm this request').waitFor()
    expect(await exists(first.id)).toBe(true)

    // A script on the page presses Approve (no pointer at all): refused the same way.
    await closeNotice(page)
    await page.evaluate(() => {
      const buttons = document.querySelectorAll<HTMLButtonElement>(
        'dialog[role="alertdialog"] button[data-action="approve"]',
      )
      buttons[0]?.click()
    })
    await dialog(page).getByText('Your passkey did not confirm this request').waitFor()
    expect(await exists(first.id)).toBe(true)

    // The person approves with their fingerprint (enrolled on this first use).
    await closeNotice(page)
    await authenticator.setUserVerified(true)
    await approve(page).click()
    expect(await deleting).toMatchObject({ status: 'ok', data: { id: first.id, deleted: true } })
    expect(await exists(first.id)).toBe(false)

    // The approval the page sent, replayed to the server for another ticket and for the same one.
    const sent = bodies.find((b) => b.includes('"approval"'))!
    expect(sent).toBeTruthy()
    for (const id of [second.id, first.id]) {
      const replay = await fetch(`${app.url}/api/tickets/${id}`, {
        method: 'DELETE',
        headers: { 'Content-Type': 'application/json', 'X-Toolmark-Caller': 'webmcp' },
        body: sent,
      })
      expect(replay.status).toBe(403)
      expect(await replay.json()).toMatchObject({ error: 'verification_failed' })
    }
    expect(await exists(second.id)).toBe(true)

    // Without any approval, a browser agent's delete is refused by the server too.
    const bare = await fetch(`${app.url}/api/tickets/${second.id}`, {
      method: 'DELETE',
      headers: { 'X-Toolmark-Caller': 'webmcp' },
    })
    expect(bare.status).toBe(403)
    expect(await exists(second.id)).toBe(true)
    await cdp.detach()
    await page.close()
  })
})
