import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createToolmark } from '../../src/index'
import { createFormTools } from '../../src/forms'
import { memoryForm } from './memoryForm'

/** What a browser's `<input type="file">` holds before a file is chosen: an empty `FileList`. */
class FakeFileList {
  readonly length = 0
  item() {
    return null
  }
}

afterEach(() => {
  vi.unstubAllGlobals()
})

const schema = z.object({
  title: z.string(),
  attachment: z.any(),
  tags: z.array(z.string()).optional(),
  note: z.string().nullable(),
})

function setup() {
  // Node has no FileList: the registry recognises this one the way it does the browser's.
  vi.stubGlobal('FileList', FakeFileList)
  const tm = createToolmark()
  // The defaults name no file, no tags and no note, as a new-ticket form's defaults do.
  const form = memoryForm<Record<string, unknown>>({
    title: '',
    attachment: undefined,
    tags: undefined,
    note: '',
  })
  createFormTools(tm, form.adapter, {
    name: 'ticket',
    description: 'The new-ticket form.',
    schema,
    submitSummary: () => 'Create the ticket',
  })
  return { tm, form }
}

describe('empty values are never a change', () => {
  it('leaves a file input with no file, an empty list and a cleared note out of the submit changes', async () => {
    const { tm, form } = setup()
    // What a form library holds once its inputs are mounted and the title typed.
    form.type('attachment', new FileList())
    form.type('tags', [])
    form.type('note', null)
    form.type('title', 'Printer jammed')

    const asked = await tm.call('ticket.submit', {}, { caller: 'inapp' })

    expect(asked).toMatchObject({ status: 'needs_confirmation' })
    expect((asked as { changes: unknown }).changes).toEqual([
      { path: 'title', after: 'Printer jammed' },
    ])
    expect(tm.confirmations.list()[0].changes).toEqual([{ path: 'title', after: 'Printer jammed' }])
  })

  it('still shows a change from an empty value to a real one', async () => {
    const { tm, form } = setup()
    form.type('tags', ['printer'])
    form.type('note', 'floor 2')

    const asked = await tm.call('ticket.submit', {}, { caller: 'inapp' })

    expect((asked as { changes: unknown }).changes).toEqual([
      { path: 'note', after: 'floor 2' },
      { path: 'tags', after: ['printer'] },
    ])
  })

  it('reports no change for a fill that clears a field already empty', async () => {
    const { tm, form } = setup()
    form.type('attachment', new FileList())

    const filled = await tm.call('ticket.fill', {
      values: { attachment: null, tags: [], note: null, title: 'Printer jammed' },
    })

    expect(filled).toEqual({
      status: 'ok',
      data: { changes: [{ path: 'title', after: 'Printer jammed' }], skipped: [] },
    })
  })
})
