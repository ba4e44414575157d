import { StrictMode, useState } from 'react'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor, within } from 'storybook/test'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { ToolProvider, useTool } from '@toolmark/react'
import { ToolmarkDevtools } from '@toolmark/react/devtools'

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
        <ToolmarkDevtools {...args} />
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
