import { z } from 'zod'
import {
  createToolmark,
  questions,
  grants,
  ok,
  refuse,
  type Toolmark,
  type ToolResult,
} from '../../src/index'
import { recordSession, replaySession, ReplayError } from '../../src/testing'

/** A small helpdesk: search, close (consequential), and a login whose password is sensitive. */
function helpdesk(
  options: { closeFails?: boolean; title?: string; grants?: boolean } = {},
): Toolmark {
  const tm = createToolmark({
    confirm: { questions: questions(), ...(options.grants ? { grants: grants() } : {}) },
  })
  const tickets = [
    { id: 1, title: options.title ?? 'Printer jammed', status: 'open' },
    { id: 2, title: 'VPN drops', status: 'open' },
  ]
  tm.register({
    name: 'tickets.search',
    description: 'Searches tickets',
    hints: { readOnly: true },
    input: z.object({ query: z.string() }),
    run: ({ query }) => ok(tickets.filter((t) => t.title.toLowerCase().includes(query))),
  })
  tm.register({
    name: 'tickets.close',
    description: 'Closes a ticket',
    hints: { consequential: true },
    input: z.object({ id: z.number() }),
    summary: ({ id }) => `Close ticket #${id}`,
    run: ({ id }) => {
      const ticket = tickets.find((t) => t.id === id)
      if (!ticket || options.closeFails) return refuse('not_found', `No ticket #${id}`)
      ticket.status = 'closed'
      return ok({ id, status: ticket.status })
    },
  })
  tm.register({
    name: 'account.login',
    description: 'Logs in',
    sensitive: ['password'],
    input: z.object({ user: z.string(), password: z.string() }),
    run: ({ user, password }) =>
      password === 'hunter2' ? ok({ user }) : refuse('wrong_password', 'Wrong password'),
  })
  return tm
}

/** The session: an in-app search and a deferred close the person approves, a browser agent's close the person denies. */
async function playSession(tm: Toolmark) {
  const detach = tm.confirmations.attachPresenter()
  await tm.call('tickets.search', { query: 'printer' }, { caller: 'inapp' })
  const asked = await tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
  if (asked.status !== 'needs_confirmation') throw new Error('expected a confirmation')
  await tm.confirmations.approve(asked.confirmId)
  const inline = tm.call('tickets.close', { id: 2 }, { caller: 'webmcp' })
  await new Promise((r) => setTimeout(r, 0))
  await tm.confirmations.reject(tm.confirmations.list()[0].id)
  await inline
  await tm.call('account.login', { user: 'ada', password: 'hunter2' }, { caller: 'test' })
  detach()
}

describe('recordSession', () => {
  it('writes every call, result, confirmation and answer as JSON lines, ids renumbered and inputs redacted', async () => {
    const tm = helpdesk()
    const recording = recordSession(tm)
    await playSession(tm)
    recording.stop()
    const lines = recording.lines.map((l) => JSON.parse(l))
    expect(
      lines.map((l) => [
        l.type,
        l.confirmId ?? l.callId ?? '',
        l.result?.status ?? l.decision ?? '',
      ]),
    ).toEqual([
      ['session', '', ''],
      ['call', 'c1', ''],
      ['result', 'c1', 'ok'],
      ['call', 'c2', ''],
      ['confirm', 'cf1', ''],
      ['result', 'c2', 'needs_confirmation'],
      ['result', 'c2', 'ok'],
      ['answer', 'cf1', 'approve'],
      ['call', 'c3', ''],
      ['confirm', 'cf2', ''],
      ['result', 'c3', 'cancelled'],
      ['answer', 'cf2', 'reject'],
      ['call', 'c4', ''],
      ['result', 'c4', 'ok'],
    ])
    expect(lines[0].tools).toEqual(['account.login', 'tickets.close', 'tickets.search'])
    expect(lines[5].result.confirmId).toBe('cf1')
    expect(lines[6].caller).toBe('human')
    expect(lines[12].input).toEqual({ user: 'ada', password: '[redacted]' })
    expect(lines[12].withheld).toEqual(['password'])
    expect(lines[0].version).toBe(2)
    expect(lines.filter((l) => 'withheld' in l)).toHaveLength(1)
    expect(recording.text()).not.toContain('hunter2')
    expect(recording.text().endsWith('}\n')).toBe(true)
    const before = recording.lines.length
    await tm.call('tickets.search', { query: 'x' })
    expect(recording.lines.length).toBe(before) // stopped
  })
})

