import fc from 'fast-check'
import { z } from 'zod'
import { createToolmark, ok, type ConfirmEvent, type ToolResult } from '../src/index'
import { createFormTools } from '../src/forms'
import { memoryForm } from './forms/memoryForm'

const STATUSES = ['ok', 'invalid', 'refused', 'needs_confirmation', 'cancelled', 'error']

const isDeepFrozen = (value: unknown, seen = new Set<unknown>()): boolean => {
  if (value === null || typeof value !== 'object' || seen.has(value)) return true
  seen.add(value)
  return (
    Object.isFrozen(value) &&
    Object.values(value as Record<string, unknown>).every((v) => isDeepFrozen(v, seen))
  )
}

const setup = () => {
  const tm = createToolmark({ dev: false })
  tm.register({
    name: 'tickets.search',
    description: 'Searches',
    input: z.object({ query: z.string(), limit: z.number().int().max(50).optional() }),
    hints: { readOnly: true },
    run: (input) => ok({ query: input.query, hits: [] }),
  })
  tm.register({
    name: 'tickets.close',
    description: 'Closes',
    input: z.object({ id: z.number() }),
    hints: { consequential: true },
    run: (input) => ok(input.id),
  })
  tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })
  tm.register({
    name: 'echo',
    description: 'Echoes anything back',
    input: z.any(),
    run: (input) => ok(input as never),
  })
  return tm
}

const names = fc.oneof(
  fc.constantFrom('tickets.search', 'tickets.close', 'ping', 'echo', 'missing', '', '__proto__'),
  fc.string(),
  fc.anything(),
)
const callers = fc.oneof(
  fc.constantFrom('inapp', 'webmcp', 'mcp', 'test', 'human', undefined),
  fc.anything(),
)
const options = fc.oneof(
  fc.record({ caller: callers, rev: fc.oneof(fc.integer(), fc.anything()) }, { requiredKeys: [] }),
  fc.anything(),
)

describe('tm.call under arbitrary arguments', () => {
  it('never throws and always answers a frozen, cloneable result of one of the six statuses', async () => {
    const tm = setup()
    await fc.assert(
      fc.asyncProperty(names, fc.anything(), options, async (name, input, opts) => {
        let result: ToolResult
        try {
          result = await (tm.call as (...a: unknown[]) => Promise<ToolResult>)(name, input, opts)
        } catch (e) {
          throw new Error(`tm.call threw: ${String(e)}`, { cause: e })
        }
        expect(STATUSES).toContain(result.status)
        expect(isDeepFrozen(result)).toBe(true)
        expect(() => structuredClone(result)).not.toThrow()
      }),
      { numRuns: 500 },
    )
  })

  it('answers arbitrary JSON input to a typed tool with ok or invalid, never running on bad input', async () => {
    const tm = setup()
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (input) => {
        const result = await tm.call('tickets.search', input)
        const valid = z
          .object({ query: z.string(), limit: z.number().int().max(50).optional() })
          .safeParse(input).success
        expect(result.status).toBe(valid ? 'ok' : 'invalid')
      }),
      { numRuns: 300 },
    )
  })

  it('never lets input keys reach Object.prototype', async () => {
    const tm = setup()
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom('__proto__', 'constructor', 'prototype', 'a'),
          fc.jsonValue(),
        ),
        async (payload) => {
          const input = JSON.parse(JSON.stringify(payload))
          await tm.call('echo', input)
          await tm.call('tickets.search', input)
          expect(Object.keys(Object.prototype)).toEqual([])
        },
      ),
      { numRuns: 200 },
    )
  })
})

