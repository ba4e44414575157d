import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createToolmark, errorResult, ok } from '@toolmark/core'
import { callForChat } from '@toolmark/core/ai-sdk'

/** A page with a payment that runs until `finish` is called, and counts its runs. */
function payments() {
  const tm = createToolmark({ dev: true })
  tm.confirmations.attachPresenter()
  const runs: unknown[] = []
  const finishers: ((result: ReturnType<typeof ok> | ReturnType<typeof errorResult>) => void)[] = []
  tm.register({
    name: 'pay',
    description: 'Pays an invoice.',
    hints: { consequential: true },
    input: z.object({ amount: z.number().positive() }),
    summary: (input) => `Pay ${input.amount}`,
    run: (input) =>
      new Promise((resolve) => {
        runs.push(input)
        finishers.push(resolve)
      }),
  })
  const requested = () => {
    const [entry] = tm.confirmations.list()
    return entry?.id
  }
  return { tm, runs, finishers, requested }
}

describe('callForChat when the chat stops after an approval', () => {
  it('waits for the approved run and returns what it did, not cancelled', async () => {
    const { tm, runs, finishers, requested } = payments()
    const controller = new AbortController()
    const pending = callForChat(tm, 'pay', { amount: 5 }, { signal: controller.signal })
    await vi.waitFor(() => expect(requested()).toBeDefined())
    const approval = tm.confirmations.approve(requested()!)
    await vi.waitFor(() => expect(runs).toHaveLength(1))
    controller.abort()
    let told: unknown
    void pending.then((result) => (told = result))
    await new Promise((resolve) => setTimeout(resolve, 20))
    // Still running: nothing has been told yet.
    expect(told).toBeUndefined()
    finishers[0](ok({ paid: 5 }))
    expect(await pending).toEqual({ status: 'ok', data: { paid: 5 } })
    expect(await approval).toEqual({ status: 'ok', data: { paid: 5 } })
    expect(runs).toHaveLength(1)
  })

  it('reports how an approved run failed', async () => {
    const { tm, runs, finishers, requested } = payments()
    const controller = new AbortController()
    const pending = callForChat(tm, 'pay', { amount: 5 }, { signal: controller.signal })
    await vi.waitFor(() => expect(requested()).toBeDefined())
    void tm.confirmations.approve(requested()!)
    await vi.waitFor(() => expect(runs).toHaveLength(1))
    controller.abort()
    finishers[0](errorResult('Card declined'))
    expect(await pending).toEqual({ status: 'error', message: 'Card declined' })
  })

  it('is cancelled only when nothing ran, and a late approval then runs nothing', async () => {
    const { tm, runs, requested } = payments()
    const controller = new AbortController()
    const pending = callForChat(tm, 'pay', { amount: 5 }, { signal: controller.signal })
    await vi.waitFor(() => expect(requested()).toBeDefined())
    const id = requested()!
    controller.abort()
    expect(await pending).toEqual({ status: 'cancelled', by: 'signal' })
    expect(await tm.confirmations.approve(id)).toMatchObject({ code: 'confirmation_expired' })
    expect(runs).toEqual([])
  })

  it('withdraws the entry when an approval with a bad edited input leaves it pending', async () => {
    const { tm, runs, requested } = payments()
    const controller = new AbortController()
    const pending = callForChat(tm, 'pay', { amount: 5 }, { signal: controller.signal })
    await vi.waitFor(() => expect(requested()).toBeDefined())
    const id = requested()!
    // The person approves with an edit that fails validation while the chat stops.
    const approval = tm.confirmations.approve(id, { input: { amount: -1 } })
    controller.abort()
    expect(await approval).toMatchObject({ status: 'invalid' })
    expect(await pending).toEqual({ status: 'cancelled', by: 'signal' })
    expect(tm.confirmations.list()).toEqual([])
    expect(runs).toEqual([])
  })

  it('gives each of two overlapping stopped calls the truth: one ran, one did not', async () => {
    const { tm, runs, finishers } = payments()
    const controller = new AbortController()
    const first = callForChat(tm, 'pay', { amount: 1 }, { signal: controller.signal })
    const second = callForChat(tm, 'pay', { amount: 2 }, { signal: controller.signal })
    await vi.waitFor(() => expect(tm.confirmations.list()).toHaveLength(2))
    const [a] = tm.confirmations.list().filter((entry) => entry.summary === 'Pay 1')
    void tm.confirmations.approve(a.id)
    await vi.waitFor(() => expect(runs).toHaveLength(1))
    controller.abort()
    expect(await second).toEqual({ status: 'cancelled', by: 'signal' })
    finishers[0](ok({ paid: 1 }))
    expect(await first).toEqual({ status: 'ok', data: { paid: 1 } })
    expect(runs).toEqual([{ amount: 1 }])
    expect(tm.confirmations.list()).toEqual([])
  })

  it('answers once when a stop and a late double approval race', async () => {
    const { tm, runs, finishers, requested } = payments()
    const controller = new AbortController()
    const pending = callForChat(tm, 'pay', { amount: 3 }, { signal: controller.signal })
    await vi.waitFor(() => expect(requested()).toBeDefined())
    const id = requested()!
    const answers = [tm.confirmations.approve(id), tm.confirmations.approve(id)]
    controller.abort()
    await vi.waitFor(() => expect(runs).toHaveLength(1))
    finishers[0](ok({ paid: 3 }))
    expect(await pending).toEqual({ status: 'ok', data: { paid: 3 } })
    const settled = await Promise.all(answers)
    expect(settled.map((r) => r.status).sort()).toEqual(['ok', 'refused'])
    expect(runs).toHaveLength(1)
  })
})
