import fc from 'fast-check'
import { it } from 'vitest'
import { z } from 'zod'
import {
  createToolmark,
  ok,
  type ConfirmEvent,
  type StandardSchemaV1,
  type ToolResult,
} from '@toolmark/core'
import { confirmStage } from '../packages/core/src/confirmations/confirmStage'
import { Tally, describe, seedFor } from './support/row'

const RACES = 1_000

type Answer =
  'approve' | 'reject' | 'approve-input' | 'approve-bad-input' | 'expire' | 'abort' | 'stop'

const hops = async (n: number, macrotask: boolean) => {
  if (macrotask) await new Promise((resolve) => setTimeout(resolve, 0))
  for (let i = 0; i < n; i++) await Promise.resolve()
}

/** The zod schema behind a validator that answers one hop later. */
const asyncOf = <T>(schema: z.ZodType<T>): StandardSchemaV1<unknown, T> => ({
  '~standard': {
    version: 1,
    vendor: 'fuzz',
    validate: async (value) => {
      await Promise.resolve()
      return schema['~standard'].validate(value)
    },
    jsonSchema: { input: () => ({ type: 'object' }) },
  },
})

const race = fc.record({
  mode: fc.constantFrom(
    { caller: 'inapp', inline: false },
    { caller: 'test', inline: false },
    { caller: 'webmcp', inline: true },
    { caller: 'mcp', inline: true },
    { caller: 'inapp', inline: true },
  ),
  asyncValidation: fc.boolean(),
  slowRun: fc.boolean(),
  answers: fc.array(
    fc.record({
      kind: fc.constantFrom<Answer>(
        'approve',
        'approve',
        'reject',
        'approve-input',
        'approve-bad-input',
        'expire',
        'abort',
        'stop',
      ),
      hops: fc.nat(4),
      macrotask: fc.boolean(),
    }),
    { minLength: 2, maxLength: 6 },
  ),
})

type Race = typeof race extends fc.Arbitrary<infer R> ? R : never

