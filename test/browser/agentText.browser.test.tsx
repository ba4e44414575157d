import { StrictMode } from 'react'
import { render } from 'vitest-browser-react'
import { page } from 'vitest/browser'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import { ConfirmDialog, ToolProvider } from '@toolmark/react'

/** The left edge of each occurrence of `chars` in `root`'s text, in DOM order. */
function leftEdges(root: Element, chars: string): number[] {
  const edges: number[] = []
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? ''
    for (let i = 0; i < text.length; i++) {
      if (!chars.includes(text[i])) continue
      const range = document.createRange()
      range.setStart(node, i)
      range.setEnd(node, i + 1)
      edges.push(range.getBoundingClientRect().left)
    }
  }
  return edges
}

const increasing = (values: number[]) => values.every((v, i) => i === 0 || v > values[i - 1])

describe('agent text in Chromium', () => {
  it('an override in a summary cannot make an IBAN read backwards', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'pay',
      title: 'Pay invoice',
      description: 'Pays an invoice.',
      hints: { consequential: true },
      input: z.object({ iban: z.string() }),
      summary: (input) => `Pay to ${input.iban} now`,
      run: () => ok(true),
    })
    // The digits 1…9 in order after the override; a reader must see them left to right.
    const iban = 'DE\u202e123456789'
    await render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <p data-testid="raw">{`Pay to ${iban} now`}</p>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    await tm.call('pay', { iban }, { caller: 'inapp' })
    await expect.element(page.getByRole('alertdialog')).toBeVisible()
    const summary = document.querySelector('[role="alertdialog"] [data-part="summary"]')!
    // Without the dialog's handling, the browser draws them right to left: the test can fail.
    expect(increasing(leftEdges(page.getByTestId('raw').element(), '123456789'))).toBe(false)
    expect(increasing(leftEdges(summary, '123456789'))).toBe(true)
    // The words after it stay after it, and the mark is visible.
    const [lastDigit] = leftEdges(summary, '9')
    const [n] = leftEdges(summary, 'n')
    expect(n).toBeGreaterThan(lastDigit)
    await expect.element(page.getByTitle('Hidden character U+202E').first()).toBeVisible()
  })
})