describe('confirmations, fills and undo under random schedules (the short run of `npm run fuzz`)', () => {
  it('runs a confirmation at most once, and exactly once when an approval wins the race', async () => {
    const realNow = Date.now
    let offset = 0
    // The clock may jump past expiry while answers are in flight.
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + offset)
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('inapp', 'webmcp'),
          fc.array(
            fc.record({
              kind: fc.constantFrom('approve', 'approve-input', 'reject', 'expire'),
              hops: fc.nat(3),
            }),
            { minLength: 2, maxLength: 5 },
          ),
          async (caller, answers) => {
            const tm = createToolmark({ dev: false })
            const detach = tm.confirmations.attachPresenter()
            const ran: unknown[] = []
            tm.register({
              name: 'pay',
              description: 'Pays',
              input: z.object({ amount: z.number() }),
              hints: { consequential: true },
              run: (input) => {
                ran.push(input)
                return ok(input)
              },
            })
            const events: ConfirmEvent[] = []
            tm.events.on('confirm', (event) => events.push(event))
            const calling = tm.call('pay', { amount: 1 }, { caller: caller as 'inapp' })
            if (caller === 'inapp') await calling
            else while (events.length === 0) await Promise.resolve()
            const id = events[0].entry.id

            const results = await Promise.all(
              answers.map(async ({ kind, hops }) => {
                for (let i = 0; i < hops; i++) await Promise.resolve()
                if (kind === 'approve') return tm.confirmations.approve(id)
                if (kind === 'approve-input') {
                  return tm.confirmations.approve(id, { input: { amount: 2 } })
                }
                if (kind === 'reject') return tm.confirmations.reject(id)
                offset += 600_001
                return undefined
              }),
            )
            if (tm.confirmations.get(id)) await tm.confirmations.reject(id)
            await calling

            const outcomes = events.filter((e) => e.status !== 'pending')
            expect(outcomes).toHaveLength(1)
            expect(ran.length).toBe(outcomes[0].status === 'approved' ? 1 : 0)
            expect(results.filter((r) => r?.status === 'ok')).toHaveLength(ran.length)
            detach()
          },
        ),
        { numRuns: 100 },
      )
    } finally {
      clock.mockRestore()
    }
  })

  const formSchema = z.object({
    title: z.string().min(1),
    customer: z.object({ name: z.string(), email: z.email().or(z.literal('')) }),
    items: z.array(z.object({ product: z.string().min(1), qty: z.number().int().min(1) })),
  })
  const formDefaults = () => ({
    title: '',
    customer: { name: '', email: '' },
    items: [{ product: 'Paper', qty: 1 }],
  })
  const item = fc.record({
    product: fc.constantFrom('Toner', ''),
    qty: fc.constantFrom(1, 2, 0, 'x'),
  })
  const fillValues = fc.record(
    {
      title: fc.constantFrom('Printer jammed', '', 7),
      customer: fc.record(
        {
          name: fc.constantFrom('Ada', 3),
          email: fc.constantFrom('ada@example.com', 'nope'),
        },
        { requiredKeys: [] },
      ),
      items: fc.oneof(
        fc.array(item, { maxLength: 2 }),
        fc.record({ $append: fc.array(item, { minLength: 1, maxLength: 2 }) }),
        fc.record({ $remove: fc.array(fc.nat(2), { minLength: 1, maxLength: 2 }) }),
      ),
      nope: fc.constant(1),
    },
    { requiredKeys: [] },
  )

  it('never writes part of a fill that is not ok', async () => {
    await fc.assert(
      fc.asyncProperty(fillValues, fc.boolean(), async (values, overwrite) => {
        const tm = createToolmark({ dev: false })
        const form = memoryForm(formDefaults())
        createFormTools(tm, form.adapter, { name: 'f', description: 'A form', schema: formSchema })
        form.type('customer.name', 'Typed')
        const before = structuredClone(form.values)

        const result = await tm.call('f.fill', { values, overwrite })

        if (result.status !== 'ok') {
          expect(form.values).toEqual(before)
          expect(form.adapter.setValues).not.toHaveBeenCalled()
        } else if (!overwrite) {
          expect(form.values.customer.name).toBe('Typed')
        }
      }),
      { numRuns: 300 },
    )
  })

  it('never takes back an edit the user made after the fill', async () => {
    const valid = fc.record(
      {
        title: fc.constantFrom('Printer jammed', 'Login broken'),
        customer: fc.record({ name: fc.constantFrom('Ada', 'Grace') }, { requiredKeys: [] }),
        items: fc.record({
          $append: fc.constant([{ product: 'Toner', qty: 2 }]),
        }),
      },
      { requiredKeys: ['title'] },
    )
    const edits = fc.subarray(['title', 'customer.name', 'customer.email', 'items.0.qty'])
    await fc.assert(
      fc.asyncProperty(valid, edits, async (values, typed) => {
        const tm = createToolmark({ dev: false })
        const callIds: string[] = []
        tm.events.on('call', (event) => callIds.push(event.callId))
        const form = memoryForm(formDefaults())
        createFormTools(tm, form.adapter, { name: 'f', description: 'A form', schema: formSchema })
        const filled = await tm.call('f.fill', { values })
        expect(filled.status).toBe('ok')
        for (const path of typed) form.type(path, path === 'items.0.qty' ? 9 : `user ${path}`)
        const edited = structuredClone(form.values)

        const undone = await tm.undo(callIds[0])

        expect(undone.status).toBe('ok')
        if (typed.includes('title')) expect(form.values.title).toBe(edited.title)
        if (typed.includes('customer.name')) {
          expect(form.values.customer.name).toBe(edited.customer.name)
        }
        if (typed.includes('customer.email')) {
          expect(form.values.customer.email).toBe(edited.customer.email)
        }
        if (typed.includes('items.0.qty')) expect(form.values.items[0].qty).toBe(9)
      }),
      { numRuns: 200 },
    )
  })
})
