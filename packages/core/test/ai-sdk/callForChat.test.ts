import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import type { ToolmarkOptions } from '@toolmark/core'
import { callForChat, chatToolList } from '@toolmark/core/ai-sdk'

afterEach(() => {
  vi.useRealTimers()
})

function page(options: ToolmarkOptions = {}) {
  const tm = createToolmark({ dev: true, ...options })
  const runs: unknown[] = []
  tm.register({
    name: 'ticket.fill',
    description: 'Fills the ticket form.',
    hints: { untrustedContent: true },
    input: z.object({ title: z.string().max(80) }),
    run: (input) => (
      runs.push(['fill', input]),
      ok({ changes: [{ path: 'title', after: input.title }] })
    ),
  })
  tm.register({
    name: 'ticket.submit',
    description: 'Submits the ticket form.',
    title: 'Create ticket',
    hints: { consequential: true },
    summary: () => 'Create the ticket',
    run: () => (runs.push(['submit']), ok({ id: 7 })),
  })
  return { tm, runs }
}

describe('chatToolList', () => {
  it('carries full entries with schemas, without titles, signatures or $schema', () => {
    const { tm } = page()
    tm.confirmations.attachPresenter()
    const list = chatToolList(tm)
    expect(list.tools.map((t) => t.name)).toEqual(['ticket.fill', 'ticket.submit'])
    const [fill, submit] = list.tools
    expect(Object.keys(fill).sort()).toEqual([
      'description',
      'hints',
      'inputSchema',
      'llmName',
      'name',
    ])
    expect(fill).toMatchObject({ llmName: 'ticket__fill', hints: { untrustedContent: true } })
    expect(fill.inputSchema).toMatchObject({
      type: 'object',
      properties: { title: { type: 'string', maxLength: 80 } },
    })
    expect(fill.inputSchema).not.toHaveProperty('$schema')
    expect(submit).not.toHaveProperty('title')
    expect(JSON.stringify(list)).not.toContain('signature')
  })

  it('leaves out tools that need a person while no dialog is mounted', async () => {
    const { tm } = page()
    expect(chatToolList(tm).tools.map((t) => t.name)).toEqual(['ticket.fill'])
    const detach = tm.confirmations.attachPresenter()
    expect(chatToolList(tm).tools.map((t) => t.name)).toEqual(['ticket.fill', 'ticket.submit'])
    detach()
    await Promise.resolve()
    expect(chatToolList(tm).tools.map((t) => t.name)).toEqual(['ticket.fill'])
  })

  it('gives the same frozen list until the registry changes', async () => {
    const { tm } = page()
    const first = chatToolList(tm)
    expect(chatToolList(tm)).toBe(first)
    expect(Object.isFrozen(first.tools)).toBe(true)
    tm.register({ name: 'ping', description: 'Pings.', run: () => ok('pong') })
    await Promise.resolve()
    const next = chatToolList(tm)
    expect(next).not.toBe(first)
    expect(next.tools.map((t) => t.name)).toContain('ping')
  })
})

