import { StrictMode, useState } from 'react'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { ConfirmDialog, ToolProvider, useTool } from '@toolmark/react'
import { ToolmarkDevtools, ToolmarkDevtoolsInProduction } from '@toolmark/react/devtools'

/** A counter with three tools to poke at: add (with undo), read and reset (consequential). */
function Counter() {
  const [count, setCount] = useState(0)
  useTool({
    name: 'counter.add',
    title: 'Add to the counter',
    description: 'Adds `by` to the counter and returns the new count.',
    input: AddInput,
    run: ({ by }, ctx) => {
      setCount((c) => c + by)
      ctx.registerUndo(() => {
        setCount((c) => c - by)
        return ok({ removed: by })
      })
      return ok({ count: count + by })
    },
  })
  useTool({
    name: 'counter.read',
    description: 'Returns the current count.',
    hints: { readOnly: true },
    run: () => ok({ count }),
  })
  useTool({
    name: 'counter.reset',
    title: 'Reset the counter',
    description: 'Sets the counter back to zero.',
    hints: { consequential: true },
    summary: () => 'Reset the counter to 0',
    run: () => {
      setCount(0)
      return ok({ count: 0 })
    },
  })
  return (
    <main style={{ fontFamily: 'system-ui', padding: 16 }}>
      <h1>Counter</h1>
      <output aria-label="Count" style={{ fontSize: 32 }}>
        {count}
      </output>
    </main>
  )
}

const AddInput = z.object({ by: z.number().int().min(1).max(100).default(1) })

/**
 * The stories render `<ToolmarkDevtoolsInProduction>`, `<ToolmarkDevtools>` with the same props
 * that also renders in a production build, so `storybook build` shows what `storybook dev` does.
 */
const meta = {
  title: 'Devtools',
  component: ToolmarkDevtools,
  parameters: { layout: 'fullscreen' },
  args: { initialIsOpen: true, position: 'bottom-right', colorScheme: 'system' },
  loaders: [() => ({ tm: createToolmark() })],
  render: (args, { loaded }) => (
    <StrictMode>
      <ToolProvider toolmark={loaded.tm as Toolmark}>
        <Counter />
        <ToolmarkDevtoolsInProduction {...args} />
      </ToolProvider>
    </StrictMode>
  ),
} satisfies Meta<typeof ToolmarkDevtools>

export default meta
type Story = StoryObj<typeof meta>

/**
 * A person opens the Call tab, picks `counter.add`, edits the input prefilled from the schema's
 * defaults and runs it: the panel shows the `ok` result and the counter moves.
 */
export const Panel: Story = {
  play: async ({ canvasElement }) => {
    const screen = within(canvasElement)
    await userEvent.click(await screen.findByRole('tab', { name: 'Call' }))
    await userEvent.selectOptions(screen.getByLabelText('Tool'), 'counter.add')
    const input = screen.getByLabelText('Input (JSON)')
    await expect(JSON.parse((input as HTMLTextAreaElement).value)).toEqual({ by: 1 })

    await userEvent.clear(input)
    await userEvent.type(input, '{{ "by": 5 }')
    await userEvent.click(screen.getByRole('button', { name: 'Run' }))

    const result = screen.getByRole('region', { name: 'Result' })
    await waitFor(() => expect(result).toHaveTextContent('counter.add as Assistant (inapp): ok'))
    await expect(result).toHaveTextContent('"count": 5')
    await expect(screen.getByRole('status', { name: 'Count' })).toHaveTextContent('5')
  },
}

/**
 * A browser agent asks to reset the counter while the devtools are open: the confirmation dialog
 * is modal, the panel steps aside, and its toggle sits inside the dialog, so a keyboard user
 * tabs from Deny and Approve to the devtools and answers from the Confirmations tab.
 */
export const WithConfirmDialog: Story = {
  render: (args, { loaded }) => (
    <StrictMode>
      <ToolProvider toolmark={loaded.tm as Toolmark}>
        <Counter />
        <ConfirmDialog />
        <ToolmarkDevtoolsInProduction {...args} />
      </ToolProvider>
    </StrictMode>
  ),
  play: async ({ canvasElement, loaded }) => {
    const tm = loaded.tm as Toolmark
    const screen = within(canvasElement)
    await waitFor(() => expect(tm.describe('counter.reset', { caller: 'webmcp' })).toBeDefined())
    await tm.call('counter.add', { by: 3 }, { caller: 'inapp' })

    const call = tm.call('counter.reset', {}, { caller: 'webmcp' })

    const dialog = await screen.findByRole('alertdialog', { name: 'Reset the counter' })
    await expect(within(dialog).getByRole('button', { name: 'Deny' })).toHaveFocus()
    await expect(screen.queryByRole('tablist')).toBeNull()
    await userEvent.tab()
    await userEvent.tab()
    const toggle = within(dialog).getByRole('button', { name: /^Toolmark devtools/ })
    await expect(toggle).toHaveFocus()
    await userEvent.keyboard('{Enter}')
    await userEvent.click(within(dialog).getByRole('tab', { name: /^Confirmations/ }))
    await expect(
      within(dialog).getByRole('list', { name: 'Pending confirmations' }),
    ).toHaveTextContent('Browser agent (webmcp) · inline')

    await userEvent.click(within(dialog).getByRole('button', { name: 'Deny Reset the counter' }))

    await expect(await call).toEqual({ status: 'cancelled', by: 'operator' })
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    await expect(screen.getByRole('status', { name: 'Count' })).toHaveTextContent('3')
    await expect(screen.getByRole('region', { name: 'Answered' })).toHaveTextContent(
      'Denied counter.reset: cancelled',
    )
  },
}
