import { StrictMode, useState, useSyncExternalStore } from 'react'
import { flushSync } from 'react-dom'
import { render } from 'vitest-browser-react'
import { cdp, page, userEvent } from 'vitest/browser'
import axe from 'axe-core'
import { z } from 'zod'
import { createToolmark, ok, refuse } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { ConfirmDialog, ToolProvider } from '@toolmark/react'
import * as devtoolsEntry from '@toolmark/react/devtools'
import { ToolmarkDevtools, type ToolmarkDevtoolsProps } from '@toolmark/react/devtools'

interface Note {
  id: number
  title: string
}

/** A notes app's registry: add (with undo), delete (consequential), purge (destructive), list. */
function setup() {
  const tm = createToolmark()
  let notes: Note[] = [{ id: 1, title: 'Water the plants' }]
  let nextId = 2
  const listeners = new Set<() => void>()
  const setNotes = (next: Note[]) => {
    notes = next
    for (const listener of listeners) listener()
  }
  const store = {
    subscribe: (listener: () => void) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    get: () => notes,
  }
  let finishImport = () => {}

  tm.register({
    name: 'notes.add',
    title: 'Add a note',
    description: 'Adds a note with this title.',
    input: z.object({ title: z.string().min(3), pinned: z.boolean().default(false) }),
    run: ({ title }, ctx) => {
      const note = { id: nextId++, title }
      setNotes([...notes, note])
      ctx.registerUndo(() => {
        setNotes(notes.filter((n) => n.id !== note.id))
        return ok({ removed: note.id })
      })
      return ok(note)
    },
  })
  tm.register({
    name: 'notes.delete',
    title: 'Delete a note',
    description: 'Deletes the note with this id.',
    input: z.object({ id: z.number().int() }),
    hints: { consequential: true },
    summary: ({ id }) => `Delete note #${id}`,
    run: ({ id }) => {
      if (!notes.some((n) => n.id === id)) return refuse('not_found', `No note #${id}`)
      setNotes(notes.filter((n) => n.id !== id))
      return ok({ deleted: id })
    },
  })
  tm.register({
    name: 'notes.purge',
    description: 'Deletes every note.',
    hints: { destructive: true },
    run: () => {
      setNotes([])
      return ok({ purged: true })
    },
  })
  tm.register({
    name: 'notes.list',
    description: 'Lists the notes.',
    hints: { readOnly: true, untrustedContent: true },
    run: () => ok(notes),
  })
  tm.register({
    name: 'notes.import',
    description: 'Imports notes from the archive.',
    run: async (_input, ctx) => {
      ctx.progress({ done: 2, total: 5, message: 'Reading the archive' })
      await new Promise<void>((resolve) => (finishImport = resolve))
      return ok({ imported: 5 })
    },
  })
  return { tm, store, finishImport: () => finishImport() }
}

function Notes({
  store,
}: {
  store: { subscribe: (l: () => void) => () => void; get: () => Note[] }
}) {
  const notes = useSyncExternalStore(store.subscribe, store.get)
  return (
    <main>
      <h1>Notes</h1>
      <ul aria-label="Notes">
        {notes.map((note) => (
          <li key={note.id}>{note.title}</li>
        ))}
      </ul>
    </main>
  )
}

function App({
  tm,
  store,
  ...props
}: { tm: Toolmark; store: ReturnType<typeof setup>['store'] } & ToolmarkDevtoolsProps) {
  return (
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <Notes store={store} />
        <ToolmarkDevtools {...props} />
      </ToolProvider>
    </StrictMode>
  )
}

const devtools = () => page.getByRole('complementary', { name: 'Toolmark devtools' })
const toggle = () => page.getByRole('button', { name: /^Toolmark devtools/ })
const tab = (name: string) => page.getByRole('tab', { name, exact: false })
const button = (name: string | RegExp) => page.getByRole('button', { name, exact: true })
const notes = () => page.getByRole('list', { name: 'Notes' })

async function violations(element: Element) {
  const results = await axe.run(element)
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)
}

