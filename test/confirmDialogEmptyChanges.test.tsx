import { StrictMode } from 'react'
import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import { ConfirmDialog, ToolProvider } from '@toolmark/react'
import { useFormTool } from '@toolmark/react/rhf'

const schema = z.object({ title: z.string(), requester: z.string(), attachment: z.any() })

/** A new-ticket form whose defaults name no file, with a file input nobody used. */
function NewTicket() {
  const form = useForm<{ title: string; requester: string; attachment?: FileList }>({
    defaultValues: { title: '', requester: 'ana@example.com' },
  })
  useFormTool(form, {
    name: 'ticket',
    description: 'The new-ticket form.',
    schema,
    onSubmit: () => null,
    submitSummary: (values) => `Create “${values.title}”`,
  })
  return (
    <form>
      <label>
        Title <input {...form.register('title')} />
      </label>
      <label>
        Requester <input {...form.register('requester')} />
      </label>
      <label>
        Attachment <input type="file" {...form.register('attachment')} />
      </label>
    </form>
  )
}

const flush = () => act(async () => {})

/** The values table's row whose header names `label`. */
const row = (dialog: HTMLElement, label: RegExp) =>
  within(dialog)
    .getAllByRole('row')
    .find((r) => within(r).queryByRole('rowheader', { name: label }))

describe('<ConfirmDialog> change rows', () => {
  it('marks only what changed: a file input with no file is not "Changed"', async () => {
    const tm = createToolmark({ confirm: { inapp: 'deferred' } })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <NewTicket />
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()
    await act(() => tm.call('ticket.fill', { values: { title: 'Printer jammed' } }))

    const asked = await act(() => tm.call('ticket.submit', {}, { caller: 'inapp' }))

    expect(asked).toMatchObject({
      status: 'needs_confirmation',
      changes: [{ path: 'title', after: 'Printer jammed' }],
    })
    const dialog = await screen.findByRole('alertdialog')
    // The whole submission shows, one row per value; only the title is marked as changed.
    const values = within(dialog).getByRole('table', { name: 'Values' })
    const changed = within(values)
      .getAllByRole('row')
      .filter((r) => within(r).queryByText('Changed'))
      .map((r) => within(r).getByRole('rowheader').textContent)
    expect(changed).toEqual(['Title Changed Filled by assistant'])
    expect(within(row(dialog, /Requester/)!).queryByText('Changed')).toBeNull()
  })

  it('leaves out a change whose sides are both empty, whoever listed it', async () => {
    const user = userEvent.setup()
    const tm = createToolmark()
    tm.register({
      name: 'tickets.retitle',
      description: 'Renames a ticket.',
      run: async (_input, ctx) => {
        const { approved } = await ctx.confirm({
          summary: 'Rename ticket #3',
          changes: [
            { path: 'title', before: 'Printer', after: 'Printer jammed' },
            { path: 'note', before: '', after: null },
            { path: 'tags', before: [], after: [] },
          ],
        })
        return ok({ approved })
      },
    })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    await flush()

    const pending = tm.call('tickets.retitle', {}, { caller: 'inapp' })

    const dialog = await screen.findByRole('alertdialog')
    const table = within(dialog).getByRole('table', { name: 'Changes' })
    const headers = within(table)
      .getAllByRole('rowheader')
      .map((cell) => cell.textContent)
    expect(headers).toEqual(['title'])
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }))
    expect(await act(() => pending)).toEqual({ status: 'ok', data: { approved: true } })
  })
})
