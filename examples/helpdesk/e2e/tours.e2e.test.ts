import type { Page } from 'playwright'
import { pageUnderTest, type PageUnderTest } from '@toolmark/core/testing'
import type { Ticket, TicketList } from '../shared/ticket.ts'
import { NEW_TICKET_TOUR } from '../src/tours.ts'
import { ask, helpdeskSuite } from './harness.ts'

// Guided tours of the new-ticket form, in each mode, with the app's own <TourOverlay />: started
// by the assistant ("show me how to file a ticket") or, for `show` and `do`, by the tools fixture
// calling `tour.start` as caller `test`.

// The test build: the page installs the hook the tools fixture drives.
const suite = helpdeskSuite([], { VITE_TOOLMARK_TEST_HOOK: '1' })

/** The app on its home page (the new-ticket form beside the queue); page errors are collected. */
async function openPage(): Promise<{ page: Page; tools: PageUnderTest; errors: string[] }> {
  const page = await suite.browser.newPage({ viewport: { width: 1440, height: 900 } })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(`${suite.app.url}/`)
  await page.getByRole('list', { name: 'Tickets' }).waitFor()
  const tools = pageUnderTest(page)
  await tools.waitForTool('tour.start', { timeoutMs: 20_000 })
  await tools.waitForTool('ticket.fill', { timeoutMs: 20_000 })
  return { page, tools, errors }
}

async function tickets(): Promise<Ticket[]> {
  const response = await fetch(`${suite.app.url}/api/tickets?view=all&limit=100`)
  return ((await response.json()) as TicketList).tickets
}

/** The tour's panel, named by its step's title. */
const panel = (page: Page, title?: string) =>
  page.getByRole('dialog', title === undefined ? {} : { name: title, exact: true })
const form = (page: Page) => page.getByRole('form', { name: 'New ticket' })
const toasts = (page: Page) => page.locator('.toasts')

