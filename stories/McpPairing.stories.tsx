import { StrictMode, useEffect, useState } from 'react'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { ConfirmDialog, ToolProvider, useTool } from '@toolmark/react'
import { McpPairing, type McpPairingProps } from '@toolmark/react/mcp'
import { createFakeToolmarkMcp, type FakeServerMode, type FakeToolmarkMcp } from './fakeToolmarkMcp'

const PORT = 17840

function TicketTools() {
  useTool({
    name: 'tickets.search',
    title: 'Search tickets',
    description: 'Finds tickets by words in their title.',
    hints: { readOnly: true },
    input: z.object({ query: z.string() }),
    run: ({ query }) => ok({ query, tickets: [] }),
  })
  useTool({
    name: 'tickets.close',
    title: 'Close ticket',
    description: 'Closes a ticket by its number.',
    hints: { consequential: true },
    input: z.object({ id: z.number().int() }),
    summary: ({ id }) => `Close ticket #${id}`,
    run: ({ id }) => ok({ id, status: 'closed' }),
  })
  return null
}

/** What the stand-in `toolmark-mcp` received from the page: the tools a desktop agent sees. */
function DesktopView({ server }: { server: FakeToolmarkMcp }) {
  const [tools, setTools] = useState<string[]>([])
  useEffect(() => {
    const timer = setInterval(() => setTools(server.tools()), 100)
    return () => clearInterval(timer)
  }, [server])
  return (
    <section aria-labelledby="desktop-view">
      <h2 id="desktop-view" style={{ fontSize: 15 }}>
        The desktop agent sees
      </h2>
      <ul aria-label="Desktop tools">
        {tools.length === 0 ? <li>Nothing yet</li> : null}
        {tools.map((name) => (
          <li key={name}>{name}</li>
        ))}
      </ul>
    </section>
  )
}

interface PairingArgs {
  /** How the stand-in server behaves. */
  mode?: FakeServerMode
}

const meta = {
  title: 'McpPairing',
  component: McpPairing,
  parameters: { layout: 'padded' },
  // A stand-in plays `toolmark-mcp`'s side of the handshake, so no server is needed.
  loaders: [
    (context) => ({
      tm: createToolmark(),
      server: createFakeToolmarkMcp({ port: PORT, mode: context.args.mode }),
    }),
  ],
  render: (_args, { loaded }) => {
    const server = loaded.server as FakeToolmarkMcp
    return (
      <StrictMode>
        <ToolProvider toolmark={loaded.tm as Toolmark}>
          <main style={{ fontFamily: 'system-ui', display: 'grid', gap: 12, maxInlineSize: 420 }}>
            <h1 style={{ fontSize: 18 }}>Help desk</h1>
            <p>
              Your MCP client shows the code <code>{server.code}</code>.
            </p>
            <McpPairing port={PORT} WebSocket={server.WebSocket} storage={server.storage} />
            <DesktopView server={server} />
          </main>
          <TicketTools />
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>
    )
  },
} satisfies Meta<McpPairingProps & PairingArgs>

export default meta
type Story = StoryObj<typeof meta>

const status = (canvasElement: HTMLElement) => within(canvasElement).getByRole('status')

async function enterCode(canvasElement: HTMLElement, code: string) {
  const canvas = within(canvasElement)
  await userEvent.type(canvas.getByRole('textbox', { name: 'Pairing code' }), code)
  await userEvent.click(canvas.getByRole('button', { name: 'Connect' }))
}

/** Nothing paired yet: a box for the code the desktop agent shows. */
export const NotConnected: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement)
    await expect(status(canvasElement)).toHaveTextContent('Not connected.')
    await expect(canvas.getByRole('textbox', { name: 'Pairing code' })).toHaveAccessibleDescription(
      /run the toolmark_pairing tool/,
    )
    await expect(canvas.getByRole('button', { name: 'Connect' })).toBeDisabled()
  },
}

/** The right code: both sides prove they know it, and the agent sees the page's tools. */
export const Paired: Story = {
  play: async ({ canvasElement, loaded }) => {
    const server = loaded.server as FakeToolmarkMcp
    const canvas = within(canvasElement)

    await enterCode(canvasElement, server.code)

    await waitFor(() => expect(status(canvasElement)).toHaveTextContent('Connected'), {
      timeout: 5_000,
    })
    await expect(canvas.getByRole('button', { name: 'Disconnect' })).toBeVisible()
    await expect(canvas.queryByRole('textbox', { name: 'Pairing code' })).toBeNull()
    await waitFor(() =>
      expect(
        within(canvas.getByRole('list', { name: 'Desktop tools' }))
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(['tickets.close', 'tickets.search']),
    )
  },
}

/** A wrong code: the server refuses it, and the page says to check it. */
export const WrongCode: Story = {
  play: async ({ canvasElement }) => {
    await enterCode(canvasElement, 'AAAAA-BBBBB')

    await waitFor(
      () => expect(status(canvasElement)).toHaveTextContent('That code was not accepted.'),
      { timeout: 5_000 },
    )
    await expect(
      within(canvasElement).getByRole('list', { name: 'Desktop tools' }),
    ).toHaveTextContent('Nothing yet')
  },
}

/** A code that has expired: the person is asked for a new one. */
export const ExpiredCode: Story = {
  args: { mode: 'expired' },
  play: async ({ canvasElement, loaded }) => {
    await enterCode(canvasElement, (loaded.server as FakeToolmarkMcp).code)

    await waitFor(() => expect(status(canvasElement)).toHaveTextContent('That code has expired.'), {
      timeout: 5_000,
    })
  },
}

/**
 * Something else listens on the port: it cannot prove it knows the code, so the page attaches
 * nothing to it and says so.
 */
export const Unverified: Story = {
  args: { mode: 'impostor' },
  play: async ({ canvasElement, loaded }) => {
    await enterCode(canvasElement, (loaded.server as FakeToolmarkMcp).code)

    await waitFor(
      () =>
        expect(status(canvasElement)).toHaveTextContent(
          `The process on port ${PORT} could not prove`,
        ),
      { timeout: 5_000 },
    )
    await expect(
      within(canvasElement).getByRole('list', { name: 'Desktop tools' }),
    ).toHaveTextContent('Nothing yet')
  },
}

/** Paired, then the MCP client quits: the page keeps trying to reconnect. */
export const ConnectionLost: Story = {
  play: async ({ canvasElement, loaded }) => {
    const server = loaded.server as FakeToolmarkMcp
    await enterCode(canvasElement, server.code)
    await waitFor(() => expect(status(canvasElement)).toHaveTextContent('Connected'), {
      timeout: 5_000,
    })

    server.stop()

    await waitFor(() =>
      expect(status(canvasElement)).toHaveTextContent('Connection lost. Reconnecting…'),
    )
    await expect(within(canvasElement).getByRole('button', { name: 'Disconnect' })).toBeVisible()
  },
}

/** Another page paired with the same server: this one steps back for good. */
export const Superseded: Story = {
  play: async ({ canvasElement, loaded }) => {
    const server = loaded.server as FakeToolmarkMcp
    await enterCode(canvasElement, server.code)
    await waitFor(() => expect(status(canvasElement)).toHaveTextContent('Connected'), {
      timeout: 5_000,
    })

    server.supersede()

    await waitFor(() =>
      expect(status(canvasElement)).toHaveTextContent('Another page took over the connection.'),
    )
  },
}
