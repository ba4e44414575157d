import { StrictMode } from 'react'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { vi } from 'vitest'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import { ConfirmDialog, ToolProvider } from '@toolmark/react'
import { ToolmarkDevtools } from '@toolmark/react/devtools'

const RLO = '\u202e'
const ZWSP = '\u200b'
const LRI = '\u2066'

/** A payment whose summary and values carry what the agent wrote. */
function payments() {
  const tm = createToolmark()
  tm.register({
    name: 'pay',
    title: 'Pay invoice',
    description: 'Pays an invoice.',
    hints: { consequential: true },
    input: z.object({ iban: z.string(), email: z.string() }),
    summary: (input) => `Pay 500 EUR to ${input.iban}`,
    run: () => ok(true),
  })
  return tm
}

const input = {
  iban: `DE89 3704 ${RLO}0044 0532 0130 00`,
  email: `billing@exa${ZWSP}mple.com${LRI}moc.live`,
}

// Role queries over a whole dialog take seconds in jsdom on a loaded machine.
vi.setConfig({ testTimeout: 15_000 })

describe('agent text in the dialog and the devtools', () => {
  it('shows bidirectional and invisible characters as marks, in isolated runs', async () => {
    const tm = payments()
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    await act(() => tm.call('pay', input, { caller: 'inapp' }))
    const dialog = screen.getByRole('alertdialog')
    const text = dialog.textContent ?? ''
    // None of the characters reaches the page: nothing can reorder or hide what is read.
    expect(text).not.toMatch(/[\u202e\u200b\u2066]/)
    expect(text).toContain('Pay 500 EUR to DE89 3704 ⟦RLO⟧0044 0532 0130 00')
    expect(text).toContain('billing@exa⟦ZWSP⟧mple.com⟦LRI⟧moc.live')
    const summary = dialog.querySelector('[data-part="summary"]')!
    expect(summary.querySelector('bdi')).not.toBeNull()
    expect(within(summary as HTMLElement).getByTitle('Hidden character U+202E')).toHaveTextContent(
      '⟦RLO⟧',
    )
    // Every value and label sits in its own isolate.
    const values = within(dialog).getByRole('table', { name: 'Values' })
    for (const cell of within(values).getAllByRole('cell')) {
      expect(cell.querySelector('bdi')).not.toBeNull()
    }
    expect(dialog.querySelector('[data-part="title"] bdi')).toHaveTextContent('Pay invoice')
  })

  it('leaves plain text as it is, with emoji and right-to-left words', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'note',
      description: 'Adds a note.',
      hints: { consequential: true },
      input: z.object({ text: z.string() }),
      summary: (value) => `Add "${value.text}"`,
      run: () => ok(true),
    })
    render(
      <ToolProvider toolmark={tm}>
        <ConfirmDialog />
      </ToolProvider>,
    )
    await act(() => tm.call('note', { text: 'שלום 👍🏽 ok' }, { caller: 'inapp' }))
    const summary = screen.getByRole('alertdialog').querySelector('[data-part="summary"]')!
    expect(summary.textContent).toBe('Add "שלום 👍🏽 ok"')
    expect(summary.querySelector('[data-part="invisible"]')).toBeNull()
  })

  it('marks them in the devtools too: summary, changes and JSON', async () => {
    const tm = payments()
    render(
      <ToolProvider toolmark={tm}>
        <ToolmarkDevtools initialIsOpen />
      </ToolProvider>,
    )
    await act(() => tm.call('pay', input, { caller: 'inapp' }))
    fireEvent.click(screen.getByRole('tab', { name: /Confirmations/ }))
    const pending = screen.getByRole('list', { name: 'Pending confirmations' })
    const text = pending.textContent ?? ''
    expect(text).not.toMatch(/[\u202e\u200b\u2066]/)
    expect(text).toContain('DE89 3704 ⟦RLO⟧0044')
    const json = pending.querySelector('[data-part="json"] bdi')!
    expect(json.getAttribute('dir')).toBe('ltr')
    expect(json.textContent).toContain('billing@exa⟦ZWSP⟧mple.com⟦LRI⟧moc.live')
  })
})
