import { z } from 'zod'
import {
  createToolmark,
  ok,
  type Approval,
  type ConfirmEvent,
  type ErrorEvent,
  type Toolmark,
  type ToolResult,
  type Verification,
  type VerificationRequest,
} from '../src/index'
import { approvalChallenge, checkAssertion, webauthnVerifier } from '../src/passkey'
import { canonicalJson } from '../src/base/canonicalJson'
import { createSoftAuthenticator } from './fixtures/softAuthenticator'

const ORIGIN = 'https://helpdesk.example'
const RP_ID = 'helpdesk.example'

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}

/** A destructive, verification-protected delete that records what it ran and how it was approved. */
const registerDelete = (tm: Toolmark, extra: Record<string, unknown> = {}) => {
  const runs: Array<{ input: unknown; approval: Approval | undefined }> = []
  tm.register({
    name: 'tickets.delete',
    title: 'Delete ticket',
    description: 'Deletes a ticket',
    input: z.object({ id: z.number() }),
    hints: { destructive: true },
    verify: true,
    summary: (input) => `Delete ticket #${input.id}`,
    run: (input, ctx) => {
      runs.push({ input, approval: ctx.approval })
      return ok({ deleted: input.id })
    },
    ...extra,
  })
  return runs
}

const confirmIdOf = (result: ToolResult) => {
  expect(result.status).toBe('needs_confirmation')
  return (result as { confirmId: string }).confirmId
}

/** A registry whose verifier is a software authenticator that signs whatever it is asked. */
async function signingRegistry(options: { userVerified?: boolean } = {}) {
  const authenticator = await createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID, ...options })
  const requests: VerificationRequest[] = []
  const tm = createToolmark({
    confirm: {
      origin: ORIGIN,
      verifier: webauthnVerifier(async (request) => {
        requests.push(request)
        return authenticator.sign(request.challenge)
      }),
    },
  })
  return { tm, authenticator, requests }
}

