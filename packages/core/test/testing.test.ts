import { z } from 'zod'
import { ok } from '../src/index'
import { createTestToolmark, type TestToolmark } from '../src/testing'

const registerClose = (tm: TestToolmark) => {
  const runs: unknown[] = []
  tm.register({
    name: 'tickets.close',
    description: 'Closes a ticket',
    input: z.object({ id: z.number() }),
    hints: { consequential: true },
    summary: (input) => `Close #${input.id}`,
    run: (input) => {
      runs.push(input)
      return ok({ closed: input.id })
    },
  })
  return runs
}

describe('createTestToolmark', () => {
  it('keeps the production confirmation modes: deferred for inapp and test, inline for webmcp and mcp', async () => {
    const tm = createTestToolmark({ answer: 'approve' })
    registerClose(tm)
    expect((await tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })).status).toBe(
      'needs_confirmation',
    )
    expect((await tm.call('tickets.close', { id: 2 }, { caller: 'test' })).status).toBe(
      'needs_confirmation',
    )
    expect(await tm.call('tickets.close', { id: 3 }, { caller: 'mcp' })).toEqual({
      status: 'ok',
      data: { closed: 3 },
    })
    expect(await tm.call('tickets.close', { id: 4 }, { caller: 'webmcp' })).toEqual({
      status: 'ok',
      data: { closed: 4 },
    })
  })

  it('approves deferred confirmations as a person would, the outcome landing in recorder.answers', async () => {
    const tm = createTestToolmark({ answer: 'approve' })
    const runs = registerClose(tm)
    const pending = (await tm.call('tickets.close', { id: 1 })) as { confirmId: string }
    await tm.settled()
    expect(runs).toEqual([{ id: 1 }])
    expect(tm.recorder.answers.get(pending.confirmId)).toEqual({
      status: 'ok',
      data: { closed: 1 },
    })
    expect(tm.confirmations.list()).toEqual([])
  })

  it('rejects with the scripted answer reject: inline calls end cancelled operator', async () => {
    const tm = createTestToolmark({ answer: 'reject' })
    const runs = registerClose(tm)
    expect(await tm.call('tickets.close', { id: 1 }, { caller: 'mcp' })).toEqual({
      status: 'cancelled',
      by: 'operator',
    })
    expect(runs).toEqual([])
  })

  it('asks a function for each entry, which may edit the input', async () => {
    const seen: string[] = []
    const tm = createTestToolmark({
      answer: (entry) => {
        seen.push(entry.summary)
        return (entry.input as { id: number }).id === 1
          ? { approve: true, input: { id: 10 } }
          : 'reject'
      },
    })
    const runs = registerClose(tm)
    expect(await tm.call('tickets.close', { id: 1 }, { caller: 'mcp' })).toEqual({
      status: 'ok',
      data: { closed: 10 },
    })
    expect(await tm.call('tickets.close', { id: 2 }, { caller: 'mcp' })).toMatchObject({
      status: 'cancelled',
    })
    expect(seen).toEqual(['Close #1', 'Close #2'])
    expect(runs).toEqual([{ id: 10 }])
  })

  it('accepts an async function answer', async () => {
    const tm = createTestToolmark({ answer: async () => 'approve' as const })
    registerClose(tm)
    expect((await tm.call('tickets.close', { id: 1 }, { caller: 'mcp' })).status).toBe('ok')
  })

  it('leaves entries pending with ignore', async () => {
    const tm = createTestToolmark({ answer: 'ignore' })
    registerClose(tm)
    await tm.call('tickets.close', { id: 1 })
    await tm.settled()
    expect(tm.confirmations.list()).toHaveLength(1)
  })

  it('acts as the presenter only while an answer is set', async () => {
    const tm = createTestToolmark()
    registerClose(tm)
    expect(tm.confirmations.hasPresenter()).toBe(false)
    expect(await tm.call('tickets.close', { id: 1 }, { caller: 'mcp' })).toMatchObject({
      code: 'not_allowed',
    })
    tm.setAnswer('approve')
    expect(tm.confirmations.hasPresenter()).toBe(true)
    expect((await tm.call('tickets.close', { id: 2 }, { caller: 'mcp' })).status).toBe('ok')
    tm.setAnswer(undefined)
    expect(tm.confirmations.hasPresenter()).toBe(false)
  })

  it('answers entries already pending when an answer is set later', async () => {
    const tm = createTestToolmark()
    const runs = registerClose(tm)
    await tm.call('tickets.close', { id: 1 })
    tm.setAnswer('approve')
    await tm.settled()
    expect(runs).toEqual([{ id: 1 }])
  })

  it('records calls, results, confirmations and errors in order', async () => {
    const tm = createTestToolmark({ answer: 'approve' })
    registerClose(tm)
    tm.register({
      name: 'boom',
      description: 'Throws',
      run: () => {
        throw new Error('x')
      },
    })
    await tm.call('tickets.close', { id: 1 }, { caller: 'mcp' })
    await tm.call('boom')
    const { recorder } = tm
    expect(recorder.calls.map((c) => c.tool)).toEqual(['tickets.close', 'boom'])
    expect(recorder.results.map((r) => r.result.status)).toEqual(['ok', 'error'])
    expect(recorder.confirmations.map((c) => c.status)).toEqual(['pending', 'approved'])
    expect(recorder.errors.map((e) => e.code)).toEqual(['tool_threw'])
    expect(recorder.lastResult('tickets.close')).toEqual({ status: 'ok', data: { closed: 1 } })
    expect(recorder.lastResult('nothing')).toBeUndefined()
    recorder.clear()
    expect(recorder.calls).toEqual([])
    expect(recorder.results).toEqual([])
    expect(recorder.errors).toEqual([])
  })

  it('reports a scripted answer that throws or answers nonsense, leaving the entry pending', async () => {
    const tm = createTestToolmark({
      answer: (entry) => {
        if ((entry.input as { id: number }).id === 1) throw new Error('script bug')
        return 'maybe' as never
      },
    })
    registerClose(tm)
    await tm.call('tickets.close', { id: 1 })
    await tm.call('tickets.close', { id: 2 })
    await tm.settled()
    expect(tm.recorder.errors.map((e) => e.code)).toEqual([
      'scripted_answer_failed',
      'scripted_answer_failed',
    ])
    expect(tm.confirmations.list()).toHaveLength(2)
  })

  it('throws at once on an answer that is not a decision', () => {
    expect(() => createTestToolmark({ answer: 'yes' as never })).toThrow(/answer must be/)
  })

  it('passes other options through to the registry', async () => {
    const tm = createTestToolmark({ policy: { test: { allow: ['readOnly'] } }, dev: false })
    registerClose(tm)
    expect(tm.dev).toBe(false)
    expect(await tm.call('tickets.close', { id: 1 }, { caller: 'test' })).toMatchObject({
      code: 'not_allowed',
    })
  })
})