describe('replaySession', () => {
  it('replays the calls and the answers against a fresh page and matches every result', async () => {
    const recorded = helpdesk()
    const recording = recordSession(recorded)
    await playSession(recorded)

    const page = helpdesk()
    const results: string[] = []
    page.events.on('result', (e) => results.push(`${e.tool}:${e.caller}:${e.result.status}`))
    page.events.on('confirm', (e) => {
      if (e.status === 'approved') results.push(`${e.entry.tool}:human:${e.result?.status}`)
    })
    const report = await replaySession(page, recording.text(), {
      secrets: { password: 'hunter2' },
    })

    expect(report).toEqual({ calls: 4, results: 5, answers: 2 })
    expect(results).toEqual([
      'tickets.search:inapp:ok',
      'tickets.close:inapp:needs_confirmation',
      'tickets.close:human:ok',
      'tickets.close:webmcp:cancelled',
      'account.login:test:ok',
    ])
    expect(page.confirmations.list()).toEqual([])
  })

  it('fails with a readable diff when a status, a code or data drift', async () => {
    const recorded = helpdesk()
    const recording = recordSession(recorded)
    await playSession(recorded)

    const failure = await replaySession(
      helpdesk({ closeFails: true, title: 'Printer jam' }),
      recording.lines,
      { secrets: { password: 'hunter2' } },
    ).catch((e: unknown) => e)

    expect(failure).toBeInstanceOf(ReplayError)
    const { message, diffs } = failure as ReplayError
    expect(diffs.map((d) => [d.line, d.callId, d.path, d.expected, d.actual])).toEqual([
      [3, 'c1', 'data.0.title', 'Printer jammed', 'Printer jam'],
      [7, 'c2', 'status', 'ok', 'refused'],
      [7, 'c2', 'data', { id: 1, status: 'closed' }, undefined],
      [7, 'c2', 'code', undefined, 'not_found'],
    ])
    expect(message).toContain('The replay drifted from the recording (4 differences)')
    expect(message).toContain('  line 7 tickets.close (c2) status: expected "ok", got "refused"')
    expect(message).toContain('  line 7 tickets.close (c2) code: expected (none), got "not_found"')
  })

  it('skips ignored paths', async () => {
    const recorded = helpdesk()
    const recording = recordSession(recorded)
    await recorded.call('tickets.search', { query: 'printer' })
    const report = await replaySession(helpdesk({ title: 'Printer jam' }), recording.lines, {
      ignore: ['data.*.title'],
    })
    expect(report.results).toBe(1)
  })

  it('replays overlapping calls overlapping, and waits for a result a later call followed', async () => {
    const build = () => {
      const tm = createToolmark({ confirm: { questions: questions() } })
      let open!: () => void
      const gate = new Promise<void>((r) => (open = r))
      // `wait` finishes only once `open` has been called: a replay that ran them one after the
      // other would never see `wait` end.
      // Two scopes, so the calls do not take turns.
      tm.register(
        { name: 'wait', description: 'Waits', run: async () => (await gate, ok('waited')) },
        { scope: tm.scope('a') },
      )
      tm.register(
        { name: 'open', description: 'Opens', run: () => (open(), ok('opened')) },
        { scope: tm.scope('b') },
      )
      return tm
    }
    const recorded = build()
    const recording = recordSession(recorded)
    await Promise.all([recorded.call('a.wait'), recorded.call('b.open')])
    expect(recording.lines.map((l) => JSON.parse(l).type)).toEqual([
      'session',
      'call',
      'call',
      'result',
      'result',
    ])
    expect(await replaySession(build(), recording.lines, { timeoutMs: 1000 })).toEqual({
      calls: 2,
      results: 2,
      answers: 0,
    })
  })

  it('lists only the late line after a wait runs out: calls it held up, and later ones, still match', async () => {
    /** A run that ends only when its deadline aborts it: `cancelled` by `policy`. */
    const obedient = (_input: unknown, ctx: { signal: AbortSignal }) =>
      new Promise<ToolResult>((_, reject) =>
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
      )
    const build = () => {
      const tm = createToolmark()
      tm.register({ name: 'export', description: 'Exports', timeoutMs: 150, run: obedient })
      tm.register({
        name: 'ping',
        description: 'Pings',
        run: async () => (await new Promise((r) => setTimeout(r, 5)), ok('pong')),
      })
      tm.register({ name: 'status', description: 'Reads the status', run: () => ok('up') })
      return tm
    }
    const recorded = build()
    const recording = recordSession(recorded)
    expect(await recorded.call('export')).toEqual({ status: 'cancelled', by: 'policy' })
    await recorded.call('ping')
    await recorded.call('status')

    // The replay gives up on the export before its deadline ends it; the ping waits its turn
    // behind it in the scope, and the status read comes after.
    const failure = await replaySession(build(), recording.lines, { timeoutMs: 100 }).catch(
      (e: unknown) => e,
    )
    expect(failure).toBeInstanceOf(ReplayError)
    expect((failure as ReplayError).diffs).toEqual([
      {
        line: 3,
        tool: 'export',
        callId: 'c1',
        path: 'result',
        expected: 'cancelled',
        actual: 'no result within 100 ms',
      },
    ])
  })

  it('still ends one timeout after the run-out when the page stops answering', async () => {
    const recorded = createToolmark()
    const names = ['a', 'b', 'c', 'd', 'e', 'f']
    for (const name of names) recorded.register({ name, description: name, run: () => ok(1) })
    const recording = recordSession(recorded)
    for (const name of names) await recorded.call(name)

    const page = createToolmark()
    const hang = () => new Promise<ToolResult>((r) => setTimeout(() => r(ok(1)), 1_000))
    for (const name of names) page.register({ name, description: name, run: hang })
    const started = Date.now()
    const failure = await replaySession(page, recording.lines, { timeoutMs: 100 }).catch(
      (e: unknown) => e,
    )
    // One timeout for the first wait, one of silence after it: not one per missing result.
    expect(Date.now() - started).toBeLessThan(450)
    expect((failure as ReplayError).diffs.map((d) => [d.line, d.actual])).toEqual(
      [3, 5, 7, 9, 11, 13].map((line) => [line, 'no result within 100 ms']),
    )
  })

  it('names the line and the fix when a recorded tool is gone from the page', async () => {
    const recorded = helpdesk()
    const recording = recordSession(recorded)
    await recorded.call('tickets.search', { query: 'printer' })
    const page = createToolmark()
    const failure = await replaySession(page, recording.lines, { timeoutMs: 50 }).catch((e) => e)
    expect(failure).toBeInstanceOf(ReplayError)
    expect(failure.line).toBe(2)
    expect(failure.message).toMatch(
      /^Recording line 2: the page has no tool "tickets.search" for caller "inapp" \(waited 50 ms\)\. Render the part of the page/,
    )
  })

  it('waits for a tool that the page registers a moment later', async () => {
    const recorded = helpdesk()
    const recording = recordSession(recorded)
    await recorded.call('tickets.search', { query: 'printer' })
    const page = createToolmark()
    setTimeout(() => {
      page.register({
        name: 'tickets.search',
        description: 'Searches tickets',
        input: z.object({ query: z.string() }),
        run: () => ok([{ id: 1, title: 'Printer jammed', status: 'open' }]),
      })
    }, 20)
    expect((await replaySession(page, recording.lines)).results).toBe(1)
  })

  it.each([
    [
      '{"type":"session","version":1,"tools":[]}\nnot json',
      /^Recording line 2: not JSON\. Record the session again/,
    ],
    ['{"type":"session","version":9,"tools":[]}', /line 1: recorded in format version 9/],
    ['{"type":"call","callId":"c1","caller":"inapp"}', /line 1: a "call" line needs "tool"/],
    ['{"type":"call","callId":"c1","tool":"x","caller":"robot"}', /a "call" line needs "caller"/],
    ['[1,2]', /line 1: not a JSON object/],
    ['{"type":"shrug"}', /line 1: unknown line type "shrug"/],
  ])('rejects a broken recording before anything runs: %s', async (text, message) => {
    const tm = helpdesk()
    const calls: unknown[] = []
    tm.events.on('call', (e) => calls.push(e))
    await expect(replaySession(tm, text)).rejects.toThrow(message)
    expect(calls).toEqual([])
  })
})

