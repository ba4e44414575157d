import type { ToolResult } from '@toolmark/core'
import type { NeedsConfirmationResult, PageClient } from '@toolmark/core/agent'
import type { LastChange } from './lastChange.ts'
import type { Plan, PlanStep } from './planner.ts'
import type { TicketBrief } from './useAssistant.ts'

/** What running a plan needs from the assistant. */
export interface PlanRun {
  client: PageClient
  lastChange: LastChange
  signal: AbortSignal
  /** Runs one call as a transcript step; `execute` reports a pending approval via `waiting`. */
  runStep(
    step: PlanStep,
    execute: (waiting: (asked: NeedsConfirmationResult) => void) => Promise<ToolResult>,
  ): Promise<ToolResult>
  /** Adds the assistant's answer to the transcript. */
  say(text: string, tickets?: TicketBrief[]): void
  /** What a finished step came to, in words. */
  describe(tool: string, result: ToolResult): string
}

/**
 * Runs what the scripted planner decided, round by round: the calls of one round go out
 * together (as a model's parallel tool calls do; the page runs them in order), and the next
 * round starts once each has its final outcome. A round with a failed call ends the plan.
 */
export async function runPlan(planned: Plan, run: PlanRun): Promise<void> {
  const { client, signal } = run
  if (planned.kind === 'reply') return run.say(planned.text)
  if (planned.kind === 'undo') return run.say((await run.lastChange.undo()).text)

  let last: { step: PlanStep; result: ToolResult } | undefined
  for (const turn of planned.turns) {
    const results = await Promise.all(
      turn.map((step) =>
        run.runStep(step, async (waiting) => {
          const first = await client.call(step.tool, step.input, { signal })
          if (first.status !== 'needs_confirmation') return first
          waiting(first)
          return client.outcome(first.confirmId, { signal })
        }),
      ),
    )
    const failed = results.findIndex((result) => result.status !== 'ok')
    if (failed >= 0) {
      return run.say(`I stopped there. ${run.describe(turn[failed].tool, results[failed])}`)
    }
    last = { step: turn.at(-1)!, result: results.at(-1)! }
  }
  if (!last) return
  if (planned.then) return run.say(planned.then)
  if (last.step.tool === 'tickets.search' && last.result.status === 'ok') {
    const found = (last.result.data as { tickets: TicketBrief[] }).tickets
    const tickets = planned.only
      ? found.filter((ticket) => ticket.priority === planned.only!.priority)
      : found
    const plural = (n: number) => `${n} ticket${n === 1 ? '' : 's'}`
    if (!planned.only) {
      return run.say(
        tickets.length === 0 ? 'No tickets match.' : `Found ${plural(tickets.length)}:`,
        tickets,
      )
    }
    // The step listed every active ticket: the answer says so, then how many are of that kind.
    const priority = `${planned.only.priority} priority`
    const among = `Found ${plural(found.length)}`
    return run.say(
      tickets.length === 0
        ? `${among}; none is ${priority}.`
        : `${among}; ${tickets.length === 1 ? '1 is' : `${tickets.length} are`} ${priority}:`,
      tickets,
    )
  }
  // Several calls of one tool ("close tickets 3 and 4") or on tickets by number ("make ticket 8
  // urgent and close ticket 9"): say each; else the last one says it.
  const final = planned.turns.at(-1)!
  const each =
    final.every((step) => step.tool === final[0].tool) ||
    final.every((step) => typeof step.input.id === 'number')
  if (final.length > 1 && each) {
    return run.say(`Done: ${final.map((step) => step.intent.toLowerCase()).join(', ')}.`)
  }
  run.say(`${run.describe(last.step.tool, last.result)}.`)
}