describe('which approvals need verification', () => {
  it('hides a verify tool from every caller that would need a confirmation when there is no verifier, and refuses its calls not_allowed', async () => {
    const tm = createToolmark({ policy: { webmcp: { allow: ['destructive'] } } })
    tm.confirmations.attachPresenter()
    const runs = registerDelete(tm)
    expect(tm.manifest({ caller: 'webmcp' }).tools).toEqual([])
    expect(tm.manifest({ caller: 'inapp' }).tools).toEqual([])
    for (const caller of ['inapp', 'webmcp', 'test'] as const) {
      expect(await tm.call('tickets.delete', { id: 1 }, { caller })).toMatchObject({
        status: 'refused',
        code: 'not_allowed',
      })
    }
    expect(tm.confirmations.list()).toEqual([])
    // A person's own call needs no confirmation, so no verification either.
    expect(await tm.call('tickets.delete', { id: 1 }, { caller: 'human' })).toEqual({
      status: 'ok',
      data: { deleted: 1 },
    })
    expect(runs.map((r) => r.approval)).toEqual([undefined])
  })

  it('applies policy[caller].verify to that caller and class only', async () => {
    const tm = createToolmark({ policy: { inapp: { verify: ['consequential'] } } })
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      summary: () => 'Close',
      run: () => ok(null),
    })
    tm.register({
      name: 'purge',
      description: 'Purges',
      hints: { destructive: true },
      summary: () => 'Purge',
      run: () => ok(null),
    })
    expect(tm.manifest({ caller: 'inapp' }).tools.map((t) => t.name)).toEqual(['purge'])
    expect(tm.manifest({ caller: 'test' }).tools.map((t) => t.name)).toEqual(['close', 'purge'])
    expect(await tm.call('close', {})).toMatchObject({ code: 'not_allowed' })
    expect((await tm.call('close', {}, { caller: 'test' })).status).toBe('needs_confirmation')
  })

  it('throws in development for a bad verify flag, policy verify list or verifier', () => {
    expect(() =>
      createToolmark({ policy: { inapp: { verify: ['readOnly' as 'destructive'] } } }),
    ).toThrow(/policy\.inapp\.verify/)
    expect(() =>
      createToolmark({ confirm: { verifier: 'passkey' as unknown as undefined } }),
    ).toThrow(/confirm\.verifier/)
    const tm = createToolmark()
    expect(() =>
      tm.register({
        name: 'x',
        description: 'x',
        verify: 'yes' as unknown as boolean,
        run: () => ok(null),
      }),
    ).toThrow(/verify that is not a boolean/)
  })

  it('takes only a verifier that brings its checks: a bare function throws in development with the fix', () => {
    const bare = async () => undefined
    expect(() => createToolmark({ confirm: { verifier: bare as never } })).toThrow(
      /webauthnVerifier\(ask\) of @toolmark\/core\/passkey/,
    )
    expect(() => createToolmark({ confirm: { verifier: { ask: bare } as never } })).toThrow(
      /confirm\.verifier/,
    )
    // An object with ask and check but no challenge of its own: core has no challenge to ask with.
    const { challenge: _, ...withoutChallenge } = webauthnVerifier(bare)
    expect(() => createToolmark({ confirm: { verifier: withoutChallenge as never } })).toThrow(
      /confirm\.verifier/,
    )
    // A copy has all three methods but not the verification the made one brings: not a verifier.
    expect(() =>
      createToolmark({ confirm: { verifier: { ...webauthnVerifier(bare) } as never } }),
    ).toThrow(/confirm\.verifier must come from passkeyVerifier\(\) or webauthnVerifier/)
    const verifier = webauthnVerifier(bare)
    expect(Object.isFrozen(verifier)).toBe(true)
    expect(verifier.challenge).toBe(approvalChallenge)
    expect(() => createToolmark({ confirm: { verifier } })).not.toThrow()
  })

  it('fails closed in production on a bare verifier function: invalid_options, and verify tools stay hidden', async () => {
    const bare = vi.fn(async () => undefined)
    const tm = createToolmark({ dev: false, confirm: { verifier: bare as never } })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.register({
      name: 'purge',
      description: 'Purges',
      hints: { consequential: true },
      verify: true,
      run: () => ok(null),
    })
    await flush()
    expect(errors.map((e) => e.code)).toEqual(['invalid_options'])
    expect(tm.manifest({ caller: 'inapp' }).tools).toEqual([])
    expect(await tm.call('purge', {})).toMatchObject({ code: 'not_allowed' })
    expect(bare).not.toHaveBeenCalled()
  })

  it('fails closed in production: a bad policy verify list leaves that caller with no tools', async () => {
    const tm = createToolmark({ dev: false, policy: { inapp: { verify: 'all' as never } } })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    tm.register({ name: 'read', description: 'Reads', hints: { readOnly: true }, run: () => ok(1) })
    await flush()
    expect(errors.map((e) => e.code)).toEqual(['invalid_policy'])
    expect(tm.manifest({ caller: 'inapp' }).tools).toEqual([])
  })
})

