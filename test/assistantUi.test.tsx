import { StrictMode, useState } from 'react'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { AssistantRuntimeProvider, useLocalRuntime } from '@assistant-ui/react'
import type { AssistantRuntime, ChatModelAdapter, Tool } from '@assistant-ui/react'
import { createToolmark } from '@toolmark/core'
import type { CallEvent, Toolmark } from '@toolmark/core'
import { ConfirmDialog, ToolProvider } from '@toolmark/react'
import { useToolmarkAssistantTools } from '@toolmark/react/assistant-ui'
import { useFormTool } from '@toolmark/react/rhf'

type Reply = { toolName: string; args: Record<string, unknown> }[] | string

interface Turn {
  /** The tools the runtime's model context offered. */
  tools: Record<string, Tool>
  /** The tool results the model read in its next step, by tool name. */
  results: [string, unknown][]
}

/**
 * A scripted model adapter for the local runtime, written like a real agent loop: the model asks
 * for tool calls, the adapter runs them with the tools of the runtime's model context (the
 * run's abort signal included), and the model's next step reads their results.
 */
function scriptedAdapter(replies: Reply[]) {
  const turns: Turn[] = []
  let next = 0
  const adapter: ChatModelAdapter = {
    async *run({ context, abortSignal }) {
      const tools = context.tools ?? {}
      const turn: Turn = { tools, results: [] }
      turns.push(turn)
      const reply = replies[next++] ?? 'Done.'
      if (typeof reply === 'string') {
        yield { content: [{ type: 'text', text: reply }] }
        return
      }
      const calls = reply.map((call, i) => ({
        type: 'tool-call' as const,
        toolCallId: `call_${turns.length}_${i}`,
        toolName: call.toolName,
        args: call.args as never,
        argsText: JSON.stringify(call.args),
      }))
      yield { content: calls }
      const results = await Promise.all(
        calls.map((call) => {
          const tool = tools[call.toolName]
          if (tool?.type !== 'frontend' || !tool.execute) return { error: 'no such tool' }
          return tool.execute(call.args, {
            toolCallId: call.toolCallId,
            abortSignal,
            human: () => Promise.reject(new Error('not used')),
          })
        }),
      )
      turn.results = calls.map((call, i) => [call.toolName, results[i]])
      const answer = replies[next++]
      yield {
        content: [
          ...calls.map((call, i) => ({ ...call, result: results[i] })),
          ...(typeof answer === 'string' ? [{ type: 'text' as const, text: answer }] : []),
        ],
      }
    },
  }
  return { adapter, turns }
}

const schema = z.object({ title: z.string().min(1), priority: z.enum(['low', 'high']) })

function TicketForm({ onSubmit }: { onSubmit: (values: z.output<typeof schema>) => unknown }) {
  const form = useForm({
    resolver: zodResolver(schema),
    defaultValues: { title: '', priority: 'low' as const },
  })
  useFormTool(form, {
    name: 'ticket',
    title: 'Create ticket',
    description: 'The new-ticket form.',
    schema,
    onSubmit,
    submitSummary: (values) => `Create "${values.title}"`,
  })
  return (
    <label>
      Title <input {...form.register('title')} />
    </label>
  )
}

function PageTools() {
  useToolmarkAssistantTools()
  return null
}

function setup(replies: Reply[]) {
  const tm: Toolmark = createToolmark({ dev: true })
  const calls: CallEvent[] = []
  tm.events.on('call', (event) => calls.push(event))
  const saved: unknown[] = []
  const { adapter, turns } = scriptedAdapter(replies)
  let runtime!: AssistantRuntime
  let hideForm: () => void = () => {}
  function Assistant() {
    const local = useLocalRuntime(adapter, { maxSteps: 5 })
    runtime = local
    const [form, setForm] = useState(true)
    hideForm = () => setForm(false)
    return (
      <AssistantRuntimeProvider runtime={local}>
        {form && <TicketForm onSubmit={(values) => (saved.push(values), { id: 'T-1' })} />}
        <PageTools />
      </AssistantRuntimeProvider>
    )
  }
  render(
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <Assistant />
        <ConfirmDialog />
      </ToolProvider>
    </StrictMode>,
  )
  const send = (text: string) =>
    act(() => runtime.thread.append({ role: 'user', content: [{ type: 'text', text }] }))
  return {
    tm,
    calls,
    saved,
    turns,
    send,
    cancel: () => act(() => runtime.thread.cancelRun()),
    hideForm: () => act(() => hideForm()),
    user: userEvent.setup(),
  }
}

