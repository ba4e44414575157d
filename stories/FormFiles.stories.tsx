import { StrictMode, useRef, useState } from 'react'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, within } from 'storybook/test'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { createToolmark } from '@toolmark/core'
import type { Toolmark, ToolResult } from '@toolmark/core'
import { fileFields } from '@toolmark/core/forms'
import { ConfirmDialog, ToolProvider, useDomFormTool } from '@toolmark/react'
import { useFormTool } from '@toolmark/react/rhf'
import { ready } from './toolReady'
import { fitWidth } from './fitWidth'

/** A 1×1 PNG the person pasted into the chat; the app knows it as `paste-1`. */
const pasted = new File(
  [
    Uint8Array.from(
      atob(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      ),
      (c) => c.charCodeAt(0),
    ),
  ],
  'screenshot.png',
  { type: 'image/png' },
)

const bugSchema = z.object({
  title: z.string().min(1),
  screenshot: z.instanceof(FileList).optional(),
})
type BugValues = z.infer<typeof bugSchema>

const column = {
  fontFamily: 'system-ui',
  display: 'grid',
  gap: 12,
  minInlineSize: fitWidth(360),
} as const

/** A bug report whose screenshot field an agent can fill with a file the person gave it. */
function BugReport() {
  const form = useForm<BugValues>({
    resolver: zodResolver(bugSchema),
    defaultValues: { title: '' },
  })
  const save = (values: BugValues) => ({ id: 7, files: values.screenshot?.length ?? 0 })
  useFormTool(form, {
    name: 'bug',
    title: 'Report a bug',
    description: 'The bug report form.',
    schema: bugSchema,
    onSubmit: save,
    files: fileFields({ screenshot: { accept: 'image/*', maxBytes: 2_000_000 } }),
  })
  return (
    <form onSubmit={form.handleSubmit(save)} style={column}>
      <label>
        Title <input {...form.register('title')} />
      </label>
      <label>
        Screenshot <input type="file" accept="image/*" {...form.register('screenshot')} />
      </label>
    </form>
  )
}

/** A form without any form library: inputs kept in React state. */
function Newsletter() {
  const ref = useRef<HTMLFormElement>(null)
  const [email, setEmail] = useState('')
  const [topic, setTopic] = useState('news')
  useDomFormTool(ref, {
    name: 'newsletter',
    title: 'Subscribe',
    description: 'The newsletter sign-up form.',
    onSubmit: (values) => ({ subscribed: values.email }),
  })
  return (
    <form ref={ref} style={column}>
      <label>
        Email{' '}
        <input
          name="email"
          type="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </label>
      <fieldset>
        <legend>Topic</legend>
        {['news', 'releases'].map((value) => (
          <label key={value}>
            <input
              type="radio"
              name="topic"
              value={value}
              checked={topic === value}
              onChange={() => setTopic(value)}
            />{' '}
            {value === 'news' ? 'News' : 'Releases'}
          </label>
        ))}
      </fieldset>
      <input type="hidden" name="source" value="footer" />
      <p>{`Will subscribe ${email || '…'} to ${topic}`}</p>
    </form>
  )
}

const meta = {
  title: 'Forms/Files and plain forms',
  parameters: { layout: 'padded' },
  loaders: [
    () => ({
      tm: createToolmark({
        files: { resolve: (ref: string) => (ref === 'paste-1' ? pasted : undefined) },
      }),
    }),
  ],
  render: (_args, { loaded }) => (
    <StrictMode>
      <ToolProvider toolmark={loaded.tm as Toolmark}>
        <BugReport />
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>
  ),
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

/**
 * "Attach the screenshot I just pasted": the agent fills the file field with `{ ref }`; the
 * change shows the file's name, size and type, and the confirmation previews the image.
 */
export const FileField: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const screen = within(canvasElement.ownerDocument.body)
    await ready(tm, 'bug.fill')

    const result = await tm.call(
      'bug.fill',
      { values: { title: 'Sidebar overlaps', screenshot: { ref: 'paste-1' } } },
      { caller: 'inapp' },
    )
    await expect(result).toMatchObject({
      status: 'ok',
      data: {
        changes: [
          { path: 'screenshot', after: [{ file: { name: 'screenshot.png', type: 'image/png' } }] },
          { path: 'title', after: 'Sidebar overlaps' },
        ],
      },
    })
    const input = within(canvasElement).getByLabelText('Screenshot') as HTMLInputElement
    await expect(input.files?.[0]?.name).toBe('screenshot.png')

    const submitted = tm.call('bug.submit', {}, { caller: 'webmcp' })
    const dialog = await screen.findByRole('alertdialog', { name: 'Report a bug' })
    await expect(dialog).toHaveTextContent('screenshot.png')
    await expect(await within(dialog).findByRole('img', { name: 'screenshot.png' })).toBeVisible()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }))
    await expect(await submitted).toEqual({ status: 'ok', data: { id: 7, files: 1 } })
  },
}

/** A file the field does not accept is refused, naming the field and the rule; nothing is written. */
export const FileRejected: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    await ready(tm, 'bug.fill')
    const result: ToolResult = await tm.call(
      'bug.fill',
      { values: { title: 'x', screenshot: { ref: 'unknown' } } },
      { caller: 'inapp' },
    )
    await expect(result).toMatchObject({
      status: 'refused',
      code: 'file_rejected',
      message: 'File field "screenshot" rejected (ref): the app has no file "unknown"',
    })
    await expect(within(canvasElement).getByLabelText('Title')).toHaveValue('')
  },
}

/** A form kept in React state, no form library: the agent's fill updates the state. */
export const DomForm: Story = {
  render: (_args, { loaded }) => (
    <StrictMode>
      <ToolProvider toolmark={loaded.tm as Toolmark}>
        <Newsletter />
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>
  ),
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await ready(tm, 'newsletter.fill')

    const result = await tm.call(
      'newsletter.fill',
      { values: { email: 'ana@example.com', topic: 'releases' } },
      { caller: 'inapp' },
    )
    await expect(result).toMatchObject({ status: 'ok', data: { skipped: [] } })
    await expect(
      await canvas.findByText('Will subscribe ana@example.com to releases'),
    ).toBeVisible()
    const hidden = await tm.call(
      'newsletter.fill',
      { values: { source: 'agent' } },
      { caller: 'inapp' },
    )
    await expect(hidden).toMatchObject({
      status: 'invalid',
      issues: [{ path: 'values.source', message: 'Not a field of this form' }],
    })
  },
}
