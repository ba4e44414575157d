import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { HEARTBEAT_MESSAGE, startProgress, type ProgressParams } from '../src/progressReporter'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

function reporter(intervalMs = 1_000) {
  const sent: ProgressParams[] = []
  const progress = startProgress({
    intervalMs,
    send: async (params) => {
      sent.push(params)
    },
  })
  return { sent, progress }
}

describe('startProgress', () => {
  it('sends a heartbeat after each interval of silence while the call is outstanding', () => {
    const { sent, progress } = reporter()
    vi.advanceTimersByTime(999)
    expect(sent).toEqual([])
    vi.advanceTimersByTime(1)
    vi.advanceTimersByTime(2_000)
    expect(sent).toEqual([
      { progress: 0, message: HEARTBEAT_MESSAGE },
      { progress: 0.5, message: HEARTBEAT_MESSAGE },
      { progress: 0.75, message: HEARTBEAT_MESSAGE },
    ])
    void progress.stop()
    vi.advanceTimersByTime(10_000)
    expect(sent).toHaveLength(3)
  })

  it("forwards the tool's own progress and only fills the silences", () => {
    const { sent, progress } = reporter()
    vi.advanceTimersByTime(600)
    progress.report({ done: 1, total: 4, message: 'first' })
    vi.advanceTimersByTime(600)
    progress.report({ done: 2, total: 4 })
    expect(sent).toEqual([
      { progress: 1, total: 4, message: 'first' },
      { progress: 2, total: 4 },
    ])
    vi.advanceTimersByTime(1_000)
    expect(sent.at(-1)).toEqual({ progress: 2.5, message: HEARTBEAT_MESSAGE })
    progress.report({ done: 3, total: 4 })
    expect(sent.at(-1)).toEqual({ progress: 3, total: 4 })
  })

  it('keeps every value larger than the last, whatever the tool reports', () => {
    const { sent, progress } = reporter(100)
    vi.advanceTimersByTime(300)
    progress.report({ done: 0, total: 10 })
    progress.report({ done: 0, total: 10 })
    vi.advanceTimersByTime(100)
    progress.report({ done: 0.8, total: 10 })
    for (let i = 0; i < 80; i++) vi.advanceTimersByTime(100)
    progress.report({ done: 1, total: 10 })
    const values = sent.map((p) => p.progress)
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1])
    expect(sent[3]).toMatchObject({ total: 10 })
  })

  it('sends nothing with an interval of 0 unless the tool reports', () => {
    const { sent, progress } = reporter(0)
    vi.advanceTimersByTime(60_000)
    expect(sent).toEqual([])
    progress.report({ done: 1 })
    vi.advanceTimersByTime(60_000)
    expect(sent).toEqual([{ progress: 1 }])
  })

  it('resolves stop once what was sent has gone out', async () => {
    const sends: (() => void)[] = []
    const progress = startProgress({
      intervalMs: 1_000,
      send: () => new Promise<void>((resolve) => sends.push(resolve)),
    })
    progress.report({ done: 1 })
    let stopped = false
    const stopping = progress.stop().then(() => (stopped = true))
    await vi.advanceTimersByTimeAsync(50)
    expect(stopped).toBe(false)
    sends[0]()
    await vi.advanceTimersByTimeAsync(50)
    await stopping
    expect(stopped).toBe(true)
  })
})
