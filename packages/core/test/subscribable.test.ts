import { createToolmark, ok, reportError, type ErrorEvent, type Toolmark } from '../src/index'
import { createSubscribable } from '../src/events/subscribable'

describe('createSubscribable', () => {
  it('notifies every listener with the arguments, oldest first', () => {
    const order: string[] = []
    const list = createSubscribable<[number]>({ label: 'test', report: vi.fn() })
    list.subscribe((n) => order.push(`a${n}`))
    list.subscribe((n) => order.push(`b${n}`))
    list.notify(1)
    list.notify(2)
    expect(order).toEqual(['a1', 'b1', 'a2', 'b2'])
  })

  it('keeps one subscription per call: a function subscribed twice is removed once each', () => {
    const list = createSubscribable({ label: 'test', report: vi.fn() })
    const listener = vi.fn()
    const off1 = list.subscribe(listener)
    const off2 = list.subscribe(listener)
    list.notify()
    expect(listener).toHaveBeenCalledTimes(2)
    off1()
    off1()
    list.notify()
    expect(listener).toHaveBeenCalledTimes(3)
    off2()
    list.notify()
    expect(listener).toHaveBeenCalledTimes(3)
    expect(list.size).toBe(0)
  })

  it('reports a throwing listener as listener_threw and still runs the others', () => {
    const report = vi.fn<(event: ErrorEvent) => void>()
    const list = createSubscribable({ label: 'store', report })
    const boom = new Error('boom')
    const after = vi.fn()
    list.subscribe(() => {
      throw boom
    })
    list.subscribe(after)
    expect(() => list.notify()).not.toThrow()
    expect(after).toHaveBeenCalledTimes(1)
    expect(report).toHaveBeenCalledWith({
      code: 'listener_threw',
      message: 'A store listener threw',
      cause: boom,
    })
  })

  it('skips a listener removed by an earlier one during the same notification', () => {
    const list = createSubscribable({ label: 'test', report: vi.fn() })
    const second = vi.fn()
    let offSecond = () => {}
    list.subscribe(() => offSecond())
    offSecond = list.subscribe(second)
    list.notify()
    expect(second).not.toHaveBeenCalled()
  })

  it('does not call a listener added during a notification until the next one', () => {
    const list = createSubscribable({ label: 'test', report: vi.fn() })
    const late = vi.fn()
    let added = false
    list.subscribe(() => {
      if (!added) list.subscribe(late)
      added = true
    })
    list.notify()
    expect(late).not.toHaveBeenCalled()
    list.notify()
    expect(late).toHaveBeenCalledTimes(1)
  })

  it('starts on the first subscription and stops on the last, once each cycle', () => {
    const onFirst = vi.fn()
    const onLast = vi.fn()
    const list = createSubscribable({ label: 'test', report: vi.fn(), onFirst, onLast })
    expect(onFirst).not.toHaveBeenCalled()
    const off1 = list.subscribe(() => {})
    const off2 = list.subscribe(() => {})
    expect(onFirst).toHaveBeenCalledTimes(1)
    off1()
    expect(onLast).not.toHaveBeenCalled()
    off2()
    off2()
    expect(onLast).toHaveBeenCalledTimes(1)
    list.subscribe(() => {})
    expect(onFirst).toHaveBeenCalledTimes(2)
  })
})

describe('reportError', () => {
  it('emits an error event on the registry it is given, and on no other', () => {
    const a = createToolmark()
    const b = createToolmark()
    const onA = vi.fn()
    const onB = vi.fn()
    a.events.on('error', onA)
    b.events.on('error', onB)
    reportError(a, { code: 'query_failed', message: 'The query failed' })
    expect(onA).toHaveBeenCalledWith({ code: 'query_failed', message: 'The query failed' })
    expect(onB).not.toHaveBeenCalled()
  })

  it('keeps the route out of the registry’s public shape', () => {
    const tm = createToolmark()
    expect(Object.keys(tm)).not.toContain('report')
    expect(
      Object.getOwnPropertySymbols(tm).filter(
        (s) => Object.getOwnPropertyDescriptor(tm, s)?.enumerable,
      ),
    ).toEqual([])
    expect(Object.getOwnPropertySymbols({ ...tm })).toEqual([])
  })

  it('does nothing for an object that is not a registry', () => {
    const fake = { events: { on: () => () => {} } } as unknown as Toolmark
    expect(() => reportError(fake, { code: 'x', message: 'y' })).not.toThrow()
  })

  it('routes the registry’s own subscribe listener errors the same way', async () => {
    const tm = createToolmark()
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.subscribe(() => {
      throw new Error('bad')
    })
    tm.register({ name: 'a', description: 'A', run: () => ok(1) })
    await Promise.resolve()
    expect(errors).toEqual([
      expect.objectContaining({ code: 'listener_threw', message: 'A tm.subscribe listener threw' }),
    ])
  })
})
