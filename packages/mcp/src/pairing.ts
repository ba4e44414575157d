import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'

/** Crockford base32: no I, L, O or U, so a code survives being read aloud or retyped. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const CODE_LENGTH = 8

/** Default lifetime of a pairing code (10 minutes). */
export const DEFAULT_CODE_TTL_MS = 600_000
/** Wrong codes accepted before the code is replaced. */
export const DEFAULT_MAX_FAILURES = 5

/** The code a person types into the page, with its expiry. */
export interface PairingCode {
  /** Display form, `XXXX-XXXX`. */
  code: string
  /** Epoch ms after which the code no longer pairs. */
  expiresAt: number
}

/** Why a pairing or resume attempt was turned down. */
export type PairingRejection =
  /** The code does not match the current one. */
  | 'bad_code'
  /** The code matched a code that has expired. */
  | 'expired_code'
  /** The session token is unknown or was replaced by a newer pairing. */
  | 'bad_token'

/** The outcome of `pair` or `resume`: a fresh session token, or a reason. */
export type PairingOutcome =
  | { ok: true; token: string }
  | {
      ok: false
      reason: PairingRejection
      /** True when this failure replaced the code (too many failures, or expiry). */
      rotated: boolean
    }

/** Options of `createPairing`. */
export interface PairingOptions {
  /** Clock (default `Date.now`). */
  now?: () => number
  /** Lifetime of a code in ms (default 600 000). */
  codeTtlMs?: number
  /** Wrong codes before the code rotates (default 5). */
  maxFailures?: number
  /** Called with every new code (the CLI prints it on stderr). */
  onCode?: (code: PairingCode) => void
}

/** The pairing state: the current one-time code and the one valid session token. */
export interface Pairing {
  /** The current code; a used, expired or rotated code is replaced first. */
  currentCode(): PairingCode
  /** Tries a typed code. Success consumes it and replaces any older session token. */
  pair(code: string): PairingOutcome
  /** Tries a session token. Success rotates the token (the old one stops working). */
  resume(token: string): PairingOutcome
  /** Forgets the session token (the page must pair again). */
  revoke(): void
}

/** Uppercases, drops separators and maps look-alikes (O → 0, I/L → 1), as Crockford base32 does. */
export function normalizeCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1')
}

/**
 * Compares two secrets in time that depends on neither content nor length: both sides are
 * hashed to the same size first.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest()
  const hb = createHash('sha256').update(b, 'utf8').digest()
  return timingSafeEqual(ha, hb) && a.length === b.length
}

function generateCode(): string {
  let raw = ''
  for (let i = 0; i < CODE_LENGTH; i++) raw += ALPHABET[randomInt(ALPHABET.length)]
  return raw
}

function display(raw: string): string {
  return `${raw.slice(0, 4)}-${raw.slice(4)}`
}

/**
 * Creates the pairing state machine. Codes are short, single use, expire, and rotate after
 * `maxFailures` wrong attempts; tokens are 256-bit random and only the newest one is valid.
 */
export function createPairing(options: PairingOptions = {}): Pairing {
  const now = options.now ?? Date.now
  const ttl = options.codeTtlMs ?? DEFAULT_CODE_TTL_MS
  const maxFailures = options.maxFailures ?? DEFAULT_MAX_FAILURES

  let code: { raw: string; expiresAt: number } | undefined
  let failures = 0
  let token: string | undefined

  function rotate(): { raw: string; expiresAt: number } {
    code = { raw: generateCode(), expiresAt: now() + ttl }
    failures = 0
    options.onCode?.({ code: display(code.raw), expiresAt: code.expiresAt })
    return code
  }

  function live(): { raw: string; expiresAt: number } {
    return code && now() < code.expiresAt ? code : rotate()
  }

  function issueToken(): string {
    token = randomBytes(32).toString('base64url')
    return token
  }

  return {
    currentCode() {
      const c = live()
      return { code: display(c.raw), expiresAt: c.expiresAt }
    },
    pair(typed) {
      const c = code ?? rotate()
      const matches = constantTimeEqual(normalizeCode(typed), c.raw)
      if (now() >= c.expiresAt) {
        rotate()
        return { ok: false, reason: matches ? 'expired_code' : 'bad_code', rotated: true }
      }
      if (!matches) {
        failures++
        if (failures >= maxFailures) {
          rotate()
          return { ok: false, reason: 'bad_code', rotated: true }
        }
        return { ok: false, reason: 'bad_code', rotated: false }
      }
      // Single use: the next pairing needs a new code, generated when someone asks for it.
      code = undefined
      failures = 0
      return { ok: true, token: issueToken() }
    },
    resume(typed) {
      if (token === undefined || !constantTimeEqual(typed, token)) {
        return { ok: false, reason: 'bad_token', rotated: false }
      }
      return { ok: true, token: issueToken() }
    },
    revoke() {
      token = undefined
    },
  }
}