describe('callForChat', () => {
  it('returns a read result marked untrusted, the marker first', async () => {
    const { tm } = page()
    const result = await callForChat(tm, 'ticket.fill', { title: 'Printer jams' })
    expect(result).toEqual({
      untrustedContent: true,
      status: 'ok',
      data: { changes: [{ path: 'title', after: 'Printer jams' }] },
    })
    expect(Object.keys(result)[0]).toBe('untrustedContent')
    expect(Object.isFrozen(result)).toBe(true)
  })

  it('waits for the person and returns the approved run, though the registry defers', async () => {
    const { tm, runs } = page()
    tm.confirmations.attachPresenter()
    const requested = vi.fn()
    tm.events.on('confirm', (event) => {
      if (event.status !== 'pending') return
      requested(event.entry)
      setTimeout(() => void tm.confirmations.approve(event.entry.id), 10)
    })
    const result = await callForChat(tm, 'ticket.submit', {})
    expect(result).toEqual({ status: 'ok', data: { id: 7 } })
    expect(requested).toHaveBeenCalledWith(
      expect.objectContaining({
        tool: 'ticket.submit',
        caller: 'inapp',
        summary: 'Create the ticket',
      }),
    )
    expect(runs).toEqual([['submit']])
    expect(tm.confirmations.list()).toEqual([])
  })

  it('returns the outcome when the person answered before the first result arrived', async () => {
    const { tm } = page()
    tm.confirmations.attachPresenter()
    // Approved in the same tick the entry appears.
    tm.events.on('confirm', (event) => {
      if (event.status === 'pending') void tm.confirmations.approve(event.entry.id)
    })
    expect(await callForChat(tm, 'ticket.submit', {})).toEqual({ status: 'ok', data: { id: 7 } })
  })

  it('returns cancelled operator when the person denies', async () => {
    const { tm, runs } = page()
    tm.confirmations.attachPresenter()
    tm.events.on('confirm', (event) => {
      if (event.status === 'pending')
        setTimeout(() => void tm.confirmations.reject(event.entry.id), 5)
    })
    expect(await callForChat(tm, 'ticket.submit', {})).toEqual({
      status: 'cancelled',
      by: 'operator',
    })
    expect(runs).toEqual([])
  })

  it('returns confirmation_expired when nobody answers, instead of waiting forever', async () => {
    vi.useFakeTimers()
    const { tm, runs } = page({ limits: { confirmationExpiryMs: 60_000 } })
    tm.confirmations.attachPresenter()
    const pending = callForChat(tm, 'ticket.submit', {})
    await vi.advanceTimersByTimeAsync(59_000)
    expect(tm.confirmations.list()).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(2_000)
    expect(await pending).toMatchObject({ status: 'refused', code: 'confirmation_expired' })
    expect(runs).toEqual([])
  })

  it('ends cancelled signal and withdraws the confirmation when the chat stops', async () => {
    const { tm, runs } = page()
    tm.confirmations.attachPresenter()
    const controller = new AbortController()
    const pending = callForChat(tm, 'ticket.submit', {}, { signal: controller.signal })
    await vi.waitFor(() => expect(tm.confirmations.list()).toHaveLength(1))
    controller.abort()
    expect(await pending).toEqual({ status: 'cancelled', by: 'signal' })
    await vi.waitFor(() => expect(tm.confirmations.list()).toEqual([]))
    // A late approval finds nothing to run.
    expect(runs).toEqual([])
  })

  it('ends cancelled signal at once for a signal aborted before the call', async () => {
    const { tm, runs } = page()
    const result = await callForChat(
      tm,
      'ticket.fill',
      { title: 'x' },
      { signal: AbortSignal.abort() },
    )
    expect(result).toMatchObject({ status: 'cancelled', by: 'signal' })
    expect(runs).toEqual([])
  })

  it('cancels a running tool when the chat stops', async () => {
    const tm = createToolmark({ dev: true })
    tm.register({
      name: 'slow',
      description: 'Takes its time.',
      run: (_input, ctx) =>
        new Promise((resolve) =>
          ctx.signal.addEventListener('abort', () => resolve(ok('stopped late'))),
        ),
    })
    const controller = new AbortController()
    const pending = callForChat(tm, 'slow', {}, { signal: controller.signal })
    setTimeout(() => controller.abort(), 5)
    // The run reported what it did after the abort: that is what the model is told.
    expect(await pending).toEqual({ status: 'ok', data: 'stopped late' })
  })

  it('works the same when the registry already confirms inapp inline', async () => {
    const { tm } = page({ confirm: { inapp: 'inline' } })
    tm.confirmations.attachPresenter()
    tm.events.on('confirm', (event) => {
      if (event.status === 'pending')
        setTimeout(() => void tm.confirmations.approve(event.entry.id), 5)
    })
    expect(await callForChat(tm, 'ticket.submit', {})).toEqual({ status: 'ok', data: { id: 7 } })
    const controller = new AbortController()
    tm.events.on('confirm', (event) => {
      if (event.status === 'pending') controller.abort()
    })
    // Aborted while the person decides: the inline call itself ends cancelled signal.
    const second = callForChat(tm, 'ticket.submit', {}, { signal: controller.signal })
    expect(await second).toEqual({ status: 'cancelled', by: 'signal' })
  })

  it('refuses not_allowed a tool that needs a person while no dialog is mounted', async () => {
    const { tm, runs } = page()
    const calls = vi.fn()
    tm.events.on('call', calls)
    expect(await callForChat(tm, 'ticket.submit', {})).toMatchObject({
      status: 'refused',
      code: 'not_allowed',
    })
    expect(calls).not.toHaveBeenCalled()
    expect(runs).toEqual([])
  })

  it('answers refused unknown_tool for a tool that went away', async () => {
    const { tm } = page()
    expect(await callForChat(tm, 'ticket.delete', {})).toMatchObject({
      status: 'refused',
      code: 'unknown_tool',
    })
  })

  it('returns invalid for arguments the tool refuses', async () => {
    const { tm, runs } = page()
    const result = await callForChat(tm, 'ticket.fill', { title: 'x'.repeat(81) })
    expect(result).toMatchObject({ untrustedContent: true, status: 'invalid' })
    expect(runs).toEqual([])
  })

  it('gives each of two overlapping calls its own final result, in the scope order', async () => {
    const { tm, runs } = page()
    tm.confirmations.attachPresenter()
    const shown: unknown[] = []
    tm.events.on('confirm', (event) => {
      if (event.status !== 'pending') return
      shown.push(event.entry.tool)
      setTimeout(() => void tm.confirmations.approve(event.entry.id), 5)
    })
    const [fill, submit, again] = await Promise.all([
      callForChat(tm, 'ticket.fill', { title: 'Printer jams' }),
      callForChat(tm, 'ticket.submit', {}),
      callForChat(tm, 'ticket.submit', {}),
    ])
    expect(fill).toMatchObject({ status: 'ok' })
    expect(submit).toEqual({ status: 'ok', data: { id: 7 } })
    expect(again).toEqual({ status: 'ok', data: { id: 7 } })
    expect(runs).toEqual([['fill', { title: 'Printer jams' }], ['submit'], ['submit']])
    expect(shown).toEqual(['ticket.submit', 'ticket.submit'])
  })

  it('sends results with JSON semantics; what JSON cannot carry becomes an error', async () => {
    const tm = createToolmark({ dev: true })
    tm.register({ name: 'when', description: 'A date.', run: () => ok({ at: new Date(0) }) })
    tm.register({ name: 'big', description: 'A bigint.', run: () => ok({ n: 1n }) })
    tm.register({ name: 'nan', description: 'Not a number.', run: () => ok({ n: Number.NaN }) })
    expect(await callForChat(tm, 'when', {})).toEqual({
      status: 'ok',
      data: { at: '1970-01-01T00:00:00.000Z' },
    })
    expect(await callForChat(tm, 'big', {})).toEqual({
      status: 'error',
      message: 'Result not serializable',
    })
    expect(await callForChat(tm, 'nan', {})).toEqual({
      status: 'error',
      message: 'Result not serializable',
    })
  })
})