describe('ToolmarkDevtools in Chromium', () => {
  it('exports only the component from its entry', () => {
    expect(Object.keys(devtoolsEntry).sort()).toEqual([
      'ToolmarkDevtools',
      'ToolmarkDevtoolsInProduction',
    ])
  })

  it('opens from the toggle and lists the tools each caller sees, hints as badges', async () => {
    const { tm, store } = setup()
    await render(<App tm={tm} store={store} />)
    await expect.element(page.getByRole('tablist')).not.toBeInTheDocument()

    await userEvent.click(toggle())

    await expect.element(toggle()).toHaveAttribute('aria-expanded', 'true')
    await expect.element(tab('Tools')).toHaveAttribute('aria-selected', 'true')
    await expect.element(tab('Tools')).toHaveFocus()
    const tools = page.getByRole('list', { name: 'Tools' })
    await expect
      .poll(() =>
        Array.from(tools.element().querySelectorAll(':scope > li h3')).map((h) => h.textContent),
      )
      .toEqual(['notes.add', 'notes.delete', 'notes.import', 'notes.list', 'notes.purge'])
    const listItem = tools.getByRole('listitem').filter({ hasText: 'notes.list' }).first()
    await expect
      .element(listItem.getByRole('list', { name: 'Hints' }))
      .toHaveTextContent('read-onlyuntrusted content')

    // A browser agent does not see destructive tools by default.
    await userEvent.selectOptions(page.getByLabelText('Caller'), 'webmcp')
    await expect.element(page.getByText('notes.purge')).not.toBeInTheDocument()
    await expect.element(page.getByText('4 tools visible to Browser agent (webmcp)')).toBeVisible()

    await userEvent.click(button('Input schema of notes.add'))
    await expect
      .element(button('Input schema of notes.add'))
      .toHaveAttribute('aria-expanded', 'true')
    const schema = JSON.parse(
      devtools().element().querySelector('pre[data-part="json"]')!.textContent!,
    )
    expect(schema).toMatchObject({
      type: 'object',
      properties: { title: { type: 'string', minLength: 3 }, pinned: { default: false } },
      required: ['title'],
    })
  })

  it('lists every tool after two batches of registrations, one read in the middle of a batch', async () => {
    const tm = createToolmark()
    const tool = (name: string) => ({ name, description: `The ${name} tool`, run: () => ok(true) })
    let renderNow = () => {}
    function Host() {
      const [, setRenders] = useState(0)
      renderNow = () => flushSync(() => setRenders((n) => n + 1))
      return (
        <StrictMode>
          <ToolProvider toolmark={tm}>
            <ToolmarkDevtools initialIsOpen />
          </ToolProvider>
        </StrictMode>
      )
    }
    await render(<Host />)
    const count = page.getByText(/visible to Assistant/)
    const names = () =>
      Array.from(
        devtools().element().querySelectorAll('[aria-label="Tools"] > li h3'),
        (h) => h.textContent,
      )

    tm.register(tool('a.one'))
    tm.register(tool('a.two'))
    await expect.element(count).toHaveTextContent('2 tools visible to Assistant (inapp)')
    const first = tm.rev
    await expect.element(count).toHaveTextContent(`· rev ${first}`)

    // The panel renders after the first registration of the batch and before the others.
    tm.register(tool('b.one'))
    renderNow()
    expect(count.element()).toHaveTextContent('3 tools visible')
    tm.register(tool('b.two'))
    tm.register(tool('b.three'))

    await expect
      .element(count)
      .toHaveTextContent(`5 tools visible to Assistant (inapp) · rev ${first + 1}`)
    expect(names()).toEqual(['a.one', 'a.two', 'b.one', 'b.three', 'b.two'])
  })

  it('runs a call with edited input, showing an invalid result with its paths, then ok', async () => {
    const { tm, store } = setup()
    await render(<App tm={tm} store={store} initialIsOpen />)
    await userEvent.click(button('Try notes.add'))
    await expect.element(tab('Call')).toHaveAttribute('aria-selected', 'true')

    const input = page.getByLabelText('Input (JSON)')
    expect(JSON.parse((input.element() as HTMLTextAreaElement).value)).toEqual({
      title: '',
      pinned: false,
    })
    await userEvent.fill(input, '{ "title": "No", "pinned": "yes" }')
    await userEvent.click(button('Run'))

    const result = page.getByRole('region', { name: 'Result' })
    await expect.element(result).toHaveTextContent('notes.add as Assistant (inapp): invalid')
    const issues = result.getByRole('list', { name: 'Issues' })
    await expect.element(issues.getByText('title', { exact: true })).toBeVisible()
    await expect.element(issues.getByText('pinned', { exact: true })).toBeVisible()
    await expect.element(notes()).not.toHaveTextContent('No')

    await userEvent.fill(input, '{ "title": "Buy milk" }')
    await userEvent.click(button('Run'))

    await expect.element(result).toHaveTextContent('notes.add as Assistant (inapp): ok')
    await expect.element(notes()).toHaveTextContent('Buy milk')
  })

  it('says so when the input is not JSON and does not run', async () => {
    const { tm, store } = setup()
    const calls: string[] = []
    tm.events.on('call', (event) => calls.push(event.tool))
    await render(<App tm={tm} store={store} initialIsOpen />)
    await userEvent.click(tab('Call'))

    const input = page.getByLabelText('Input (JSON)')
    await userEvent.fill(input, '{ "title": ')

    await expect.element(input).toHaveAttribute('aria-invalid', 'true')
    await expect.element(input).toHaveAccessibleDescription(/Input is not valid JSON/)
    await expect.element(button('Run')).toBeDisabled()
    expect(calls).toEqual([])
  })

  it('approves a pending confirmation from the Confirmations tab', async () => {
    const { tm, store } = setup()
    await render(<App tm={tm} store={store} initialIsOpen />)
    await userEvent.click(button('Try notes.delete'))
    await userEvent.fill(page.getByLabelText('Input (JSON)'), '{ "id": 1 }')
    await userEvent.click(button('Run'))
    await expect
      .element(page.getByRole('region', { name: 'Result' }))
      .toHaveTextContent('needs_confirmation')
    await expect.element(tab('Confirmations')).toHaveTextContent('Confirmations 1')

    await userEvent.click(button('Review in Confirmations'))
    const pending = page.getByRole('list', { name: 'Pending confirmations' })
    await expect.element(pending).toHaveTextContent('Delete note #1')
    await expect.element(pending).toHaveTextContent('Assistant (inapp) · deferred')
    await userEvent.click(button('Approve Delete a note'))

    await expect
      .element(page.getByRole('region', { name: 'Answered' }))
      .toHaveTextContent('Approved notes.delete: ok')
    await expect.element(page.getByText('No pending confirmations.')).toBeVisible()
    await expect.element(notes()).not.toHaveTextContent('Water the plants')
  })

  it('makes browser agents able to use confirmable tools only while the panel is open', async () => {
    const { tm, store } = setup()
    await render(<App tm={tm} store={store} />)
    expect(tm.describe('notes.delete', { caller: 'webmcp' })).toBeUndefined()

    await userEvent.click(toggle())
    await expect.poll(() => tm.describe('notes.delete', { caller: 'webmcp' })).toBeDefined()
    const call = tm.call('notes.delete', { id: 1 }, { caller: 'webmcp' })
    await userEvent.click(tab('Confirmations'))
    await expect.element(page.getByText('Browser agent (webmcp) · inline')).toBeVisible()
    await userEvent.click(button('Deny Delete a note'))

    expect(await call).toEqual({ status: 'cancelled', by: 'operator' })
    await expect.element(notes()).toHaveTextContent('Water the plants')
  })

  it('undoes an agent call from the activity log', async () => {
    const { tm, store } = setup()
    await render(<App tm={tm} store={store} initialIsOpen />)
    await tm.call('notes.add', { title: 'Call mom' }, { caller: 'inapp' })
    await expect.element(notes()).toHaveTextContent('Call mom')

    await userEvent.click(tab('Activity'))
    const calls = page.getByRole('list', { name: 'Calls' })
    await expect.element(calls).toHaveTextContent('notes.addAssistant (inapp)ok')
    await userEvent.click(button('Undo notes.add'))

    await expect.element(calls).toHaveTextContent('Undo: ok')
    await expect.element(notes()).not.toHaveTextContent('Call mom')
    await expect.element(button('Undo notes.add')).not.toBeInTheDocument()
  })

  it('shows a progress bar while a call runs, then its duration', async () => {
    const { tm, store, finishImport } = setup()
    await render(<App tm={tm} store={store} initialIsOpen />)
    await userEvent.click(tab('Activity'))

    const call = tm.call('notes.import', {}, { caller: 'mcp' })
    const bar = page.getByRole('progressbar', { name: 'Progress of notes.import' })
    await expect.element(bar).toBeVisible()
    expect((bar.element() as HTMLProgressElement).value).toBe(2)
    expect((bar.element() as HTMLProgressElement).max).toBe(5)
    await expect.element(page.getByText('Reading the archive · 2 of 5')).toBeVisible()

    finishImport()
    await call
    await expect.element(bar).not.toBeInTheDocument()
    await expect
      .element(page.getByRole('list', { name: 'Calls' }))
      .toHaveTextContent(/notes\.importDesktop app \(mcp\)ok\d+ ms/)
  })

  it('moves between tabs with the arrow keys and closes with Escape', async () => {
    const { tm, store } = setup()
    await render(<App tm={tm} store={store} />)
    await userEvent.click(toggle())
    await expect.element(tab('Tools')).toHaveFocus()

    await userEvent.keyboard('{ArrowRight}')
    await expect.element(tab('Call')).toHaveFocus()
    await expect.element(tab('Call')).toHaveAttribute('aria-selected', 'true')
    await expect.element(page.getByLabelText('Input (JSON)')).toBeVisible()
    await userEvent.keyboard('{End}')
    await expect.element(tab('Confirmations')).toHaveFocus()
    await userEvent.keyboard('{ArrowRight}')
    await expect.element(tab('Tools')).toHaveFocus()
    await userEvent.keyboard('{ArrowLeft}')
    await expect.element(tab('Confirmations')).toHaveAttribute('aria-selected', 'true')
    await userEvent.keyboard('{Home}')
    await expect.element(tab('Tools')).toHaveAttribute('aria-selected', 'true')
    await userEvent.keyboard('{Tab}')
    await expect.element(page.getByRole('tabpanel')).toHaveFocus()

    await userEvent.keyboard('{Escape}')
    await expect.element(page.getByRole('tablist')).not.toBeInTheDocument()
    await expect.element(toggle()).toHaveFocus()
    await expect.element(toggle()).toHaveAttribute('aria-expanded', 'false')
  })

  describe('while the confirmation dialog is open', () => {
    function AppWithDialog({
      tm,
      store,
    }: {
      tm: Toolmark
      store: ReturnType<typeof setup>['store']
    }) {
      return (
        <StrictMode>
          <ToolProvider toolmark={tm}>
            <Notes store={store} />
            <ConfirmDialog />
            <ToolmarkDevtools />
          </ToolProvider>
        </StrictMode>
      )
    }
    const dialog = () => page.getByRole('alertdialog')

    /**
     * How Chromium's accessibility tree (what screen readers read) has a button whose name starts
     * with `name`; `undefined` when it is not there (inert content is left out of it).
     */
    async function accessibleButton(name: string) {
      const session = cdp()
      const { frameTree } = await session.send('Page.getFrameTree')
      const frame = frameTree.childFrames?.find((c) => c.frame.url === location.href)?.frame
      const { nodes } = await session.send('Accessibility.getFullAXTree', { frameId: frame?.id })
      const node = nodes.find(
        (n) => n.role?.value === 'button' && String(n.name?.value ?? '').startsWith(name),
      )
      return node ? { ignored: node.ignored } : undefined
    }

    it('can be reached from the dialog by keyboard, and their Confirmations tab answers', async () => {
      const { tm, store } = setup()
      await render(<AppWithDialog tm={tm} store={store} />)
      const call = tm.call('notes.delete', { id: 1 }, { caller: 'webmcp' })
      await expect.element(button('Deny')).toHaveFocus()
      await expect.poll(() => accessibleButton('Toolmark devtools')).toEqual({ ignored: false })
      expect(dialog().element().contains(devtools().element())).toBe(true)

      await userEvent.keyboard('{Tab}')
      await expect.element(button('Approve')).toHaveFocus()
      await userEvent.keyboard('{Tab}')
      await expect.element(toggle()).toHaveFocus()
      await userEvent.keyboard('{Enter}')
      await expect.element(tab('Tools')).toHaveFocus()
      await userEvent.keyboard('{End}')
      await expect.element(tab('Confirmations')).toHaveAttribute('aria-selected', 'true')
      const pending = page.getByRole('list', { name: 'Pending confirmations' })
      await expect.element(pending).toHaveTextContent('Browser agent (webmcp) · inline')

      // Escape in the panel closes the panel and leaves the request alone.
      await userEvent.keyboard('{Escape}')
      await expect.element(toggle()).toHaveFocus()
      await expect.element(toggle()).toHaveAttribute('aria-expanded', 'false')
      expect(tm.confirmations.list()).toHaveLength(1)
      expect((dialog().element() as HTMLDialogElement).open).toBe(true)

      await userEvent.keyboard('{Enter}')
      await userEvent.click(button('Deny Delete a note'))

      expect(await call).toEqual({ status: 'cancelled', by: 'operator' })
      await expect.element(dialog()).not.toBeInTheDocument()
      await expect.element(notes()).toHaveTextContent('Water the plants')
      // Back in the page, still open on the answer it gave.
      await expect.poll(() => devtools().element().closest('dialog')).toBeNull()
      await expect
        .element(page.getByRole('region', { name: 'Answered' }))
        .toHaveTextContent('Denied notes.delete: cancelled')
      expect(await accessibleButton('Close')).toEqual({ ignored: false })
    })

    it('steps the open panel aside while the dialog asks, then brings it back as it was', async () => {
      const { tm, store } = setup()
      await render(<AppWithDialog tm={tm} store={store} />)
      await userEvent.click(toggle())
      await userEvent.click(tab('Call'))
      await userEvent.selectOptions(page.getByRole('combobox', { name: /^Tool\b/ }), 'notes.delete')
      await userEvent.selectOptions(page.getByLabelText('Caller'), 'mcp')
      await userEvent.fill(page.getByLabelText('Input (JSON)'), '{ "id": 1 }')
      await userEvent.click(button('Run'))

      await expect.element(button('Deny')).toHaveFocus()
      await expect.poll(() => dialog().element().contains(devtools().element())).toBe(true)
      // The panel steps aside so the request can be read; its toggle stays in the dialog.
      await expect.element(page.getByRole('tablist')).not.toBeInTheDocument()
      await expect.element(toggle()).toHaveAttribute('aria-expanded', 'false')

      await userEvent.click(button('Approve'))

      await expect.element(dialog()).not.toBeInTheDocument()
      await expect.element(tab('Call')).toHaveAttribute('aria-selected', 'true')
      const result = page.getByRole('region', { name: 'Result' })
      await expect.element(result).toHaveTextContent('notes.delete as Desktop app (mcp): ok')
      await expect.element(notes()).not.toHaveTextContent('Water the plants')
      // What had focus left with the panel: focus comes back to the panel's selected tab.
      await expect.element(tab('Call')).toHaveFocus()
    })

    it('gives focus back to the devtools toggle once the request it was on is answered', async () => {
      const { tm, store } = setup()
      await render(<AppWithDialog tm={tm} store={store} />)
      await userEvent.click(toggle())
      await userEvent.click(toggle())
      await expect.element(toggle()).toHaveFocus()

      const call = tm.call('notes.delete', { id: 1 }, { caller: 'webmcp' })
      await expect.element(button('Deny')).toHaveFocus()
      await expect.poll(() => dialog().element().contains(devtools().element())).toBe(true)
      await userEvent.keyboard('{Escape}')

      expect(await call).toEqual({ status: 'cancelled', by: 'operator' })
      await expect.element(dialog()).not.toBeInTheDocument()
      await expect.poll(() => devtools().element().closest('dialog')).toBeNull()
      await expect.element(toggle()).toHaveFocus()
    })

    it('has no axe violations with the devtools open inside the dialog', async () => {
      const { tm, store } = setup()
      await render(<AppWithDialog tm={tm} store={store} />)
      void tm.call('notes.delete', { id: 1 }, { caller: 'webmcp' })
      await expect.poll(() => dialog().element().contains(devtools().element())).toBe(true)
      await userEvent.click(toggle())
      await userEvent.click(tab('Confirmations'))
      await expect
        .element(page.getByRole('list', { name: 'Pending confirmations' }))
        .toHaveTextContent('Delete note #1')

      expect(await violations(dialog().element())).toEqual([])
    })
  })

  describe('accessibility', () => {
    async function everyTab() {
      const found: Record<string, string[]> = {}
      for (const name of ['Tools', 'Call', 'Activity', 'Confirmations']) {
        await userEvent.click(tab(name))
        await expect.element(tab(name)).toHaveAttribute('aria-selected', 'true')
        found[name] = await violations(devtools().element())
      }
      return found
    }
    const clean = { Tools: [], Call: [], Activity: [], Confirmations: [] }

    it('has no axe violations in any tab, with content, in the light theme', async () => {
      const { tm, store } = setup()
      await render(<App tm={tm} store={store} initialIsOpen colorScheme="light" />)
      await tm.call('notes.add', { title: 'x' }, { caller: 'inapp' })
      await tm.call('notes.add', { title: 'Call mom' }, { caller: 'inapp' })
      // Asked first: a confirmation is built in its scope's turn, and the import holds the slot.
      await tm.call('notes.delete', { id: 1 }, { caller: 'inapp' })
      void tm.call('notes.import', {}, { caller: 'mcp' })
      await userEvent.click(button('Input schema of notes.add'))

      expect(await everyTab()).toEqual(clean)
    })

    it('has no axe violations in any tab in the dark theme', async () => {
      const { tm, store } = setup()
      await render(<App tm={tm} store={store} initialIsOpen colorScheme="dark" />)
      await tm.call('notes.add', { title: 'Call mom' }, { caller: 'inapp' })
      await tm.call('notes.delete', { id: 1 }, { caller: 'inapp' })
      await userEvent.click(tab('Call'))
      await userEvent.fill(page.getByLabelText('Input (JSON)'), '{}')
      await userEvent.click(button('Run'))
      await expect
        .element(page.getByRole('region', { name: 'Result' }))
        .toHaveTextContent('invalid')

      expect(await everyTab()).toEqual(clean)
    })

    it('follows the dark color-scheme the app declares on its root, with no axe violations', async () => {
      document.documentElement.style.colorScheme = 'dark'
      try {
        const { tm, store } = setup()
        await render(<App tm={tm} store={store} initialIsOpen />)
        await tm.call('notes.delete', { id: 1 }, { caller: 'inapp' })
        const panel = devtools().element().querySelector('[data-part="panel"]')!
        await expect.poll(() => getComputedStyle(panel).backgroundColor).toBe('rgb(27, 30, 36)')

        expect(await everyTab()).toEqual(clean)
      } finally {
        document.documentElement.style.colorScheme = ''
      }
    })

    it('has no axe violations while closed', async () => {
      const { tm, store } = setup()
      await render(<App tm={tm} store={store} />)
      await tm.call('notes.delete', { id: 1 }, { caller: 'inapp' })
      await expect.element(toggle()).toHaveTextContent('1 pending')

      expect(await violations(devtools().element())).toEqual([])
    })
  })
})