describe('a show tour', () => {
  it('points at each step of the form in turn; Next moves on, Back goes back, Done ends it', async () => {
    const { page, tools, errors } = await openPage()
    const started = await tools.call(
      'tour.start',
      { mode: 'show', steps: NEW_TICKET_TOUR },
      { caller: 'test' },
    )
    expect(started).toMatchObject({ status: 'ok', data: { started: true, mode: 'show', steps: 4 } })

    const first = panel(page, 'Say what broke')
    await first.waitFor()
    await expect.poll(() => first.textContent()).toContain('at least 3 characters')
    expect(await first.getByRole('button', { name: 'Back' }).isDisabled()).toBe(true)
    await first.getByRole('button', { name: 'Next' }).click()
    await panel(page, 'How urgent is it?').waitFor()
    await panel(page, 'How urgent is it?').getByRole('button', { name: 'Back' }).click()
    await panel(page, 'Say what broke').waitFor()
    await panel(page, 'Say what broke').getByRole('button', { name: 'Next' }).click()
    await panel(page, 'How urgent is it?').getByRole('button', { name: 'Next' }).click()
    await panel(page, 'Add the details').getByRole('button', { name: 'Next' }).click()

    const last = panel(page, 'Create the ticket')
    await last.waitFor()
    expect(await last.getByRole('button', { name: 'Next' }).count()).toBe(0)
    await last.getByRole('button', { name: 'Done' }).click()
    await panel(page).waitFor({ state: 'detached' })
    // Done, not stopped. (Not the count: core counts each Next, so Back and Next again over-count.)
    await expect.poll(() => toasts(page).textContent()).toContain('Tour finished')

    // Showing changes nothing: the form is as empty as before.
    expect(await form(page).getByLabel('Title').inputValue()).toBe('')
    expect(errors).toEqual([])
    await page.close()
  })

  it('skips a step whose field is no longer on the page and moves on to the next', async () => {
    const { page, tools, errors } = await openPage()
    await tools.call('tour.start', { mode: 'show', steps: NEW_TICKET_TOUR }, { caller: 'test' })
    await panel(page, 'Say what broke').waitFor()
    // The description field goes away before the tour reaches it.
    await page.evaluate(() => document.getElementById('field-description')!.remove())

    await panel(page, 'Say what broke').getByRole('button', { name: 'Next' }).click()
    await panel(page, 'How urgent is it?').getByRole('button', { name: 'Next' }).click()
    // Straight from the priority to the submit: no panel for the missing field.
    const last = panel(page, 'Create the ticket')
    await last.waitFor()
    expect(await panel(page, 'Add the details').count()).toBe(0)
    await last.getByRole('button', { name: 'Done' }).click()
    await panel(page).waitFor({ state: 'detached' })
    await expect
      .poll(() => toasts(page).textContent())
      .toContain('Tour finished: 3 steps done, 1 skipped')
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('a guide tour started by the assistant', () => {
  it('waits for the person at each step, says what is wrong, skips, and ends done on submit', async () => {
    const { page, errors } = await openPage()
    await ask(page, 'show me how to file a ticket')

    const title = panel(page, 'Say what broke')
    await title.waitFor()
    await expect
      .poll(() =>
        page
          .getByRole('list', { name: 'Conversation' })
          .locator('.step[data-tool="tour.start"]')
          .textContent(),
      )
      .toContain('Started a tour of 4 steps')
    // In a guide the person moves on by doing the step: Skip, never Next.
    expect(await title.getByRole('button', { name: 'Next' }).count()).toBe(0)

    // Too short: the panel says what the form's own schema says, and waits. (`fill` is one input
    // event, as a paste is: the step is checked with the value that event brought.)
    const field = form(page).getByLabel('Title')
    await field.fill('Ba')
    await expect
      .poll(() => title.textContent())
      .toContain('Give the ticket a title of at least 3 characters')
    expect(await title.isVisible()).toBe(true)

    // Valid: the step is done. The priority holds a good value already, so the tour goes on to
    // the description.
    await field.fill('Badge reader at the side door is dead')
    const details = panel(page, 'Add the details')
    await details.waitFor()
    await details.getByRole('button', { name: 'Skip' }).click()

    const submit = panel(page, 'Create the ticket')
    await submit.waitFor()
    await form(page).getByRole('button', { name: 'Create ticket', exact: true }).click()
    await panel(page).waitFor({ state: 'detached' })
    // Done, not stopped: the title and the priority done, the description skipped, the submit done.
    await expect
      .poll(() => toasts(page).textContent())
      .toContain('Tour finished: 3 steps done, 1 skipped')
    await page.waitForURL(/#\/tickets\/\d+$/)
    const id = Number(/(\d+)$/.exec(page.url())![1])
    expect((await tickets()).find((ticket) => ticket.id === id)).toMatchObject({
      title: 'Badge reader at the side door is dead',
    })
    expect(errors).toEqual([])
    await page.close()
  })

  it('starts the same tour from the form’s Show me how button, and Stop ends it', async () => {
    const { page, errors } = await openPage()
    await form(page).getByRole('button', { name: 'Show me how' }).click()
    const title = panel(page, 'Say what broke')
    await title.waitFor()
    await title.getByRole('button', { name: 'Stop tour' }).click()
    await panel(page).waitFor({ state: 'detached' })
    // Stopped, not done: nothing to report.
    expect(await toasts(page).textContent()).not.toContain('Tour finished')
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('a do tour', () => {
  it('fills the form while the person watches and waits for their approval to submit', async () => {
    const { page, tools, errors } = await openPage()
    const before = (await tickets()).length
    const started = await tools.call(
      'tour.start',
      {
        mode: 'do',
        steps: [
          {
            tool: 'ticket.fill',
            field: 'title',
            value: 'Tour: meeting room display is blank',
            title: 'Say what broke',
            text: 'The title comes first.',
          },
          {
            tool: 'ticket.fill',
            field: 'priority',
            value: 'high',
            title: 'How urgent is it?',
            text: 'High: people are waiting.',
          },
          {
            tool: 'ticket.submit',
            title: 'Create the ticket',
            text: 'Submitting asks for your approval first.',
          },
        ],
      },
      { caller: 'test' },
    )
    expect(started).toMatchObject({ status: 'ok', data: { mode: 'do', steps: 3 } })

    const title = form(page).getByLabel('Title')
    await expect.poll(() => title.inputValue()).toBe('Tour: meeting room display is blank')
    await expect.poll(() => form(page).getByRole('radio', { name: 'High' }).isChecked()).toBe(true)

    // The submit is consequential: the tour waits for the person, and the dialog asks on top.
    const waiting = panel(page, 'Create the ticket')
    await waiting.waitFor()
    await expect.poll(() => waiting.textContent()).toContain('Waiting for your approval')
    const dialog = page.getByRole('alertdialog')
    await dialog.waitFor()
    await expect.poll(() => dialog.textContent()).toContain('Tour')
    const approve = dialog.getByRole('button', { name: 'Approve', exact: true })
    // Nothing of the tour covers the dialog's buttons.
    expect(
      await approve.evaluate((button) => {
        const box = button.getBoundingClientRect()
        const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)
        return top === button || button.contains(top)
      }),
    ).toBe(true)
    await approve.click()

    await page.waitForURL(/#\/tickets\/\d+$/)
    await panel(page).waitFor({ state: 'detached' })
    await expect.poll(() => toasts(page).textContent()).toContain('Tour finished: 3 steps done')
    const all = await tickets()
    expect(all).toHaveLength(before + 1)
    expect(
      all.find((ticket) => ticket.title === 'Tour: meeting room display is blank'),
    ).toMatchObject({ priority: 'high', status: 'open' })
    expect(errors).toEqual([])
    await page.close()
  })
})
