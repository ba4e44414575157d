import { describe, expect, it, vi } from 'vitest'
import { constantTimeEqual, createPairing, normalizeCode } from '../src/pairing'

describe('createPairing', () => {
  it('shows a short human-typeable code and keeps it until it is used', () => {
    const onCode = vi.fn()
    const pairing = createPairing({ onCode })
    const first = pairing.currentCode()
    expect(first.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/)
    expect(pairing.currentCode()).toEqual(first)
    expect(onCode).toHaveBeenCalledTimes(1)
    expect(onCode).toHaveBeenCalledWith(first)
  })

  it('pairs with the code typed loosely, once', () => {
    const pairing = createPairing()
    const { code } = pairing.currentCode()
    const typed = ` ${code.toLowerCase().replace('-', ' ')} `
    const outcome = pairing.pair(typed)
    expect(outcome.ok).toBe(true)
    expect(outcome.ok && outcome.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(pairing.pair(code)).toEqual({ ok: false, reason: 'bad_code', rotated: false })
    expect(pairing.currentCode().code).not.toBe(code)
  })

  it('rotates the code after five wrong attempts', () => {
    const pairing = createPairing()
    const { code } = pairing.currentCode()
    const wrong = code === 'AAAA-AAAA' ? 'BBBB-BBBB' : 'AAAA-AAAA'
    for (let i = 0; i < 4; i++) {
      expect(pairing.pair(wrong)).toEqual({ ok: false, reason: 'bad_code', rotated: false })
    }
    expect(pairing.pair(wrong)).toEqual({ ok: false, reason: 'bad_code', rotated: true })
    expect(pairing.pair(code)).toMatchObject({ ok: false, reason: 'bad_code' })
    expect(pairing.pair(pairing.currentCode().code).ok).toBe(true)
  })

  it('refuses an expired code and replaces it', () => {
    let now = 1_000
    const pairing = createPairing({ now: () => now, codeTtlMs: 60_000 })
    const { code, expiresAt } = pairing.currentCode()
    expect(expiresAt).toBe(61_000)
    now = 61_000
    expect(pairing.pair(code)).toEqual({ ok: false, reason: 'expired_code', rotated: true })
    expect(pairing.currentCode().code).not.toBe(code)
    expect(pairing.currentCode().expiresAt).toBe(121_000)
  })

  it('resumes with the newest token only, rotating it each time', () => {
    const pairing = createPairing()
    expect(pairing.resume('anything')).toEqual({ ok: false, reason: 'bad_token', rotated: false })
    const first = pairing.pair(pairing.currentCode().code)
    if (!first.ok) throw new Error('pairing failed')
    const resumed = pairing.resume(first.token)
    if (!resumed.ok) throw new Error('resume failed')
    expect(resumed.token).not.toBe(first.token)
    expect(pairing.resume(first.token)).toMatchObject({ ok: false, reason: 'bad_token' })

    const second = pairing.pair(pairing.currentCode().code)
    expect(second.ok).toBe(true)
    expect(pairing.resume(resumed.token)).toMatchObject({ ok: false, reason: 'bad_token' })

    pairing.revoke()
    expect(second.ok && pairing.resume(second.token)).toMatchObject({ ok: false })
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
