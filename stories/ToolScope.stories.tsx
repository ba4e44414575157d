import { StrictMode, useCallback, useState, useSyncExternalStore } from 'react'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { ToolProvider, ToolScope, useTool, useToolmark } from '@toolmark/react'
import { fitWidth } from './fitWidth'

/** A ticket editor whose tools know nothing of where they live: the scopes name them. */
function TicketTools() {
  useTool({
    name: 'close',
    title: 'Close ticket',
    description: 'Closes the open ticket.',
    input: z.object({ id: z.number().int() }),
    run: ({ id }) => ok({ id, status: 'closed' }),
  })
  useTool({
    name: 'search',
    title: 'Search tickets',
    description: 'Finds tickets by words in their title.',
    hints: { readOnly: true },
    input: z.object({ query: z.string() }),
    run: ({ query }) => ok({ query, tickets: [] }),
  })
  return null
}

function CommentTools() {
  useTool({
    name: 'add',
    title: 'Add a comment',
    description: 'Adds a comment to the open ticket.',
    input: z.object({ text: z.string().min(1) }),
    run: ({ text }) => ok({ text }),
  })
  return null
}

/** The tool names an agent sees right now, kept current with the registry's revisions. */
function AgentView() {
  const tm = useToolmark()
  const subscribe = useCallback((onChange: () => void) => tm.subscribe(onChange), [tm])
  const names = useSyncExternalStore(
    subscribe,
    () =>
      tm
        .manifest()
        .tools.map((tool) => tool.name)
        .join('\n'),
    () => '',
  )
  return (
    <section aria-labelledby="agent-view">
      <h2 id="agent-view" style={{ fontSize: 15 }}>
        What an agent sees
      </h2>
      <ul aria-label="Tools">
        {names ? names.split('\n').map((name) => <li key={name}>{name}</li>) : <li>No tools</li>}
      </ul>
    </section>
  )
}

/** Tickets (with nested comments) behind sign-in: `when` hides them while signed out. */
function Desk() {
  const [signedIn, setSignedIn] = useState(true)
  return (
    <main
      style={{ fontFamily: 'system-ui', display: 'grid', gap: 8, minInlineSize: fitWidth(320) }}
    >
      <h1 style={{ fontSize: 18 }}>Help desk</h1>
      <p>{signedIn ? 'Signed in as Ana' : 'Signed out'}</p>
      <button type="button" onClick={() => setSignedIn((value) => !value)}>
        {signedIn ? 'Sign out' : 'Sign in'}
      </button>
      <ToolScope name="tickets" when={signedIn}>
        <TicketTools />
        <ToolScope name="comments">
          <CommentTools />
        </ToolScope>
      </ToolScope>
      <AgentView />
    </main>
  )
}

const meta = {
  title: 'ToolScope',
  component: ToolScope,
  // The scopes of the story are drawn by `Desk`; these are what the docs table describes.
  args: { name: 'tickets', when: true },
  loaders: [() => ({ tm: createToolmark() })],
  render: (_args, { loaded }) => (
    <StrictMode>
      <ToolProvider toolmark={loaded.tm as Toolmark}>
        <Desk />
      </ToolProvider>
    </StrictMode>
  ),
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

const tools = (canvasElement: HTMLElement) =>
  within(within(canvasElement).getByRole('list', { name: 'Tools' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent)

/** Scopes name the tools inside them: `close` in `tickets` is `tickets.close`, and they nest. */
export const Named: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    await waitFor(() =>
      expect(tools(canvasElement)).toEqual([
        'tickets.close',
        'tickets.comments.add',
        'tickets.search',
      ]),
    )

    const result = await tm.call('tickets.close', { id: 7 }, { caller: 'inapp' })
    await expect(result).toEqual({ status: 'ok', data: { id: 7, status: 'closed' } })
    const bare = await tm.call('close', { id: 7 }, { caller: 'inapp' })
    await expect(bare).toMatchObject({ status: 'refused', code: 'unknown_tool' })
  },
}

/** `when={false}` hides a scope's tools (nested ones too) from agents, mounted or not. */
export const HiddenWhenFalse: Story = {
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const canvas = within(canvasElement)
    await waitFor(() => expect(tools(canvasElement)).toHaveLength(3))

    await userEvent.click(canvas.getByRole('button', { name: 'Sign out' }))

    await waitFor(() => expect(tools(canvasElement)).toEqual(['No tools']))
    const refused = await tm.call('tickets.comments.add', { text: 'Hi' }, { caller: 'inapp' })
    await expect(refused).toMatchObject({ status: 'refused', code: 'unknown_tool' })
    await expect(canvas.getByText('Signed out')).toBeVisible()
  },
}
