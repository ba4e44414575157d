import { z } from 'zod'
import { createToolmark, ok, refuse, type Toolmark } from '../../src/index'
import {
  MissingSecretError,
  recordSession,
  replaySession,
  ReplayError,
  type WithheldField,
} from '../../src/testing'

/** A page with a login whose password is sensitive, and a payment whose cards' cvc are. */
function page(seen: unknown[] = []): Toolmark {
  const tm = createToolmark()
  tm.register({
    name: 'account.login',
    description: 'Logs in',
    sensitive: ['password'],
    input: z.object({ user: z.string(), password: z.string(), note: z.string().optional() }),
    run: (input) => {
      seen.push(input)
      return input.password === 'hunter2'
        ? ok({ user: input.user })
        : refuse('wrong_password', 'Wrong password')
    },
  })
  tm.register({
    name: 'billing.pay',
    description: 'Pays with the first card that works',
    sensitive: ['cards[].cvc'],
    input: z.object({ cards: z.array(z.object({ last4: z.string(), cvc: z.string() })) }),
    run: async (input) => {
      seen.push(input)
      // Long enough for two payments to overlap.
      await new Promise((r) => setTimeout(r, 10))
      return ok({ paid: input.cards.some((c) => c.cvc === `cvc-${c.last4}`) })
    },
  })
  return tm
}

async function recordedLoginAndPayments(): Promise<string> {
  const tm = page()
  const recording = recordSession(tm)
  await tm.call('account.login', { user: 'ada', password: 'hunter2', note: '[redacted]' })
  // Two payments at once, each with the cvc of its own cards.
  await Promise.all([
    tm.call('billing.pay', { cards: [{ last4: '4242', cvc: 'cvc-4242' }] }),
    tm.call('billing.pay', {
      cards: [
        { last4: '1111', cvc: 'cvc-1111' },
        { last4: '5555', cvc: 'cvc-5555' },
      ],
    }),
  ])
  recording.stop()
  return recording.text()
}

describe('replaying a recording with redacted inputs', () => {
  it('marks the redacted values as withheld, and not a "[redacted]" the person typed', async () => {
    const text = await recordedLoginAndPayments()
    const calls = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((l) => l.type === 'call')
    expect(calls.map((c) => [c.callId, c.input, c.withheld])).toEqual([
      ['c1', { user: 'ada', password: '[redacted]', note: '[redacted]' }, ['password']],
      ['c2', { cards: [{ last4: '4242', cvc: '[redacted]' }] }, ['cards.0.cvc']],
      [
        'c3',
        {
          cards: [
            { last4: '1111', cvc: '[redacted]' },
            { last4: '5555', cvc: '[redacted]' },
          ],
        },
        ['cards.0.cvc', 'cards.1.cvc'],
      ],
    ])
    expect(text).not.toMatch(/hunter2|cvc-/)
  })

  it('fails before anything runs, naming the field, when no value is given for one', async () => {
    const text = await recordedLoginAndPayments()
    const seen: unknown[] = []
    const tm = page(seen)
    const failure = await replaySession(tm, text, {
      secrets: { password: 'hunter2', 'cards.0.cvc': 'cvc-4242' },
    }).catch((e: unknown) => e)

    expect(failure).toBeInstanceOf(MissingSecretError)
    expect(failure).toBeInstanceOf(ReplayError)
    const error = failure as MissingSecretError
    expect([error.line, error.tool, error.callId, error.path]).toEqual([
      5,
      'billing.pay',
      'c3',
      'cards.1.cvc',
    ])
    expect(error.message).toBe(
      'Recording line 5: the input of billing.pay (c3) had "cards.1.cvc" redacted when it was recorded, and replaySession got no value for it. Pass it as { secrets: { "cards.1.cvc": value } } (or a function of { tool, path, callId, line }); the replay never sends the "[redacted]" mask as the value.',
    )
    expect(seen).toEqual([])
    await expect(replaySession(page(seen), text)).rejects.toThrow(
      'Recording line 2: the input of account.login (c1) had "password" redacted',
    )
    expect(seen).toEqual([])
  })

  it('sends the values given by path, never the mask, and overlapping calls get theirs', async () => {
    const text = await recordedLoginAndPayments()
    const seen: unknown[] = []
    const report = await replaySession(page(seen), text, {
      secrets: { password: 'hunter2', 'cards.0.cvc': 'cvc-4242', 'cards.1.cvc': 'cvc-5555' },
    })
    expect(report).toEqual({ calls: 3, results: 3, answers: 0 })
    // The note the person typed as "[redacted]" is theirs, and is sent as it was.
    expect(seen).toEqual([
      { user: 'ada', password: 'hunter2', note: '[redacted]' },
      { cards: [{ last4: '4242', cvc: 'cvc-4242' }] },
      {
        cards: [
          { last4: '1111', cvc: 'cvc-4242' },
          { last4: '5555', cvc: 'cvc-5555' },
        ],
      },
    ])
  })

  it('asks a function per field, awaiting it, and fails at the call it has no value for', async () => {
    const text = await recordedLoginAndPayments()
    const asked: WithheldField[] = []
    const cvcs: Record<string, string> = {
      'c2 cards.0.cvc': 'cvc-4242',
      'c3 cards.0.cvc': 'cvc-1111',
      'c3 cards.1.cvc': 'cvc-5555',
    }
    const seen: unknown[] = []
    const report = await replaySession(page(seen), text, {
      secrets: async (field) => {
        asked.push(field)
        await new Promise((r) => setTimeout(r, 1))
        return field.path === 'password' ? 'hunter2' : cvcs[`${field.callId} ${field.path}`]
      },
    })
    expect(report.results).toBe(3)
    expect(asked).toEqual([
      { tool: 'account.login', path: 'password', callId: 'c1', line: 2 },
      { tool: 'billing.pay', path: 'cards.0.cvc', callId: 'c2', line: 4 },
      { tool: 'billing.pay', path: 'cards.0.cvc', callId: 'c3', line: 5 },
      { tool: 'billing.pay', path: 'cards.1.cvc', callId: 'c3', line: 5 },
    ])
    expect(seen).toEqual([
      { user: 'ada', password: 'hunter2', note: '[redacted]' },
      { cards: [{ last4: '4242', cvc: 'cvc-4242' }] },
      {
        cards: [
          { last4: '1111', cvc: 'cvc-1111' },
          { last4: '5555', cvc: 'cvc-5555' },
        ],
      },
    ])

    // No value for the second payment's second card: it is not sent; what came before ran.
    const partial: unknown[] = []
    const failure = await replaySession(page(partial), text, {
      secrets: (field) => (field.path === 'cards.1.cvc' ? undefined : 'hunter2'),
    }).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(MissingSecretError)
    expect((failure as MissingSecretError).path).toBe('cards.1.cvc')
    expect(partial).toHaveLength(2)
  })

  it('takes every "[redacted]" of a version 1 recording as withheld', async () => {
    const v1 = [
      '{"type":"session","version":1,"tools":["account.login"]}',
      '{"type":"call","callId":"c1","tool":"account.login","caller":"test","input":{"user":"ada","password":"[redacted]"}}',
      '{"type":"result","callId":"c1","tool":"account.login","caller":"test","result":{"status":"ok","data":{"user":"ada"}}}',
    ]
    const seen: unknown[] = []
    await expect(replaySession(page(seen), v1)).rejects.toBeInstanceOf(MissingSecretError)
    expect(seen).toEqual([])
    await replaySession(page(seen), v1, { secrets: { password: 'hunter2' } })
    expect(seen).toEqual([{ user: 'ada', password: 'hunter2' }])
  })

  it.each([
    ['["password","user"]', /line 2: "withheld" names "user", which is not a redacted value/],
    ['["cards.0.cvc"]', /line 2: "withheld" names "cards.0.cvc", which is not a redacted value/],
    ['"password"', /line 2: "withheld" is not a list of input paths/],
  ])(
    'rejects a recording whose withheld paths are %s before anything runs',
    async (withheld, message) => {
      const lines = [
        '{"type":"session","version":2,"tools":["account.login"]}',
        `{"type":"call","callId":"c1","tool":"account.login","caller":"test","input":{"user":"ada","password":"[redacted]"},"withheld":${withheld}}`,
      ]
      const seen: unknown[] = []
      await expect(replaySession(page(seen), lines)).rejects.toThrow(message)
      expect(seen).toEqual([])
    },
  )
})

