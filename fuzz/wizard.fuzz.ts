import fc from 'fast-check'
import { it } from 'vitest'
import { z } from 'zod'
import { createToolmark, REDACTED, type FieldChange, type ToolResult } from '@toolmark/core'
import { createWizardTools, type FillResult } from '@toolmark/core/forms'
import { getIn, leaves, memoryForm, same } from './support/memoryForm'
import { resultProblem } from './support/results'
import { Tally, describe, seedFor } from './support/row'

/** Wizards a property builds; each gets one to four fills across its steps. */
const WIZARDS = 2_000
const SUBMITS = 1_000

/** Every secret the agent sends starts with this: it must never show outside the form. */
const SECRET = 'pin-secret-'

const who = z.object({ email: z.string(), name: z.string().min(1), pin: z.string() })
const order = z.object({
  items: z.array(z.object({ sku: z.string().min(1), qty: z.number().int().min(1) })),
  card: z.object({ number: z.string(), cvc: z.string() }),
})

const whoDefaults = { email: '', name: 'Ana', pin: '' }
const orderDefaults = { items: [{ sku: 'A-1', qty: 1 }], card: { number: '', cvc: '' } }

/** A two-step wizard, one form per step; `pin` is a password element, `card.cvc` declared. */
function setup() {
  const tm = createToolmark({ dev: false })
  const whoForm = memoryForm(whoDefaults, [
    { path: 'pin', label: 'PIN', element: { type: 'password' } },
  ])
  const orderForm = memoryForm(orderDefaults)
  const submitted: unknown[] = []
  createWizardTools(tm, {
    name: 'checkout',
    description: 'The checkout wizard',
    steps: [
      { id: 'who', title: 'Who', adapter: whoForm.adapter, schema: who },
      {
        id: 'order',
        title: 'Order',
        adapter: orderForm.adapter,
        schema: order,
        sensitive: ['card.cvc'],
      },
    ],
    onSubmit: (values) => {
      submitted.push(structuredClone(values))
      return { id: 'O-1' }
    },
  })
  tm.confirmations.attachPresenter()
  const seen: unknown[] = []
  for (const type of ['call', 'result', 'undo', 'confirm'] as const) {
    tm.events.on(type, (event) => seen.push(event))
  }
  const values = () => ({ who: whoForm.values, order: orderForm.values })
  const writes = () => whoForm.writes.length + orderForm.writes.length
  return { tm, whoForm, orderForm, submitted, seen, values, writes }
}

