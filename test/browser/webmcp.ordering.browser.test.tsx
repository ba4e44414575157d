import { StrictMode } from 'react'
import { beforeEach, describe, expect, it } from 'vitest'
import { page } from 'vitest/browser'
import { render } from 'vitest-browser-react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { createToolmark, ok, type Toolmark } from '@toolmark/core'
import { ConfirmDialog, ToolProvider, useTool } from '@toolmark/react'
import { useFormTool } from '@toolmark/react/rhf'
import { useWebMCP } from '../../src/useWebMCP'

// A browser agent's parallel tool calls on native WebMCP (`--enable-features=WebMCP`), against a
// react-hook-form form and the real <ConfirmDialog>: what the person approves is what is sent.

interface RegisteredTool {
  name: string
}

interface NativeModelContext {
  getTools(): Promise<RegisteredTool[]>
  executeTool(tool: RegisteredTool, input: object): Promise<string>
}

const modelContext = () =>
  (document as unknown as { modelContext: NativeModelContext }).modelContext

const toolNames = async () => (await modelContext().getTools()).map((tool) => tool.name).sort()

/** Executes a tool by name, as an agent does, and answers its structured content. */
async function execute(name: string, input: object): Promise<Record<string, unknown>> {
  const tool = (await modelContext().getTools()).find((candidate) => candidate.name === name)
  if (!tool) throw new Error(`"${name}" is not registered on document.modelContext`)
  const answer = JSON.parse(await modelContext().executeTool(tool, input)) as {
    structuredContent: Record<string, unknown>
  }
  return answer.structuredContent
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const schema = z.object({
  title: z.string().min(1),
  priority: z.enum(['low', 'normal', 'high']),
})
type Ticket = z.infer<typeof schema>

const sent: Ticket[] = []

function NewTicket() {
  const form = useForm<Ticket>({
    resolver: zodResolver(schema),
    defaultValues: { title: '', priority: 'normal' },
  })
  const onSubmit = (values: Ticket) => {
    sent.push(structuredClone(values))
    return { id: sent.length }
  }
  useFormTool(form, {
    name: 'ticket',
    title: 'Create ticket',
    description: 'The new-ticket form.',
    schema,
    onSubmit,
    submitSummary: (values) => `Create ticket “${values.title}” (${values.priority} priority)`,
  })
  return (
    <form onSubmit={form.handleSubmit(onSubmit)}>
      <label>
        Title <input {...form.register('title')} />
      </label>
      <label>
        Priority{' '}
        <select {...form.register('priority')}>
          <option value="low">low</option>
          <option value="normal">normal</option>
          <option value="high">high</option>
        </select>
      </label>
    </form>
  )
}

function Search() {
  useTool({
    name: 'tickets.search',
    description: 'Searches tickets.',
    input: z.object({ q: z.string() }),
    hints: { readOnly: true },
    run: async () => {
      await sleep(30)
      return ok([])
    },
  })
  return null
}

function WebMCP() {
  useWebMCP()
  return null
}

async function setup(): Promise<Toolmark> {
  const tm = createToolmark()
  await render(
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <WebMCP />
        <Search />
        <NewTicket />
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>,
  )
  await expect
    .poll(toolNames)
    .toEqual(['ticket.fill', 'ticket.state', 'ticket.submit', 'tickets.search'])
  return tm
}

const FILLED: Ticket = { title: 'VPN keeps dropping', priority: 'high' }

beforeEach(async () => {
  sent.length = 0
  await expect.poll(toolNames).toEqual([])
})

describe('native WebMCP keeps the ordering promise', () => {
  for (const delay of [0, 5, 100]) {
    it(`sends what the dialog showed when slow call + fill + submit come in one turn (approved ${delay} ms after it opens)`, async () => {
      const tm = await setup()
      const requested: string[] = []
      tm.events.on('confirm', (event) => {
        if (event.status === 'pending') requested.push(event.entry.summary)
      })
      const turn = Promise.all([
        execute('tickets.search', { q: 'vpn' }),
        execute('ticket.fill', { values: FILLED }),
        execute('ticket.submit', {}),
      ])

      const dialog = page.getByRole('alertdialog')
      await expect.element(dialog).toBeVisible()
      await expect
        .element(dialog)
        .toHaveTextContent('Create ticket “VPN keeps dropping” (high priority)')
      await expect.element(page.getByLabelText('Title', { exact: true })).toHaveValue(FILLED.title)
      await sleep(delay)
      await page.getByRole('button', { name: 'Approve' }).click()

      const [search, fill, submit] = await turn
      expect(search).toEqual({ status: 'ok', data: [] })
      expect(fill).toMatchObject({ status: 'ok' })
      expect(submit).toEqual({ status: 'ok', data: { id: 1 } })
      expect(requested).toEqual(['Create ticket “VPN keeps dropping” (high priority)'])
      expect(sent).toEqual([FILLED])
    })
  }

  it('refuses stale, sending nothing, when a fill sent after the submit changes the form while the person decides', async () => {
    await setup()
    const turn = Promise.all([
      execute('ticket.fill', { values: { title: 'One' } }),
      execute('ticket.submit', {}),
      execute('ticket.fill', { values: { title: 'Two' } }),
    ])

    const dialog = page.getByRole('alertdialog')
    await expect.element(dialog).toBeVisible()
    await expect.element(dialog).toHaveTextContent('Create ticket “One”')
    // The later fill runs while the person reads the dialog: the slot is free meanwhile.
    await expect.element(page.getByLabelText('Title', { exact: true })).toHaveValue('Two')
    await page.getByRole('button', { name: 'Approve' }).click()

    const [first, submit, second] = await turn
    expect(first).toMatchObject({ status: 'ok' })
    expect(second).toMatchObject({ status: 'ok' })
    expect(submit).toMatchObject({ status: 'refused', code: 'stale' })
    expect(sent).toEqual([])
  })
})