describe('how long a replay waits', () => {
  /** A page whose tool never answers: each recorded result is waited for in vain. */
  function hanging(): Toolmark {
    const tm = createToolmark()
    tm.register({ name: 'slow', description: 'Never answers', run: () => new Promise(() => {}) })
    return tm
  }

  async function recordedThreeCalls(): Promise<string> {
    const tm = createToolmark()
    tm.register({ name: 'slow', description: 'Answers', run: () => ok('done') })
    const recording = recordSession(tm)
    // One after the other: each call waits for the result before it.
    for (let i = 0; i < 3; i++) await tm.call('slow')
    await Promise.all([tm.call('slow'), tm.call('slow')])
    return recording.text()
  }

  it(
    'fails with its own error, every missing result listed, before the runner’s 5 s timeout',
    { timeout: 5000 },
    async () => {
      const text = await recordedThreeCalls()
      const started = Date.now()
      const failure = await replaySession(hanging(), text).catch((e: unknown) => e)
      const took = Date.now() - started

      expect(failure).toBeInstanceOf(ReplayError)
      expect((failure as ReplayError).diffs.map((d) => [d.callId, d.path, d.actual])).toEqual([
        ['c1', 'result', 'no result within 2000 ms'],
        ['c2', 'result', 'no result within 2000 ms'],
        ['c3', 'result', 'no result within 2000 ms'],
        ['c4', 'result', 'no result within 2000 ms'],
        ['c5', 'result', 'no result within 2000 ms'],
      ])
      // One wait ran out, then the rest ended together after one timeout of silence: not one
      // timeout each.
      expect(took).toBeGreaterThanOrEqual(3900)
      expect(took).toBeLessThan(4900)
    },
  )

  it('still waits the whole timeout for each thing while nothing has drifted', async () => {
    const tm = createToolmark()
    tm.register({
      name: 'slow',
      description: 'Answers after a while',
      run: async () => (await new Promise((r) => setTimeout(r, 150)), ok('done')),
    })
    const text = await recordedThreeCalls()
    expect(await replaySession(tm, text, { timeoutMs: 1000 })).toEqual({
      calls: 5,
      results: 5,
      answers: 0,
    })
  })
})