describe('approve() asks the verifier, whoever calls it', () => {
  it('runs only after a verified assertion over this confirmation, and tells the run and the confirm event', async () => {
    const { tm, requests } = await signingRegistry()
    const runs = registerDelete(tm)
    const confirms: ConfirmEvent[] = []
    tm.events.on('confirm', (e) => confirms.push(e))
    const id = confirmIdOf(await tm.call('tickets.delete', { id: 7 }))
    const entry = tm.confirmations.get(id)!
    expect(entry.verify).toBe(true)
    expect(await tm.confirmations.approve(id)).toEqual({ status: 'ok', data: { deleted: 7 } })
    expect(requests).toHaveLength(1)
    expect(requests[0]).toMatchObject({
      confirmId: id,
      tool: 'tickets.delete',
      caller: 'inapp',
      summary: 'Delete ticket #7',
      expiresAt: entry.expiresAt,
    })
    expect(requests[0].challenge).toBe(
      await approvalChallenge({
        confirmId: id,
        tool: 'tickets.delete',
        input: { id: 7 },
        expiresAt: entry.expiresAt,
      }),
    )
    expect(runs).toHaveLength(1)
    expect(runs[0].approval).toMatchObject({
      by: 'verified',
      confirmId: id,
      expiresAt: entry.expiresAt,
    })
    expect(runs[0].approval!.assertion!.type).toBe('public-key')
    expect(Object.isFrozen(runs[0].approval)).toBe(true)
    expect(confirms.map((e) => [e.status, e.by])).toEqual([
      ['pending', undefined],
      ['approved', 'verified'],
    ])
  })

  it('refuses verification_failed and keeps the entry pending when the person declines', async () => {
    let answer: 'decline' | 'sign' = 'decline'
    const authenticator = await createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID })
    const tm = createToolmark({
      confirm: {
        origin: ORIGIN,
        verifier: webauthnVerifier(async (request) =>
          answer === 'decline' ? undefined : authenticator.sign(request.challenge),
        ),
      },
    })
    const runs = registerDelete(tm)
    const id = confirmIdOf(await tm.call('tickets.delete', { id: 1 }))
    const refused = await tm.confirmations.approve(id, { by: 'dialog' })
    expect(refused).toMatchObject({ status: 'refused', code: 'verification_failed' })
    expect(Object.isFrozen(refused)).toBe(true)
    expect(tm.confirmations.list().map((e) => e.id)).toEqual([id])
    expect(runs).toEqual([])
    answer = 'sign'
    expect((await tm.confirmations.approve(id)).status).toBe('ok')
    expect(runs).toHaveLength(1)
  })

  it('asks the verifier for every entry of a batch, and a declined one stays pending while the rest run', async () => {
    const authenticator = await createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID })
    const asked: string[] = []
    const tm = createToolmark({
      confirm: {
        origin: ORIGIN,
        verifier: webauthnVerifier(async (request) => {
          asked.push(request.confirmId)
          // The person cancels the passkey prompt of the second request only.
          return asked.length === 2 ? undefined : authenticator.sign(request.challenge)
        }),
      },
    })
    const runs = registerDelete(tm)
    const ids: string[] = []
    for (const id of [1, 2, 3]) ids.push(confirmIdOf(await tm.call('tickets.delete', { id })))

    const answers = await tm.confirmations.approveMany(ids, { by: 'dialog' })

    expect(asked).toEqual(ids)
    expect(answers.map((a) => a.result.status)).toEqual(['ok', 'refused', 'ok'])
    expect(answers[1].result).toMatchObject({ code: 'verification_failed' })
    expect(runs.map((r) => [(r.input as { id: number }).id, r.approval?.by])).toEqual([
      [1, 'verified'],
      [3, 'verified'],
    ])
    expect(tm.confirmations.list().map((e) => e.id)).toEqual([ids[1]])
  })

  it('refuses an assertion replayed from another confirmation, and runs neither', async () => {
    const authenticator = await createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID })
    const signed: Verification[] = []
    const replay: { of?: Verification } = {}
    const tm = createToolmark({
      confirm: {
        origin: ORIGIN,
        verifier: webauthnVerifier(async (request) => {
          if (replay.of) return replay.of
          signed.push(await authenticator.sign(request.challenge))
          return undefined
        }),
      },
    })
    const runs = registerDelete(tm)
    const first = confirmIdOf(await tm.call('tickets.delete', { id: 1 }))
    const second = confirmIdOf(await tm.call('tickets.delete', { id: 2 }))
    // The person signs for the first; the verifier declines it so it stays pending.
    expect((await tm.confirmations.approve(first)).status).toBe('refused')
    replay.of = signed[0]
    expect(await tm.confirmations.approve(second)).toMatchObject({
      code: 'verification_failed',
      message: expect.stringMatching(/another challenge/),
    })
    expect(runs).toEqual([])
    expect(tm.confirmations.list().map((e) => e.id)).toEqual([first, second])
  })

  it('verifies an edited input as edited: an assertion over the asked input does not approve the edit', async () => {
    const authenticator = await createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID })
    const challenges: string[] = []
    let forged: string | undefined
    const tm = createToolmark({
      confirm: {
        origin: ORIGIN,
        verifier: webauthnVerifier(async (request) => {
          challenges.push(request.challenge)
          return authenticator.sign(forged ?? request.challenge)
        }),
      },
    })
    const runs = registerDelete(tm)
    const id = confirmIdOf(await tm.call('tickets.delete', { id: 1 }))
    const { expiresAt } = tm.confirmations.get(id)!
    forged = await approvalChallenge({
      confirmId: id,
      tool: 'tickets.delete',
      input: { id: 1 },
      expiresAt,
    })
    expect(await tm.confirmations.approve(id, { input: { id: 2 } })).toMatchObject({
      code: 'verification_failed',
    })
    expect(challenges[0]).toBe(
      await approvalChallenge({
        confirmId: id,
        tool: 'tickets.delete',
        input: { id: 2 },
        expiresAt,
      }),
    )
    expect(runs).toEqual([])
    forged = undefined
    expect(await tm.confirmations.approve(id, { input: { id: 2 } })).toEqual({
      status: 'ok',
      data: { deleted: 2 },
    })
    expect(runs.map((r) => r.input)).toEqual([{ id: 2 }])
  })

  it('refuses an authenticator without user verification, another origin and another ceremony type', async () => {
    const { tm } = await signingRegistry({ userVerified: false })
    const runs = registerDelete(tm)
    const id = confirmIdOf(await tm.call('tickets.delete', { id: 1 }))
    expect(await tm.confirmations.approve(id)).toMatchObject({
      code: 'verification_failed',
      message: expect.stringMatching(/did not verify the user/),
    })
    const authenticator = await createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID })
    for (const overrides of [{ origin: 'https://evil.example' }, { type: 'webauthn.create' }]) {
      const tm2 = createToolmark({
        confirm: {
          origin: ORIGIN,
          verifier: webauthnVerifier((r) => authenticator.sign(r.challenge, overrides)),
        },
      })
      const runs2 = registerDelete(tm2)
      const id2 = confirmIdOf(await tm2.call('tickets.delete', { id: 1 }))
      expect((await tm2.confirmations.approve(id2)).status).toBe('refused')
      expect(runs2).toEqual([])
    }
    expect(runs).toEqual([])
  })

  it('refuses what is not an assertion, and reports a verifier that throws', async () => {
    let give: () => unknown = () => ({ type: 'public-key', id: 'x' })
    const tm = createToolmark({
      confirm: { origin: ORIGIN, verifier: webauthnVerifier(async () => give() as Verification) },
    })
    const errors: ErrorEvent[] = []
    tm.events.on('error', (e) => errors.push(e))
    const runs = registerDelete(tm)
    const id = confirmIdOf(await tm.call('tickets.delete', { id: 1 }))
    expect(await tm.confirmations.approve(id)).toMatchObject({ code: 'verification_failed' })
    give = () => {
      throw new Error('authenticator unplugged')
    }
    expect(await tm.confirmations.approve(id)).toMatchObject({ code: 'verification_failed' })
    expect(errors.map((e) => [e.code, e.tool])).toEqual([['verifier_threw', 'tickets.delete']])
    expect(runs).toEqual([])
    expect(tm.confirmations.list()).toHaveLength(1)
  })

  it('fails closed without an origin to check against (no page, none configured)', async () => {
    const authenticator = await createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID })
    const tm = createToolmark({
      confirm: { verifier: webauthnVerifier((r) => authenticator.sign(r.challenge)) },
    })
    const runs = registerDelete(tm)
    const id = confirmIdOf(await tm.call('tickets.delete', { id: 1 }))
    expect(await tm.confirmations.approve(id)).toMatchObject({ code: 'verification_failed' })
    expect(runs).toEqual([])
  })

  it('labels approvals without verification dialog or api, for the run and the event', async () => {
    const tm = createToolmark()
    const seen: Array<Approval | undefined> = []
    const confirms: ConfirmEvent[] = []
    tm.events.on('confirm', (e) => confirms.push(e))
    tm.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      summary: () => 'Close',
      run: (_input, ctx) => (seen.push(ctx.approval), ok(null)),
    })
    await tm.confirmations.approve(confirmIdOf(await tm.call('close', {})), { by: 'dialog' })
    await tm.confirmations.approve(confirmIdOf(await tm.call('close', {})))
    expect(seen).toEqual([{ by: 'dialog' }, { by: 'api' }])
    expect(confirms.filter((e) => e.status === 'approved').map((e) => e.by)).toEqual([
      'dialog',
      'api',
    ])
  })
})

