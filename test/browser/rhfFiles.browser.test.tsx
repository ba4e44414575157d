import { StrictMode } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { render } from 'vitest-browser-react'
import { page, userEvent } from 'vitest/browser'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { createToolmark } from '@toolmark/core'
import { fileFields } from '@toolmark/core/forms'
import { ConfirmDialog, ToolProvider } from '@toolmark/react'
import { useFormTool } from '@toolmark/react/rhf'

const schema = z.object({
  title: z.string().min(1),
  attachment: z.instanceof(FileList).optional(),
})
type Values = z.infer<typeof schema>

function NewTicket({ onSubmit }: { onSubmit: (values: Values) => unknown }) {
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { title: '' } })
  useFormTool(form, {
    name: 'ticket',
    title: 'New ticket',
    description: 'The new-ticket form.',
    schema,
    onSubmit,
    files: fileFields({ attachment: { accept: 'image/*', maxBytes: 1_000_000 } }),
  })
  const attachment = form.watch('attachment')
  return (
    <form onSubmit={form.handleSubmit(onSubmit)}>
      <label>
        Title <input {...form.register('title')} />
      </label>
      <label>
        Attachment <input type="file" accept="image/*" {...form.register('attachment')} />
      </label>
      <output>{`attached: ${attachment?.[0]?.name ?? 'none'}`}</output>
    </form>
  )
}

describe('useFormTool file fields in Chromium', () => {
  it('sets a FileList on a registered file input, submits it, and undo empties it', async () => {
    const shot = new File(['png'], 'shot.png', { type: 'image/png' })
    const tm = createToolmark({
      files: { resolve: (ref) => (ref === 'paste-1' ? shot : undefined) },
    })
    const onSubmit = vi.fn((_values: Values) => ({ id: 't1' }))
    const ids: string[] = []
    tm.events.on('result', (e) => ids.push(e.callId))
    await render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <NewTicket onSubmit={onSubmit} />
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )
    await expect.poll(() => tm.manifest().tools.length).toBe(3)

    const filled = await tm.call('ticket.fill', {
      values: { title: 'Screen broken', attachment: { ref: 'paste-1' } },
    })
    expect(filled).toEqual({
      status: 'ok',
      data: {
        changes: [
          {
            path: 'attachment',
            after: [{ file: { name: 'shot.png', size: 3, type: 'image/png' } }],
          },
          { path: 'title', after: 'Screen broken' },
        ],
        skipped: [],
      },
    })
    const fillId = ids[ids.length - 1]
    await expect.element(page.getByText('attached: shot.png')).toBeVisible()
    const input = page.getByLabelText('Attachment').element() as HTMLInputElement
    expect(input.files?.[0]?.name).toBe('shot.png')

    const submitted = tm.call('ticket.submit', {}, { caller: 'webmcp' })
    await expect
      .element(page.getByRole('alertdialog', { name: 'New ticket' }))
      .toHaveTextContent('shot.png (3 B, image/png)')
    await userEvent.click(page.getByRole('button', { name: 'Approve', exact: true }))
    expect(await submitted).toEqual({ status: 'ok', data: { id: 't1' } })
    const sent = onSubmit.mock.calls[0][0]
    expect(sent.attachment).toBeInstanceOf(FileList)
    expect(sent.attachment?.[0]).toBe(shot)

    const undone = await tm.undo(fillId)
    expect(undone).toMatchObject({
      status: 'ok',
      data: {
        changes: expect.arrayContaining([
          {
            path: 'attachment',
            before: [{ file: { name: 'shot.png', size: 3, type: 'image/png' } }],
          },
        ]),
      },
    })
    await expect.element(page.getByText('attached: none')).toBeVisible()
  })

  it('refuses a pasted file of the wrong type and leaves the form alone', async () => {
    const notes = new File(['x'], 'notes.txt', { type: 'text/plain' })
    const tm = createToolmark({ files: { resolve: () => notes } })
    await render(
      <ToolProvider toolmark={tm}>
        <NewTicket onSubmit={() => null} />
      </ToolProvider>,
    )
    await expect.poll(() => tm.manifest().tools.length).toBe(3)
    const result = await tm.call('ticket.fill', {
      values: { title: 'x', attachment: { ref: 'n' } },
    })
    expect(result).toMatchObject({
      code: 'file_rejected',
      message: expect.stringContaining('(accept)'),
    })
    await expect.element(page.getByLabelText('Title')).toHaveValue('')
    await expect.element(page.getByText('attached: none')).toBeVisible()
  })
})
