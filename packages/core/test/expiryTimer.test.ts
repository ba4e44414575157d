import { createExpiryTimer } from '../src/base/expiryTimer'

describe('createExpiryTimer: one timer for the earliest expiry', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('fires once at the earliest expiry with the clock’s time, and a new schedule replaces the old', () => {
    const expiries = new Set([Date.now() + 500, Date.now() + 200])
    const fired: number[] = []
    const timer = createExpiryTimer({
      clock: Date.now,
      earliest: () => Math.min(...expiries),
      due: (at) => {
        fired.push(at)
        for (const e of expiries) if (e <= at) expiries.delete(e)
        timer.schedule()
      },
    })
    timer.schedule()
    timer.schedule()
    expect(vi.getTimerCount()).toBe(1)
    vi.advanceTimersByTime(199)
    expect(fired).toEqual([])
    vi.advanceTimersByTime(1)
    expect(fired).toHaveLength(1)
    vi.advanceTimersByTime(300)
    expect(fired).toHaveLength(2)
    expect(expiries.size).toBe(0)
    // Nothing left to wait for: no timer.
    expect(vi.getTimerCount()).toBe(0)
  })

  it('sets no timer for nothing, fires at once for the past, and caps a far expiry', () => {
    let earliest = Infinity
    let fired = 0
    const timer = createExpiryTimer({
      clock: Date.now,
      earliest: () => earliest,
      due: () => fired++,
    })
    timer.schedule()
    expect(vi.getTimerCount()).toBe(0)
    earliest = Date.now() - 1_000
    timer.schedule()
    vi.advanceTimersByTime(0)
    expect(fired).toBe(1)
    earliest = Date.now() + 100 * 24 * 3_600_000
    timer.schedule()
    vi.advanceTimersByTime(2_147_483_647)
    // Fired at the cap, without overflowing to an immediate timer.
    expect(fired).toBe(2)
  })
})