describe('@toolmark/react/assistant-ui', () => {
  it('gives the runtime every in-app tool, runs calls through tm.call, and the model sees the final results', async () => {
    const { calls, saved, turns, send, user } = setup([
      [
        { toolName: 'ticket__fill', args: { values: { title: 'Printer jams', priority: 'high' } } },
        { toolName: 'ticket__submit', args: {} },
      ],
      'Filed T-1.',
    ])
    await send('File a ticket about the printer')

    await waitFor(() => expect(turns).toHaveLength(1))
    const { tools } = turns[0]
    expect(Object.keys(tools).sort()).toEqual(['ticket__fill', 'ticket__state', 'ticket__submit'])
    expect(tools.ticket__submit.type).toBe('frontend')
    expect(tools.ticket__submit.description).toMatch(
      /^<page-supplied>The new-ticket form\. .*<\/page-supplied> The user must approve each call\.$/,
    )
    expect(tools.ticket__fill.parameters).toMatchObject({ type: 'object' })

    const dialog = await screen.findByRole('alertdialog')
    expect(dialog).toHaveTextContent('Create "Printer jams"')
    expect(screen.getByLabelText('Title')).toHaveValue('Printer jams')
    expect(turns[0].results).toEqual([])
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }))

    await waitFor(() => expect(turns[0].results).toHaveLength(2))
    expect(saved).toEqual([{ title: 'Printer jams', priority: 'high' }])
    expect(calls.map((call) => [call.tool, call.caller])).toEqual([
      ['ticket.fill', 'inapp'],
      ['ticket.submit', 'inapp'],
    ])
    expect(turns[0].results).toEqual([
      [
        'ticket__fill',
        {
          untrustedContent: true,
          status: 'ok',
          data: {
            changes: [
              { path: 'priority', before: 'low', after: 'high' },
              { path: 'title', after: 'Printer jams' },
            ],
            skipped: [],
          },
        },
      ],
      ['ticket__submit', { status: 'ok', data: { id: 'T-1' } }],
    ])
  })

  it('keeps the tools in sync with the registry: tools that unmount go away', async () => {
    const { turns, send, hideForm } = setup(['Hello.', 'Still here.'])
    await send('Hi')
    await waitFor(() => expect(turns).toHaveLength(1))
    expect(Object.keys(turns[0].tools)).toHaveLength(3)
    await hideForm()
    await send('And now?')
    await waitFor(() => expect(turns).toHaveLength(2))
    expect(turns[1].tools).toEqual({})
  })

  it('cancelling the run ends the call waiting for a person (cancelled signal) and closes the dialog', async () => {
    const { turns, send, cancel, saved, tm } = setup([
      [
        { toolName: 'ticket__fill', args: { values: { title: 'Printer jams' } } },
        { toolName: 'ticket__submit', args: {} },
      ],
    ])
    const ended: unknown[] = []
    tm.events.on('confirm', (event) => {
      if (event.status !== 'pending') ended.push(event.status)
    })
    await send('Submit it')
    await screen.findByRole('alertdialog')
    await cancel()
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(tm.confirmations.list()).toEqual([])
    expect(ended).toEqual(['rejected'])
    await waitFor(() => expect(turns[0].results).toHaveLength(2))
    expect(turns[0].results[1]).toEqual(['ticket__submit', { status: 'cancelled', by: 'signal' }])
    expect(saved).toEqual([])
  })
})