const word = fc.string({ maxLength: 5 })
const secret = fc.nat(999).map((n) => `${SECRET}${n}`)
const item = fc.record({
  sku: fc.oneof(fc.constantFrom('A-1', 'B-2', ''), word),
  qty: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constantFrom(0, -1, 1.5, 'x')),
})
const items = fc.oneof(
  fc.array(item, { maxLength: 3 }),
  fc.record({ $append: fc.array(item, { minLength: 1, maxLength: 3 }) }),
  fc.record({ $remove: fc.array(fc.integer({ min: -1, max: 4 }), { minLength: 1, maxLength: 3 }) }),
  fc.constantFrom(null, 'x', { $append: [], $remove: [0] }, { $push: [] }),
)
/** Values for both steps at once, some the schemas refuse, some naming no field. */
const fillValues = fc.record(
  {
    who: fc.oneof(
      fc.record(
        {
          email: fc.oneof(fc.constantFrom('ana@example.com', ''), word),
          name: fc.oneof(fc.constantFrom('Ana', 'Bo', ''), fc.constant(null)),
          pin: fc.oneof(secret, fc.constant(null)),
        },
        { requiredKeys: [] },
      ),
      fc.constantFrom(null, 'x', { nope: 1 }, { __proto__: { polluted: true } }),
    ),
    order: fc.oneof(
      fc.record(
        {
          items,
          card: fc.record(
            { number: fc.constantFrom('4111', ''), cvc: secret },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: [] },
      ),
      fc.constantFrom(null, []),
    ),
  },
  { requiredKeys: [] },
)
const fillInput = fc.record({ values: fillValues, overwrite: fc.boolean() })

/** What `items` should hold after an ok fill sent `sent` over `before`. */
function expectedItems(before: unknown[], sent: unknown): unknown[] | undefined {
  if (Array.isArray(sent)) return sent
  if (sent !== null && typeof sent === 'object') {
    const op = sent as { $append?: unknown[]; $remove?: number[] }
    if (Array.isArray(op.$append)) return [...before, ...op.$append]
    if (Array.isArray(op.$remove)) return before.filter((_, i) => !op.$remove!.includes(i))
  }
  return undefined
}

it('wizard fills across steps are all or nothing, array operations do what they say', async (context) => {
  const seed = seedFor('wizard fills')
  const tally = new Tally(seed)
  const counts = { ok: 0, notOk: 0, appended: 0, removed: 0 }

  await fc.assert(
    fc.asyncProperty(fc.array(fillInput, { minLength: 1, maxLength: 4 }), async (fills) => {
      const { tm, values, writes, seen } = setup()
      for (const input of fills) {
        tally.runs++
        const before = structuredClone(values())
        const written = writes()
        const what = () => `fill ${describe(input)} over ${describe(before)}`
        let result: ToolResult
        try {
          result = await tm.call('checkout.fill', input)
        } catch (error) {
          tally.threw(what(), error)
          continue
        }
        const problem = resultProblem(result)
        tally.check(problem === undefined, () => `${what()} → ${problem}`)
        const after = values()
        if (result.status !== 'ok') {
          counts.notOk++
          tally.check(
            same(before, after) && writes() === written,
            () => `${what()} ended ${result.status} but a step changed`,
          )
          continue
        }
        counts.ok++
        const { changes } = result.data as FillResult
        // Every leaf that moved, in either step, is reported.
        const moved = [...new Set([...leaves(before), ...leaves(after)])].filter(
          (path) => !same(getIn(before, path), getIn(after, path)),
        )
        for (const path of moved) {
          tally.check(
            changes.some((c: FieldChange) => path === c.path || path.startsWith(`${c.path}.`)),
            () => `${what()} changed ${path} without reporting it`,
          )
        }
        const sent = (input.values as { order?: { items?: unknown } }).order?.items
        const expected = expectedItems(before.order.items, sent)
        if (expected !== undefined) {
          if (sent && typeof sent === 'object' && '$append' in sent) counts.appended++
          if (sent && typeof sent === 'object' && '$remove' in sent) counts.removed++
          tally.check(
            same(after.order.items, expected),
            () => `${what()} left items ${describe(after.order.items)}, not ${describe(expected)}`,
          )
        }
      }
      tally.check(!describe(seen).includes(SECRET), () => 'a secret showed in an event or result')
    }),
    { numRuns: WIZARDS, seed },
  )
  const row = tally.report(context, {
    property: 'wizard fills across steps, with `$append`/`$remove`',
    unit: 'fills',
    holds: `${counts.notOk.toLocaleString('en-US')} fills not ok changed no step; ${counts.ok.toLocaleString('en-US')} ok fills reported every change in both steps (${counts.appended} appends, ${counts.removed} removes did exactly that); 0 secrets in results or events`,
  })
  if (row.throws + row.violations > 0) throw new Error(row.examples.join('\n'))
})

it('a wizard submit confirmation shows what is submitted, secrets masked', async (context) => {
  const seed = seedFor('wizard submit')
  const tally = new Tally(seed)
  const counts = { submitted: 0, stale: 0, invalid: 0 }

  await fc.assert(
    fc.asyncProperty(
      fc.array(fillInput, { maxLength: 3 }),
      fc.option(fc.record({ step: fc.constantFrom('who', 'order'), value: word }), { freq: 3 }),
      async (fills, typed) => {
        const { tm, whoForm, orderForm, submitted, seen } = setup()
        for (const input of fills) await tm.call('checkout.fill', input)
        tally.runs++
        const asked = await tm.call('checkout.submit', {}, { caller: 'inapp' })
        if (asked.status !== 'needs_confirmation') {
          if (asked.status === 'invalid') counts.invalid++
          tally.check(
            asked.status === 'invalid',
            () => `submit ended ${describe(asked)} instead of asking`,
          )
          return
        }
        const entry = tm.confirmations.get(asked.confirmId)!
        const shown = JSON.stringify(entry)
        tally.check(!shown.includes(SECRET), () => `the confirmation shows a secret: ${shown}`)
        // The person's own edit between the question and the answer.
        if (typed) {
          if (typed.step === 'who') whoForm.type('email', `user-${typed.value}`)
          else orderForm.type('card.number', `user-${typed.value}`)
        }
        const answer = await tm.confirmations.approve(asked.confirmId)
        const changedSince =
          typed !== null &&
          !same(
            getIn(entry.input, typed.step === 'who' ? 'who.email' : 'order.card.number'),
            `user-${typed.value}`,
          )
        if (answer.status === 'refused' && answer.code === 'stale') {
          counts.stale++
          tally.check(changedSince, () => 'refused stale though nothing changed')
          tally.check(submitted.length === 0, () => 'a stale submit still submitted')
          return
        }
        if (answer.status !== 'ok') {
          counts.invalid++
          tally.check(submitted.length === 0, () => `ended ${answer.status} but submitted`)
          return
        }
        counts.submitted++
        tally.check(!changedSince, () => 'submitted after the form changed under the person')
        tally.check(submitted.length === 1, () => `submitted ${submitted.length} times`)
        const sent = submitted[0] as { who: { pin: string }; order: { card: { cvc: string } } }
        // What was sent, with the two secret paths masked, is exactly what the person saw.
        const masked = structuredClone(sent)
        tally.check(
          !describe(sent).includes(REDACTED),
          () => `onSubmit got a masked value instead of the real one: ${describe(sent)}`,
        )
        if ('pin' in masked.who) masked.who.pin = REDACTED
        if ('cvc' in masked.order.card) masked.order.card.cvc = REDACTED
        tally.check(
          same(masked, entry.input),
          () => `sent ${describe(masked)} but the person saw ${describe(entry.input)}`,
        )
        for (const change of entry.changes ?? []) {
          if (change.after === REDACTED) continue
          tally.check(
            'after' in change ? same(getIn(sent, change.path), change.after) : true,
            () => `the change ${describe(change)} is not what was sent`,
          )
        }
        tally.check(!describe(seen).includes(SECRET), () => 'a secret showed in an event')
      },
    ),
    { numRuns: SUBMITS, seed },
  )
  const row = tally.report(context, {
    property: 'wizard submit: confirmation vs what is submitted',
    unit: 'submits',
    holds: `${counts.submitted} submitted exactly what the person saw (PIN and CVC masked, never shown); ${counts.stale} edited after the question refused stale, none sent; ${counts.invalid} invalid, none sent`,
  })
  if (row.throws + row.violations > 0) throw new Error(row.examples.join('\n'))
})