describe('single use and expiry while the passkey prompt is open', () => {
  it('answers a concurrent approve or reject confirmation_expired and runs once', async () => {
    const authenticator = await createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID })
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const tm = createToolmark({
      confirm: {
        origin: ORIGIN,
        verifier: webauthnVerifier(async (r) => {
          await gate
          return authenticator.sign(r.challenge)
        }),
      },
    })
    const runs = registerDelete(tm)
    const id = confirmIdOf(await tm.call('tickets.delete', { id: 1 }))
    const first = tm.confirmations.approve(id)
    await flush()
    expect(await tm.confirmations.approve(id)).toMatchObject({ code: 'confirmation_expired' })
    expect(await tm.confirmations.reject(id)).toMatchObject({ code: 'confirmation_expired' })
    release()
    expect((await first).status).toBe('ok')
    expect(runs).toHaveLength(1)
  })

  it('expires the entry while the prompt is open, closes the prompt, and refuses the late assertion', async () => {
    vi.useFakeTimers()
    try {
      const authenticator = await createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID })
      let signal: AbortSignal | undefined
      let answer!: (v: Verification) => void
      let asked!: () => void
      const wasAsked = new Promise<void>((resolve) => (asked = resolve))
      const tm = createToolmark({
        limits: { confirmationExpiryMs: 1_000 },
        confirm: {
          origin: ORIGIN,
          verifier: webauthnVerifier((r) => {
            signal = r.signal
            asked()
            return new Promise<Verification>((resolve) => (answer = resolve))
          }),
        },
      })
      tm.confirmations.attachPresenter()
      const confirms: ConfirmEvent[] = []
      tm.events.on('confirm', (e) => confirms.push(e))
      const runs = registerDelete(tm, { hints: { consequential: true } })
      const call = tm.call('tickets.delete', { id: 1 }, { caller: 'webmcp' })
      await vi.advanceTimersByTimeAsync(0)
      const { id } = tm.confirmations.list()[0]
      const approving = tm.confirmations.approve(id)
      await wasAsked
      expect(signal?.aborted).toBe(false)
      await vi.advanceTimersByTimeAsync(1_000)
      expect(signal?.aborted).toBe(true)
      expect(tm.confirmations.list()).toEqual([])
      expect(await call).toMatchObject({ code: 'confirmation_expired' })
      answer(await authenticator.sign('late'))
      expect(await approving).toMatchObject({ code: 'confirmation_expired' })
      expect(runs).toEqual([])
      expect(confirms.map((e) => e.status)).toEqual(['pending', 'expired'])
    } finally {
      vi.useRealTimers()
    }
  })

  it('withdraws the entry and closes the prompt when the waiting call is aborted', async () => {
    let signal: AbortSignal | undefined
    let asked!: () => void
    const wasAsked = new Promise<void>((resolve) => (asked = resolve))
    const tm = createToolmark({
      confirm: {
        origin: ORIGIN,
        verifier: webauthnVerifier((r) => {
          signal = r.signal
          asked()
          return new Promise<undefined>(() => {})
        }),
      },
    })
    tm.confirmations.attachPresenter()
    const runs = registerDelete(tm, { hints: { consequential: true } })
    const controller = new AbortController()
    const call = tm.call('tickets.delete', { id: 1 }, { caller: 'mcp', signal: controller.signal })
    await flush()
    const approving = tm.confirmations.approve(tm.confirmations.list()[0].id)
    await wasAsked
    controller.abort()
    expect(await call).toEqual({ status: 'cancelled', by: 'signal' })
    expect(signal?.aborted).toBe(true)
    expect(tm.confirmations.list()).toEqual([])
    expect(runs).toEqual([])
    expect(await Promise.race([approving, flush().then(() => 'waiting')])).toMatchObject({
      code: 'confirmation_expired',
    })
  })
})

