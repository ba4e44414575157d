import { createRequire } from 'node:module'
import type { Browser, Page } from 'playwright'
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
  ;[app, browser] = await Promise.all([startHelpdesk({ dataDir }), launchChromium()])
})

afterAll(async () => {
  await browser?.close()
  await app?.stop()
  if (dataDir) removeDir(dataDir)
})

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

/** axe's violations on the page, of every impact, as `impact rule: targets`. */
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

async function openPage(hash = '', colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme })
  page.on('pageerror', (error) => {
    throw error
  })
  await page.goto(`${app.url}/${hash}`)
  await page.getByRole('list', { name: 'Tickets' }).waitFor()
  return page
}

const form = (page: Page) => page.getByRole('form', { name: 'New ticket' })
const marks = (page: Page) => form(page).locator('[data-agent-filled]')
const mark = (page: Page, path: string) => form(page).locator(`[data-agent-filled="${path}"]`)

describe('the ticket form shows what the assistant wrote', () => {
  it('marks agent-filled fields in the submit confirmation and in the form, and reverts one field', async () => {
    const page = await openPage('#/new')
    await page.getByRole('form', { name: 'New ticket' }).getByLabel('Description').fill('Mine')
    await ask(page, 'new ticket: printer jammed, high priority')

    // The submit confirmation marks the fields the assistant filled, not the one the person typed.
    await dialog(page).waitFor()
    const values = dialog(page).getByRole('table', { name: 'Values' })
    const row = (label: string) => values.getByRole('row').filter({ hasText: label }).first()
    expect(await row('Title').textContent()).toContain('Filled by assistant')
    expect(await row('Priority').textContent()).toContain('Filled by assistant')
    expect(await row('Description').textContent()).not.toContain('Filled by assistant')
    expect(await row('Requester').textContent()).not.toContain('Filled by assistant')
    await dialog(page).getByRole('button', { name: 'Deny', exact: true }).click()
    await dialog(page).waitFor({ state: 'detached' })

    // The form marks the same fields, each with a revert control.
    await expect.poll(() => marks(page).count()).toBe(2)
    expect(await mark(page, 'title').textContent()).toContain('filled by assistant')
    expect(await mark(page, 'priority').textContent()).toContain('filled by assistant')

    // Reverting the title puts back what it held; the priority the assistant chose stays.
    const revert = mark(page, 'title').getByRole('button', {
      name: 'Revert to the value before the assistant',
    })
    await revert.focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => form(page).getByLabel('Title').inputValue()).toBe('')
    expect(
      await form(page)
        .getByRole('group', { name: 'Priority' })
        .getByRole('radio', { name: 'High' })
        .isChecked(),
    ).toBe(true)
    await expect.poll(() => marks(page).count()).toBe(1)
    expect(await form(page).getByLabel('Description').inputValue()).toBe('Mine')

    // A person's edit takes a field back from the assistant: its mark goes.
    await form(page)
      .getByRole('group', { name: 'Priority' })
      .locator('label', { hasText: 'Low' })
      .click()
    await expect.poll(() => marks(page).count()).toBe(0)
    await page.close()
  })

  it('is axe-clean with the marks shown, in the dialog and in the form, light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await openPage('#/new', scheme)
      await ask(page, 'new ticket: printer jammed, high priority')
      await dialog(page).waitFor()
      await expect
        .poll(() => dialog(page).getByText('Filled by assistant').count())
        .toBeGreaterThan(0)
      expect(await axeViolations(page)).toEqual([])
      await dialog(page).getByRole('button', { name: 'Deny', exact: true }).click()
      await dialog(page).waitFor({ state: 'detached' })
      await expect.poll(() => marks(page).count()).toBe(2)
      expect(await axeViolations(page)).toEqual([])
      await page.close()
    }
  })
})