it('one confirmation answered concurrently runs at most once, and exactly once when approved', async (context) => {
  const seed = seedFor('confirmations')
  const tally = new Tally(seed)
  const realNow = Date.now
  let offset = 0
  // The clock can jump past expiry while answers are in flight.
  Date.now = () => realNow() + offset
  const counts = { approved: 0, rejected: 0, expired: 0, deferred: 0, inline: 0 }

  try {
    await fc.assert(
      fc.asyncProperty(race, async (r) => {
        tally.runs++
        try {
          await one(r)
        } catch (error) {
          tally.threw(describe(r), error)
        }
      }),
      { numRuns: RACES, seed },
    )
  } finally {
    Date.now = realNow
  }

  /** One race: a call that needs a person, and `r.answers` arriving at once. */
  async function one(r: Race): Promise<void> {
    const what = () => describe(r)
    const tm = createToolmark({
      dev: false,
      confirm: { inapp: r.mode.inline ? 'inline' : 'deferred' },
    })
    const detach = tm.confirmations.attachPresenter()
    const schema = z.object({ amount: z.number() })
    const ran: unknown[] = []
    tm.register({
      name: 'pay',
      description: 'Pays',
      input: r.asyncValidation ? asyncOf(schema) : schema,
      hints: { consequential: true },
      summary: (input: { amount: number }) => `Pay ${input.amount}`,
      run: async (input: { amount: number }) => {
        ran.push(input)
        if (r.slowRun) await hops(2, false)
        return ok({ paid: input.amount, run: ran.length })
      },
    })
    const events: ConfirmEvent[] = []
    tm.events.on('confirm', (event) => events.push(event))
    const controller = new AbortController()
    const calling = tm.call(
      'pay',
      { amount: 1 },
      {
        caller: r.mode.caller as 'inapp',
        signal: controller.signal,
      },
    )

    let confirmId: string
    let callResult: ToolResult | undefined
    if (r.mode.inline) {
      counts.inline++
      for (let i = 0; i < 20 && events.length === 0; i++) await Promise.resolve()
      if (events.length === 0) await hops(0, true)
      if (!tally.check(events[0]?.status === 'pending', () => `no request: ${what()}`)) return
      confirmId = events[0].entry.id
    } else {
      counts.deferred++
      callResult = await calling
      if (
        !tally.check(
          callResult.status === 'needs_confirmation',
          () => `deferred call ended ${describe(callResult)}: ${what()}`,
        )
      ) {
        return
      }
      confirmId = callResult.status === 'needs_confirmation' ? callResult.confirmId : ''
    }

    const answered = await Promise.all(
      r.answers.map(async (a): Promise<ToolResult | undefined> => {
        await hops(a.hops, a.macrotask)
        switch (a.kind) {
          case 'approve':
            return tm.confirmations.approve(confirmId)
          case 'approve-input':
            return tm.confirmations.approve(confirmId, { input: { amount: 2 } })
          case 'approve-bad-input':
            return tm.confirmations.approve(confirmId, { input: { amount: 'two' } })
          case 'reject':
            return tm.confirmations.reject(confirmId, 'no')
          case 'expire':
            offset += 600_001
            return undefined
          case 'abort':
            controller.abort()
            return undefined
          case 'stop':
            tm.cancelAll()
            return undefined
        }
      }),
    )
    // Nobody answered for good (only bad edits, say): the person denies at last.
    if (tm.confirmations.get(confirmId)) answered.push(await tm.confirmations.reject(confirmId))
    if (r.mode.inline) callResult = await calling
    for (let i = 0; i < 5; i++) await Promise.resolve()

    const terminal = events.filter((e) => e.entry.id === confirmId && e.status !== 'pending')
    tally.check(ran.length <= 1, () => `ran ${ran.length} times: ${what()}`)
    if (!tally.check(terminal.length === 1, () => `${terminal.length} outcomes: ${what()}`)) {
      return
    }
    const outcome = terminal[0]
    const stage = confirmStage(outcome.status)
    counts[stage as 'approved' | 'rejected' | 'expired']++
    const winners = answered.filter((a) => a?.status === 'ok')
    if (stage === 'approved') {
      tally.check(ran.length === 1, () => `approved but ran ${ran.length} times: ${what()}`)
      tally.check(winners.length === 1, () => `${winners.length} approvals won: ${what()}`)
      tally.check(
        describe(outcome.result) === describe(winners[0]),
        () =>
          `the approval answered ${describe(winners[0])}, the event says ${describe(outcome.result)}`,
      )
      const edited = r.answers.findIndex((a, i) => answered[i]?.status === 'ok')
      const expected = r.answers[edited]?.kind === 'approve-input' ? 2 : 1
      tally.check(
        describe(ran[0]) === describe({ amount: expected }),
        () => `ran with ${describe(ran[0])}, approved ${expected}: ${what()}`,
      )
    } else {
      tally.check(ran.length === 0, () => `${stage} but ran: ${what()}`)
      tally.check(winners.length === 0, () => `${stage} but an approval got ok: ${what()}`)
    }
    if (r.mode.inline) {
      tally.check(
        describe(callResult) === describe(outcome.result),
        () => `the call ended ${describe(callResult)}, the event says ${describe(outcome.result)}`,
      )
    }
    for (const a of answered) {
      const fine =
        a === undefined ||
        a.status === 'ok' ||
        a.status === 'invalid' ||
        a.status === 'cancelled' ||
        (a.status === 'refused' && a.code === 'confirmation_expired')
      tally.check(fine, () => `an answer got ${describe(a)}: ${what()}`)
    }
    tally.check(tm.confirmations.list().length === 0, () => `left pending: ${what()}`)
    detach()
  }

  const row = tally.report(context, {
    property: 'concurrent answers to one confirmation',
    unit: 'races',
    holds: `never two runs; ${counts.approved} approved → exactly one run each (with the approved input), ${counts.rejected} denied or withdrawn and ${counts.expired} expired → none; ${counts.deferred} deferred, ${counts.inline} inline`,
  })
  if (row.throws + row.violations > 0) throw new Error(row.examples.join('\n'))
})