describe('the challenge and the assertion check', () => {
  it('encodes values canonically: key order never matters, JSON semantics otherwise', () => {
    expect(canonicalJson({ b: 1, a: [undefined, 2, { d: undefined, c: NaN }] })).toBe(
      '{"a":[null,2,{"c":null}],"b":1}',
    )
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }))
    expect(canonicalJson(undefined)).toBe('null')
  })

  it('changes with every part it covers', async () => {
    const base = { confirmId: 'cf_1', tool: 't', input: { id: 1 }, expiresAt: 5 }
    const challenges = new Set([
      await approvalChallenge(base),
      await approvalChallenge({ ...base, confirmId: 'cf_2' }),
      await approvalChallenge({ ...base, tool: 'u' }),
      await approvalChallenge({ ...base, input: { id: 2 } }),
      await approvalChallenge({ ...base, expiresAt: 6 }),
    ])
    expect(challenges.size).toBe(5)
    expect(await approvalChallenge({ ...base, input: { id: 1 } })).toBe(
      await approvalChallenge(base),
    )
  })

  it('checks the signature with the known public key, and refuses it with another key', async () => {
    const authenticator = await createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID })
    const other = await createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID })
    const challenge = await approvalChallenge({
      confirmId: 'c',
      tool: 't',
      input: {},
      expiresAt: 1,
    })
    const verification = await authenticator.sign(challenge)
    const expected = { challenge, origin: ORIGIN, rpId: RP_ID }
    const key = (a: typeof authenticator) => ({
      spki: a.credential.publicKey,
      algorithm: a.credential.algorithm,
    })
    expect(await checkAssertion(verification, { ...expected, publicKey: key(authenticator) })).toBe(
      undefined,
    )
    expect(await checkAssertion(verification, { ...expected, publicKey: key(other) })).toMatch(
      /signature/,
    )
    expect(await checkAssertion(verification, { ...expected, rpId: 'evil.example' })).toMatch(
      /relying party/,
    )
  })
})

