import { StrictMode, useState } from 'react'
import type { Meta, StoryObj } from '@storybook/react-vite'
import { expect, userEvent, waitFor } from 'storybook/test'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import { ToolProvider, useTool } from '@toolmark/react'

/** A counter whose `counter.increment` tool an agent and the button share. */
function CounterDemo() {
  const [count, setCount] = useState(0)
  const increment = useTool({
    name: 'counter.increment',
    title: 'Increment the counter',
    description: 'Adds `by` (default 1) to the counter and returns the new count.',
    input: z.object({ by: z.number().int().min(1).max(100).default(1) }),
    run: ({ by }) => {
      setCount((c) => c + by)
      return ok({ count: count + by })
    },
  })
  return (
    <section aria-label="Counter" style={{ fontFamily: 'system-ui', display: 'grid', gap: 8 }}>
      <output aria-label="Count" style={{ fontSize: 32 }}>
        {count}
      </output>
      <button type="button" onClick={() => void increment.call({ by: 1 })}>
        Add one
      </button>
      <p>
        Tool <code>{increment.name}</code>: {increment.status}
      </p>
    </section>
  )
}

const meta = {
  title: 'UseTool',
  loaders: [() => ({ tm: createToolmark() })],
  render: (_args, { loaded }) => (
    <StrictMode>
      <ToolProvider toolmark={loaded.tm as Toolmark}>
        <CounterDemo />
      </ToolProvider>
    </StrictMode>
  ),
} satisfies Meta

export default meta
type Story = StoryObj<typeof meta>

/** An agent increments the counter through its tool; the button runs the same tool as a person. */
export const Counter: Story = {
  play: async ({ canvas, loaded }) => {
    const tm = loaded.tm as Toolmark
    await waitFor(() =>
      expect(tm.manifest().tools.map((t) => t.name)).toEqual(['counter.increment']),
    )

    // Out-of-range input never reaches `run`.
    const refused = await tm.call('counter.increment', { by: 1000 }, { caller: 'inapp' })
    await expect(refused.status).toBe('invalid')
    await expect(canvas.getByRole('status', { name: 'Count' })).toHaveTextContent('0')

    const result = await tm.call('counter.increment', { by: 5 }, { caller: 'inapp' })

    await expect(result).toEqual({ status: 'ok', data: { count: 5 } })
    await waitFor(() =>
      expect(canvas.getByRole('status', { name: 'Count' })).toHaveTextContent('5'),
    )
    await expect(canvas.getByText(/counter\.increment/).closest('p')).toHaveTextContent('ok')

    await userEvent.click(canvas.getByRole('button', { name: 'Add one' }))
    await waitFor(() =>
      expect(canvas.getByRole('status', { name: 'Count' })).toHaveTextContent('6'),
    )
    await expect(canvas.getByText(/counter\.increment/).closest('p')).toHaveTextContent('ok')
  },
}