describe('recording grants', () => {
  it('records the grant an approval gave, skips the calls it covered, and replays both', async () => {
    const play = async (tm: Toolmark) => {
      const asked = await tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
      if (asked.status !== 'needs_confirmation') throw new Error('expected a confirmation')
      await tm.confirmations.approve(asked.confirmId, {
        grant: { for: { ms: 60_000 }, pins: ['id'] },
      })
      await tm.call('tickets.close', { id: 1 }, { caller: 'inapp' })
    }
    const tm = helpdesk({ grants: true })
    const recording = recordSession(tm)
    await play(tm)
    recording.stop()
    const lines = recording.lines.map((l) => JSON.parse(l))
    expect(lines.filter((l) => l.type === 'answer')).toEqual([
      {
        type: 'answer',
        confirmId: 'cf1',
        decision: 'approve',
        grant: { for: { ms: 60_000 }, pins: ['id'] },
      },
    ])
    expect(lines.filter((l) => l.type === 'result').map((l) => l.result.status)).toEqual([
      'needs_confirmation',
      'ok',
      'ok',
    ])

    // Replayed: the approval gives the same grant, so the second close asks nobody again.
    const fresh = helpdesk()
    expect(await replaySession(fresh, recording.text())).toEqual({
      calls: 2,
      results: 3,
      answers: 1,
    })
    expect(fresh.confirmations.grants()).toMatchObject([{ tool: 'tickets.close', uses: 1 }])
  })
})

