import { z } from 'zod'
import {
  createToolmark,
  ok,
  type ResultEvent,
  type ToolContext,
  type Toolmark,
  type ToolResult,
} from '../src/index'

/** Every result of a call is deep-frozen, on every path out of it (DESIGN §3.2). */

const isDeepFrozen = (value: unknown, seen = new Set<unknown>()): boolean => {
  if (value === null || typeof value !== 'object' || seen.has(value)) return true
  seen.add(value)
  return (
    Object.isFrozen(value) &&
    Reflect.ownKeys(value).every((key) =>
      isDeepFrozen((value as Record<PropertyKey, unknown>)[key], seen),
    )
  )
}

const expectFrozen = (result: ToolResult, expected: ToolResult) => {
  expect(result).toEqual(expected)
  expect(isDeepFrozen(result), `${JSON.stringify(result)} is deep-frozen`).toBe(true)
}

const hang = () => new Promise<never>(() => {})
/** A run that stops as soon as its signal fires, by rejecting with the signal's reason. */
const heedsSignal = (_input: unknown, ctx: ToolContext) =>
  new Promise<never>((_, reject) =>
    ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error), { once: true }),
  )

/** A registry with tiny deadlines and grace, and the `result` events it emits. */
const setup = (limits: { abortGraceMs?: number; callTimeoutMs?: number } = {}) => {
  const tm = createToolmark({ dev: false, limits: { abortGraceMs: 10, ...limits } })
  const events: ResultEvent[] = []
  tm.events.on('result', (e) => events.push(e))
  return { tm, events }
}

/** The one `result` event of the tool's call(s), deep-frozen too. */
const expectEventsFrozen = (events: ResultEvent[]) => {
  expect(events.length).toBeGreaterThan(0)
  for (const e of events) expect(isDeepFrozen(e.result), JSON.stringify(e.result)).toBe(true)
}

const register = (tm: Toolmark, name: string, run: (i: unknown, c: ToolContext) => unknown) =>
  tm.register({ name, description: name, timeoutMs: 20, run: run as never })

describe('every result is deep-frozen, on every path', () => {
  it('a hanging run past its deadline ends cancelled policy, frozen', async () => {
    const { tm, events } = setup()
    register(tm, 'slow.hang', hang)
    expectFrozen(await tm.call('slow.hang', {}), { status: 'cancelled', by: 'policy' })
    expectEventsFrozen(events)
  })

  it('a run that stops by throwing at its deadline ends cancelled policy, frozen', async () => {
    const { tm, events } = setup()
    register(tm, 'slow.heeds', heedsSignal)
    expectFrozen(await tm.call('slow.heeds', {}), { status: 'cancelled', by: 'policy' })
    expectEventsFrozen(events)
  })

  it('a run that ignores Stop is abandoned after the grace period, cancelled operator, frozen', async () => {
    const { tm, events } = setup()
    tm.register({ name: 'slow.ignores', description: 'Hangs', run: hang })
    const pending = tm.call('slow.ignores', {}, { caller: 'mcp' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    tm.cancelAll()
    expectFrozen(await pending, { status: 'cancelled', by: 'operator' })
    expectEventsFrozen(events)
  })

  it("a run that heeds Stop, or its caller's signal, ends cancelled, frozen", async () => {
    const { tm, events } = setup()
    tm.register({ name: 'slow.heeds', description: 'Heeds', run: heedsSignal })
    const stopped = tm.call('slow.heeds', {}, { caller: 'mcp' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    tm.cancelAll()
    expectFrozen(await stopped, { status: 'cancelled', by: 'operator' })

    const controller = new AbortController()
    const aborted = tm.call('slow.heeds', {}, { caller: 'mcp', signal: controller.signal })
    await new Promise((resolve) => setTimeout(resolve, 0))
    controller.abort()
    expectFrozen(await aborted, { status: 'cancelled', by: 'signal' })
    expectEventsFrozen(events)
  })

  it('a call withdrawn while queued, and one stopped while queued, end cancelled, frozen', async () => {
    const { tm, events } = setup({ callTimeoutMs: 60_000 })
    const scope = tm.scope('line', { when: true })
    tm.register({ name: 'busy', description: 'Holds the slot', run: heedsSignal }, { scope })
    tm.register({ name: 'next', description: 'Waits', run: () => ok(1) }, { scope })
    const holder = tm.call('line.busy', {}, { caller: 'mcp' })
    const withdrawn = tm.call('line.next', {}, { caller: 'mcp' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    scope.setWhen(false)
    expectFrozen(await withdrawn, { status: 'cancelled', by: 'policy' })

    scope.setWhen(true)
    const stopped = tm.call('line.next', {}, { caller: 'mcp' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    tm.cancelAll()
    expectFrozen(await stopped, { status: 'cancelled', by: 'operator' })
    expectFrozen(await holder, { status: 'cancelled', by: 'operator' })
    expectEventsFrozen(events)
  })

  it('an approved run past its deadline gives its approver a frozen cancelled policy', async () => {
    const { tm } = setup()
    tm.register({
      name: 'slow.close',
      description: 'Closes slowly',
      input: z.object({ id: z.number() }),
      hints: { consequential: true },
      timeoutMs: 20,
      run: hang,
    })
    const asked = await tm.call('slow.close', { id: 1 }, { caller: 'inapp' })
    expect(asked.status).toBe('needs_confirmation')
    const { confirmId } = asked as { confirmId: string }
    expectFrozen(await tm.confirmations.approve(confirmId), { status: 'cancelled', by: 'policy' })
  })
})