describe("a run's own ctx.confirm in a tool that needs verification", () => {
  /** A `verify: true` tool whose run asks the person again before it acts. */
  const registerPurge = (tm: Toolmark, hints: Record<string, boolean>) => {
    const answers: Array<{ approved: boolean; reason?: string }> = []
    const acted: number[] = []
    tm.register({
      name: 'tickets.purge',
      description: 'Purges the closed tickets of a queue',
      input: z.object({ queue: z.number() }),
      hints,
      verify: true,
      summary: (input) => `Purge queue ${input.queue}`,
      run: async (input, ctx) => {
        const answer = await ctx.confirm({ summary: `Really purge queue ${input.queue}?` })
        answers.push(answer)
        if (!answer.approved) return ok({ purged: false })
        acted.push(input.queue)
        return ok({ purged: true })
      },
    })
    return { answers, acted }
  }

  /** A verifier that declines until it is told to sign. */
  async function switchableRegistry() {
    const authenticator = await createSoftAuthenticator({ origin: ORIGIN, rpId: RP_ID })
    const state = { sign: false, asked: 0 }
    const tm = createToolmark({
      confirm: {
        origin: ORIGIN,
        verifier: webauthnVerifier(async (request) => {
          state.asked++
          return state.sign ? authenticator.sign(request.challenge) : undefined
        }),
      },
    })
    tm.confirmations.attachPresenter()
    return { tm, state }
  }

  const inRunEntry = async (tm: Toolmark) => {
    for (let i = 0; i < 50 && tm.confirmations.list().length === 0; i++) await flush()
    const [entry] = tm.confirmations.list()
    expect(entry?.inRun).toBe(true)
    return entry!
  }

  it.each([
    ['a person’s own call of a destructive tool', { destructive: true }, 'human'],
    ['an agent call of a tool with no hints', {}, 'inapp'],
  ] as const)(
    'asks the verifier for %s: a script’s approve() without the passkey is refused and the entry stays',
    async (_label, hints, caller) => {
      const { tm, state } = await switchableRegistry()
      const { answers, acted } = registerPurge(tm, hints)
      const call = tm.call('tickets.purge', { queue: 3 }, { caller })
      const entry = await inRunEntry(tm)
      expect(entry.verify).toBe(true)

      expect(await tm.confirmations.approve(entry.id)).toMatchObject({
        status: 'refused',
        code: 'verification_failed',
      })
      expect(state.asked).toBe(1)
      expect(tm.confirmations.get(entry.id)).toBe(entry)
      expect(acted).toEqual([])

      // Two approvals at once, the passkey given: one asks and runs, the other is refused.
      state.sign = true
      const [first, second] = await Promise.all([
        tm.confirmations.approve(entry.id),
        tm.confirmations.approve(entry.id),
      ])
      expect(first).toEqual({ status: 'ok', data: null })
      expect(second).toMatchObject({ status: 'refused', code: 'confirmation_expired' })
      expect(state.asked).toBe(2)
      expect(await call).toEqual({ status: 'ok', data: { purged: true } })
      expect(answers).toEqual([{ approved: true }])
      expect(acted).toEqual([3])
    },
  )

  it('answers no_verifier at once, filing nothing, on a registry without a verifier', async () => {
    const tm = createToolmark()
    tm.confirmations.attachPresenter()
    const { answers, acted } = registerPurge(tm, { destructive: true })
    // A person's own call needs no confirmation, so it runs; its run's ctx.confirm cannot be verified.
    expect(await tm.call('tickets.purge', { queue: 4 }, { caller: 'human' })).toEqual({
      status: 'ok',
      data: { purged: false },
    })
    expect(answers).toEqual([{ approved: false, reason: 'no_verifier' }])
    expect(acted).toEqual([])
    expect(tm.confirmations.list()).toEqual([])
  })

  it('leaves a run of a tool without verify as it was: its ctx.confirm approves without the passkey', async () => {
    const { tm, state } = await switchableRegistry()
    const acted: number[] = []
    tm.register({
      name: 'tickets.archive',
      description: 'Archives the closed tickets of a queue',
      input: z.object({ queue: z.number() }),
      run: async (input, ctx) => {
        const answer = await ctx.confirm({ summary: `Archive queue ${input.queue}?` })
        if (answer.approved) acted.push(input.queue)
        return ok(answer.approved)
      },
    })
    const call = tm.call('tickets.archive', { queue: 5 })
    const entry = await inRunEntry(tm)
    expect(entry.verify).toBeUndefined()
    expect(await tm.confirmations.approve(entry.id)).toEqual({ status: 'ok', data: null })
    expect(await call).toEqual({ status: 'ok', data: true })
    expect(state.asked).toBe(0)
    expect(acted).toEqual([5])
  })
})
