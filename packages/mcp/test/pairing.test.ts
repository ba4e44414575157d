import { describe, expect, it, vi } from 'vitest'
import { transcriptText, type Transcript } from '../src/handshake'
import {
  codeKey,
  mac,
  macMatches,
  randomBase64Url,
  sessionId,
  tokenKey,
} from '../src/handshakeCrypto'
import { constantTimeEqual, createPairing, normalizeCode } from '../src/pairing'

function transcript(mode: 'pair' | 'resume' = 'pair'): Transcript {
  return { mode, port: 17840, pageNonce: randomBase64Url(32), serverNonce: randomBase64Url(32) }
}

/** What a page that knows `code` sends. */
async function codeProof(code: string, salt: string, t: Transcript): Promise<string> {
  return mac(await codeKey(code, salt), transcriptText('page', t))
}

describe('createPairing', () => {
  it('shows a short human-typeable code and keeps it until it is used', () => {
    const onCode = vi.fn()
    const pairing = createPairing({ onCode })
    const first = pairing.currentCode()
    expect(first.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/)
    expect(pairing.currentCode()).toEqual(first)
    expect(onCode).toHaveBeenCalledTimes(1)
    expect(onCode).toHaveBeenCalledWith(first)
    expect(pairing.salt).toMatch(/^[A-Za-z0-9_-]{22}$/)
  })

  it('pairs with a proof of the code typed loosely, once, and proves itself back', async () => {
    const pairing = createPairing()
    const { code } = pairing.currentCode()
    const typed = ` ${code.toLowerCase().replace('-', ' ')} `
    const t = transcript()
    const outcome = await pairing.pair(t, await codeProof(typed, pairing.salt, t))
    if (!outcome.ok) throw new Error(`pairing failed: ${outcome.reason}`)
    expect(outcome.token).toMatch(/^[A-Za-z0-9_-]{43}$/)

    // The page checks the server's proof and derives the same token without it crossing.
    const key = await codeKey(code, pairing.salt)
    expect(await macMatches(key, transcriptText('server', t), outcome.serverProof)).toBe(true)
    expect(await mac(key, transcriptText('token', t))).toBe(outcome.token)

    const again = transcript()
    expect(await pairing.pair(again, await codeProof(code, pairing.salt, again))).toEqual({
      ok: false,
      reason: 'bad_code',
    })
    expect(pairing.currentCode().code).not.toBe(code)
  })

  it('never replaces the code because of wrong proofs, however many', async () => {
    const onCode = vi.fn()
    const pairing = createPairing({ onCode })
    const { code } = pairing.currentCode()
    for (let i = 0; i < 1_000; i++) {
      expect(await pairing.pair(transcript(), randomBase64Url(32))).toEqual({
        ok: false,
        reason: 'bad_code',
      })
    }
    const wrongCode = code === 'AAAAA-AAAAA' ? 'BBBBB-BBBBB' : 'AAAAA-AAAAA'
    const t1 = transcript()
    expect(await pairing.pair(t1, await codeProof(wrongCode, pairing.salt, t1))).toMatchObject({
      ok: false,
      reason: 'bad_code',
    })
    expect(onCode).toHaveBeenCalledTimes(1)
    const t2 = transcript()
    expect((await pairing.pair(t2, await codeProof(code, pairing.salt, t2))).ok).toBe(true)
  })

  it('refuses a proof made for another transcript (a replay)', async () => {
    const pairing = createPairing()
    const { code } = pairing.currentCode()
    const seen = transcript()
    const proof = await codeProof(code, pairing.salt, seen)
    const replayed = { ...seen, serverNonce: randomBase64Url(32) }
    expect(await pairing.pair(replayed, proof)).toEqual({ ok: false, reason: 'bad_code' })
    const otherPort = { ...seen, port: 17841 }
    expect(await pairing.pair(otherPort, proof)).toEqual({ ok: false, reason: 'bad_code' })
    // The server's own proof is no page proof either (roles differ).
    const reflected = await mac(await codeKey(code, pairing.salt), transcriptText('server', seen))
    expect(await pairing.pair(seen, reflected)).toEqual({ ok: false, reason: 'bad_code' })
    expect((await pairing.pair(seen, proof)).ok).toBe(true)
  })

  it('refuses an expired code as expired and shows a new one on request', async () => {
    let now = 1_000
    const onCode = vi.fn()
    const pairing = createPairing({ now: () => now, codeTtlMs: 60_000, onCode })
    const { code, expiresAt } = pairing.currentCode()
    expect(expiresAt).toBe(61_000)
    now = 61_000
    const t = transcript()
    expect(await pairing.pair(t, await codeProof(code, pairing.salt, t))).toEqual({
      ok: false,
      reason: 'expired_code',
    })
    expect(onCode).toHaveBeenCalledTimes(1)
    expect(pairing.currentCode().code).not.toBe(code)
    expect(pairing.currentCode().expiresAt).toBe(121_000)
  })

  it('resumes with the newest session only, proving itself first and rotating the token', async () => {
    const pairing = createPairing()
    expect(await pairing.resume(randomBase64Url(16), transcript('resume'))).toBeUndefined()
    const t = transcript()
    const first = await pairing.pair(
      t,
      await codeProof(pairing.currentCode().code, pairing.salt, t),
    )
    if (!first.ok) throw new Error('pairing failed')

    const key = await tokenKey(first.token)
    const id = await sessionId(key)
    const r = transcript('resume')
    const challenge = await pairing.resume(id, r)
    if (!challenge) throw new Error('no challenge')
    expect(await macMatches(key, transcriptText('server', r), challenge.serverProof)).toBe(true)
    const resumed = await challenge.complete(await mac(key, transcriptText('page', r)))
    if (!resumed.ok) throw new Error('resume failed')
    expect(resumed.token).toBe(await mac(key, transcriptText('token', r)))
    expect(resumed.token).not.toBe(first.token)

    // The old token is stale now: its session id names no live session.
    expect(await pairing.resume(id, transcript('resume'))).toBeUndefined()

    const nextKey = await tokenKey(resumed.token)
    const nextId = await sessionId(nextKey)
    const p2 = transcript()
    const second = await pairing.pair(
      p2,
      await codeProof(pairing.currentCode().code, pairing.salt, p2),
    )
    expect(second.ok).toBe(true)
    expect(await pairing.resume(nextId, transcript('resume'))).toBeUndefined()

    pairing.revoke()
    if (!second.ok) return
    expect(await pairing.resume(await sessionId(await tokenKey(second.token)), r)).toBeUndefined()
  })

  it('refuses a resume proof that is forged, replayed or overtaken by a newer pairing', async () => {
    const pairing = createPairing()
    const t = transcript()
    const paired = await pairing.pair(
      t,
      await codeProof(pairing.currentCode().code, pairing.salt, t),
    )
    if (!paired.ok) throw new Error('pairing failed')
    const key = await tokenKey(paired.token)
    const id = await sessionId(key)

    const forged = await pairing.resume(id, transcript('resume'))
    expect(await forged!.complete(randomBase64Url(32))).toEqual({ ok: false, reason: 'bad_token' })

    const earlier = transcript('resume')
    const answer = await mac(key, transcriptText('page', earlier))
    const replay = await pairing.resume(id, { ...earlier, serverNonce: randomBase64Url(32) })
    expect(await replay!.complete(answer)).toEqual({ ok: false, reason: 'bad_token' })

    const r = transcript('resume')
    const overtaken = await pairing.resume(id, r)
    const p2 = transcript()
    await pairing.pair(p2, await codeProof(pairing.currentCode().code, pairing.salt, p2))
    expect(await overtaken!.complete(await mac(key, transcriptText('page', r)))).toEqual({
      ok: false,
      reason: 'bad_token',
    })
  })
})

describe('normalizeCode and constantTimeEqual', () => {
  it('maps look-alike letters the way Crockford base32 does', () => {
    expect(normalizeCode('o1il-ab cd')).toBe('0111ABCD')
  })

  it('compares secrets of any length without throwing', () => {
    expect(constantTimeEqual('ABCD1234', 'ABCD1234')).toBe(true)
    expect(constantTimeEqual('ABCD1234', 'ABCD1235')).toBe(false)
    expect(constantTimeEqual('ABCD1234', 'ABCD')).toBe(false)
    expect(constantTimeEqual('', '')).toBe(true)
  })
})
