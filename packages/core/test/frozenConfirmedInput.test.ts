import { z } from 'zod'
import { createToolmark, ok, type Toolmark, type ToolResult } from '../src/index'

/**
 * What runs is what was shown, by value: a confirmed call runs a deep copy of its input frozen
 * when the confirmation was filed (and an edited approval, a copy frozen when it was approved),
 * so a caller that changes the object it passed afterwards changes nothing.
 */

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}

const isDeepFrozen = (value: unknown, seen = new Set<unknown>()): boolean => {
  if (value === null || typeof value !== 'object' || seen.has(value)) return true
  seen.add(value)
  return (
    Object.isFrozen(value) &&
    Object.values(value as Record<string, unknown>).every((v) => isDeepFrozen(v, seen))
  )
}

interface Seen {
  input: unknown
  /** The input as JSON when the run started. */
  json: string
  frozen: boolean
}

/** A consequential tool whose input has a record of anything, and the runs it saw. */
const registerPay = (tm: Toolmark, input: z.ZodType = PAY) => {
  const runs: Seen[] = []
  tm.register({
    name: 'pay',
    description: 'Pays',
    input: input as z.ZodType<{ to: string; meta: Record<string, any> }>,
    hints: { consequential: true },
    summary: (i) => `Pay ${i.to} ${JSON.stringify(i.meta)}`,
    run: async (i) => {
      // A hop first: a caller's change made meanwhile would show here.
      await flush()
      runs.push({ input: i, json: JSON.stringify(i), frozen: isDeepFrozen(i) })
      return ok(null)
    },
  })
  return runs
}
const PAY = z.object({ to: z.string(), meta: z.record(z.string(), z.any()) })

const given = () => ({ to: 'alice', meta: { amount: { value: 10 }, tags: ['a'] } })
const ORIGINAL = JSON.stringify(given())

/** What an in-page caller does to the object it passed once the person sees it. */
const tamper = (input: ReturnType<typeof given>) => {
  input.to = 'mallory'
  input.meta.amount.value = 1_000_000
  input.meta.tags.push('b')
  ;(input.meta as Record<string, unknown>).extra = true
}

const confirmIdOf = (result: ToolResult) => {
  expect(result.status).toBe('needs_confirmation')
  return (result as { confirmId: string }).confirmId
}

describe('a confirmed call runs what the person was shown', () => {
  it('deferred: a change to the passed object after needs_confirmation does not run', async () => {
    const tm = createToolmark()
    const runs = registerPay(tm)
    const input = given()
    const id = confirmIdOf(await tm.call('pay', input, { caller: 'inapp' }))
    const [entry] = tm.confirmations.list()
    tamper(input)
    expect(JSON.stringify(entry.input)).toBe(ORIGINAL)
    expect(await tm.confirmations.approve(id)).toEqual({ status: 'ok', data: null })
    expect(runs).toHaveLength(1)
    expect(runs[0].json).toBe(ORIGINAL)
    expect(runs[0].frozen).toBe(true)
    expect(runs[0].input).not.toBe(input)
  })

  it('deferred, a z.any() input: the change does not run either', async () => {
    const tm = createToolmark()
    const runs = registerPay(tm, z.any())
    const input = given()
    const id = confirmIdOf(await tm.call('pay', input, { caller: 'test' }))
    tamper(input)
    await tm.confirmations.approve(id)
    expect(runs.map((r) => r.json)).toEqual([ORIGINAL])
  })

  it('inline: a change made while the person decides does not run', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const runs = registerPay(tm)
    const input = given()
    const pending = tm.call('pay', input, { caller: 'webmcp' })
    await flush()
    const [entry] = tm.confirmations.list()
    expect(entry.mode).toBe('inline')
    expect(entry.summary).toBe(`Pay alice ${JSON.stringify(given().meta)}`)
    tamper(input)
    void tm.confirmations.approve(entry.id)
    expect(await pending).toEqual({ status: 'ok', data: null })
    expect(runs.map((r) => [r.json, r.frozen])).toEqual([[ORIGINAL, true]])
  })

  it('an edited approval runs a frozen copy of what was approved, with a sync schema', async () => {
    const tm = createToolmark()
    const runs = registerPay(tm)
    const id = confirmIdOf(await tm.call('pay', given(), { caller: 'inapp' }))
    const edited = { to: 'bob', meta: { amount: { value: 20 } } }
    const approved = JSON.stringify(edited)
    const answer = tm.confirmations.approve(id, { input: edited })
    edited.meta.amount.value = 1_000_000
    expect(await answer).toEqual({ status: 'ok', data: null })
    expect(runs.map((r) => [r.json, r.frozen])).toEqual([[approved, true]])
  })

  it('an edited approval runs what was approved with an async schema too (mcp, inline)', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const runs = registerPay(
      tm,
      PAY.refine(async () => {
        await flush()
        return true
      }),
    )
    const pending = tm.call('pay', given(), { caller: 'mcp' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    const [entry] = tm.confirmations.list()
    const edited = { to: 'bob', meta: { amount: { value: 20 } } }
    const approved = JSON.stringify(edited)
    void tm.confirmations.approve(entry.id, { input: edited })
    // While the validator is still at work.
    await Promise.resolve()
    edited.meta.amount.value = 1_000_000
    expect(await pending).toEqual({ status: 'ok', data: null })
    expect(runs.map((r) => [r.json, r.frozen])).toEqual([[approved, true]])
  })

  it('keeps Blobs, dates and the shape of shared references; copies what can change', async () => {
    const tm = createToolmark()
    let seen: Record<string, unknown> | undefined
    tm.register({
      name: 'upload',
      description: 'Uploads',
      input: z.record(z.string(), z.any()),
      hints: { consequential: true },
      summary: () => 'Upload',
      run: (i) => {
        seen = i
        return ok(null)
      },
    })
    const file = new Blob(['hello'], { type: 'text/plain' })
    const shared = { n: 1 }
    const when = new Date(0)
    const input: Record<string, unknown> = { file, when, a: shared, b: shared }
    input.self = input
    const id = confirmIdOf(await tm.call('upload', input, { caller: 'inapp' }))
    when.setTime(1_000)
    shared.n = 2
    await tm.confirmations.approve(id)
    expect(seen!.file).toBe(file)
    expect((seen!.when as Date).getTime()).toBe(0)
    expect(seen!.a).toBe(seen!.b)
    expect(seen!.a).toEqual({ n: 1 })
    // zod's record is a new object; the cycle below it (the caller's own object) stays a cycle.
    const self = seen!.self as Record<string, unknown>
    expect(self).not.toBe(input)
    expect(self.self).toBe(self)
    expect(self.file).toBe(file)
    expect(Object.isFrozen(seen)).toBe(true)
  })

  it('answers invalid, and runs nothing, for an input that cannot be copied', async () => {
    const tm = createToolmark()
    const runs = registerPay(tm, z.any())
    const input = {
      get boom(): never {
        throw new Error('no')
      },
    }
    expect(await tm.call('pay', input, { caller: 'inapp' })).toEqual({
      status: 'invalid',
      issues: [{ path: '', message: 'The input could not be copied for its confirmation' }],
    })
    expect(tm.confirmations.list()).toEqual([])
    expect(runs).toEqual([])
  })
})
