import { StrictMode } from 'react'
import { render } from 'vitest-browser-react'
import { page } from 'vitest/browser'
import { z } from 'zod'
import { HttpAgent } from '@ag-ui/client'
import { createToolmark, ok } from '@toolmark/core'
import { ConfirmDialog, ToolProvider, useTool } from '@toolmark/react'
import { useAgUiSession } from '@toolmark/react/ag-ui'
import { agUiServer, scriptedModel } from '../agUiServer'

function Tickets({ closed }: { closed: string[] }) {
  useTool({
    name: 'tickets.close',
    description: 'Closes a ticket.',
    input: z.object({ id: z.string() }),
    hints: { consequential: true },
    summary: ({ id }) => `Close ${id}`,
    run: ({ id }) => (closed.push(id), ok({ id, closed: true })),
  })
  return null
}

function Assistant({ agent }: { agent: HttpAgent }) {
  const { status, send } = useAgUiSession(agent)
  return (
    <section aria-label="Assistant">
      <button onClick={() => void send('Close T-1')}>Send</button>
      <output aria-label="Status">{status}</output>
    </section>
  )
}

describe('AG-UI in Chromium', () => {
  it("runs an AG-UI agent's tool call in the page after the person approves it in the dialog", async () => {
    const tm = createToolmark({ dev: true })
    const closed: string[] = []
    const model = scriptedModel([
      [{ toolName: 'tickets__close', input: { id: 'T-1' } }],
      'Closed T-1.',
    ])
    const server = agUiServer(model)
    const agent = new HttpAgent({ url: 'http://localhost/api/agent', fetch: server.fetch })
    render(
      <StrictMode>
        <ToolProvider toolmark={tm}>
          <Tickets closed={closed} />
          <Assistant agent={agent} />
          <ConfirmDialog />
        </ToolProvider>
      </StrictMode>,
    )

    await page.getByRole('button', { name: 'Send' }).click()
    const dialog = page.getByRole('alertdialog')
    await expect.element(dialog).toHaveTextContent('Close T-1')
    expect(closed).toEqual([])
    await dialog.getByRole('button', { name: 'Approve' }).click()

    await expect.element(page.getByLabelText('Status')).toHaveTextContent('idle')
    expect(closed).toEqual(['T-1'])
    expect(server.inputs).toHaveLength(2)
    const answer = server.inputs[1].messages.find((m) => m.role === 'tool')
    expect(JSON.parse(String(answer?.content))).toEqual({
      status: 'ok',
      data: { id: 'T-1', closed: true },
    })
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Closed T-1.' })
  })
})