describe('recordSession with a question', () => {
  /** A page whose tool asks which priority to file with, and files it. */
  function asking(): Toolmark {
    const tm = createToolmark({ confirm: { questions: questions() } })
    tm.register({
      name: 'tickets.file',
      description: 'Files a ticket, asking for its priority',
      run: async (_input, ctx) => {
        const answer = await ctx.ask({
          prompt: 'Which priority?',
          schema: { enum: ['low', 'high'] },
        })
        return answer.answered ? ok({ priority: answer.value }) : refuse('declined', 'No answer')
      },
    })
    return tm
  }

  it('records the value the person answered and replays it, so the replay asks nobody', async () => {
    const tm = asking()
    const detach = tm.confirmations.attachPresenter()
    const recording = recordSession(tm)
    const filing = tm.call('tickets.file', {}, { caller: 'mcp' })
    await new Promise((r) => setTimeout(r, 0))
    const [question] = tm.confirmations.list()
    expect((await tm.confirmations.answer(question.id, 'medium')).status).toBe('invalid')
    await tm.confirmations.answer(question.id, 'high')
    expect(await filing).toEqual({ status: 'ok', data: { priority: 'high' } })
    recording.stop()
    detach()

    const lines = recording.lines.map((l) => JSON.parse(l))
    expect(lines.filter((l) => l.type === 'confirm' || l.type === 'answer')).toEqual([
      {
        type: 'confirm',
        confirmId: 'cf1',
        callId: 'c1',
        tool: 'tickets.file',
        mode: 'inline',
        summary: 'Which priority?',
      },
      { type: 'answer', confirmId: 'cf1', decision: 'answer', value: 'high' },
    ])

    const fresh = asking()
    expect(await replaySession(fresh, recording.text())).toEqual({
      calls: 1,
      results: 1,
      answers: 1,
    })
    expect(fresh.confirmations.list()).toEqual([])
  })

  it('fails with a diff when the replayed answer no longer fits the question', async () => {
    const tm = asking()
    const detach = tm.confirmations.attachPresenter()
    const recording = recordSession(tm)
    const filing = tm.call('tickets.file', {}, { caller: 'mcp' })
    await new Promise((r) => setTimeout(r, 0))
    await tm.confirmations.answer(tm.confirmations.list()[0].id, 'high')
    await filing
    recording.stop()
    detach()

    // The page now asks for other values: the recorded answer is invalid, the question stays
    // unanswered and the replay reports the result that never came.
    const changed = createToolmark()
    changed.register({
      name: 'tickets.file',
      description: 'Files a ticket, asking for its priority',
      run: async (_input, ctx) => {
        const answer = await ctx.ask({
          prompt: 'Which priority?',
          schema: { enum: ['p1', 'p2'] },
        })
        return answer.answered ? ok({ priority: answer.value }) : refuse('declined', 'No answer')
      },
    })
    await expect(replaySession(changed, recording.text(), { timeoutMs: 200 })).rejects.toThrow(
      ReplayError,
    )
  })
})
