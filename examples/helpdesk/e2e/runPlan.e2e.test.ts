import { ok } from '@toolmark/core'
import type { ToolResult } from '@toolmark/core'
import type { PageClient } from '@toolmark/core/agent'
import { plan } from '../src/assistant/planner.ts'
import type { PlanContext } from '../src/assistant/planner.ts'
import { runPlan, type PlanRun } from '../src/assistant/runPlan.ts'
import type { LastChange } from '../src/assistant/lastChange.ts'

// Running a plan is plain code too: a page whose every call goes through, and the words said.

/** Runs what the planner makes of `request` against a page where every call succeeds. */
async function said(request: string, context: PlanContext = { tools: [] }) {
  const calls: string[] = []
  const words: string[] = []
  const client = {
    call: (tool: string, input: Record<string, unknown>) => {
      calls.push(`${tool} ${JSON.stringify(input)}`)
      return Promise.resolve(ok({ ...input }))
    },
  } as unknown as PageClient
  const run: PlanRun = {
    client,
    lastChange: {} as LastChange,
    signal: new AbortController().signal,
    runStep: (_step, execute) => execute(() => {}),
    say: (text) => void words.push(text),
    describe: (tool: string, result: ToolResult) =>
      result.status === 'ok' ? `${tool} went through` : `${tool} failed`,
  }
  await runPlan(plan(request, context), run)
  return { calls, words }
}

describe('running a plan', () => {
  it('says each call of a round of calls on numbered tickets', async () => {
    expect(await said('make ticket 8 urgent and close ticket 9')).toEqual({
      calls: ['tickets.prioritize {"id":8,"priority":"urgent"}', 'tickets.close {"id":9}'],
      words: ['Done: set ticket #8 to urgent, close ticket #9.'],
    })
    expect((await said('close tickets 3 and 4')).words).toEqual([
      'Done: close ticket #3, close ticket #4.',
    ])
  })

  it('lets the last call of any other round say what came of it', async () => {
    const page: PlanContext = {
      tools: [{ name: 'ticket.fill' }, { name: 'ticket.submit', title: 'Create ticket' }],
    }
    expect((await said('new ticket: printer jammed', page)).words).toEqual([
      'ticket.submit went through.',
    ])
  })
})
