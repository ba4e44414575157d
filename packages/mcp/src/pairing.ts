import { createHash, randomInt, timingSafeEqual } from 'node:crypto'
import { transcriptText, type Transcript } from './handshake'
import { codeKey, mac, macMatches, randomBase64Url, sessionId, tokenKey } from './handshakeCrypto'

export { normalizeCode } from './handshake'

/** Crockford base32: no I, L, O or U, so a code survives being read aloud or retyped. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
/** Characters of a code: 10 × 5 bits = 50 bits (docs/mcp.md has the guessing math). */
export const CODE_LENGTH = 10

/** Default lifetime of a pairing code (10 minutes). */
export const DEFAULT_CODE_TTL_MS = 600_000

/** The code a person types into the page, with its expiry. */
export interface PairingCode {
  /** Display form, `XXXXX-XXXXX`. */
  code: string
  /** Epoch ms after which the code no longer pairs. */
  expiresAt: number
}

/** Why a pairing or resume attempt was turned down. */
export type PairingRejection =
  /** The proof matches neither the current code nor the one that expired last. */
  | 'bad_code'
  /** The proof matches a code that has expired. */
  | 'expired_code'
  /** The session is unknown, was replaced by a newer pairing, or the proof is wrong. */
  | 'bad_token'

/** A successful pairing: the server's proof for the page and the session both now hold. */
export type PairOutcome =
  { ok: true; serverProof: string; token: string } | { ok: false; reason: PairingRejection }

/** A successful resume: the session token both sides now hold. */
export type ResumeOutcome = { ok: true; token: string } | { ok: false; reason: 'bad_token' }

/** The server's half of one resume, between its challenge and the page's proof. */
export interface ResumeChallenge {
  /** The server's proof, sent in the challenge. */
  serverProof: string
  /** Checks the page's proof; success rotates the token (the old one stops working). */
  complete(pageProof: string): Promise<ResumeOutcome>
}

/** Options of `createPairing`. */
export interface PairingOptions {
  /** Clock (default `Date.now`). */
  now?: () => number
  /** Lifetime of a code in ms (default 600 000). */
  codeTtlMs?: number
  /** Called with every new code (the CLI prints it on stderr). */
  onCode?: (code: PairingCode) => void
}

/**
 * The pairing state: the current one-time code and the one valid session token. Secrets never
 * leave it: the handshake only hands it transcripts and proofs.
 */
export interface Pairing {
  /** The current code; a used or expired code is replaced first (and `onCode` called). */
  currentCode(): PairingCode
  /** The salt of code keys (sent in pair challenges); random per process. */
  readonly salt: string
  /**
   * Checks a page's proof of the code. Success consumes the code, replaces any older session
   * with the token derived from this transcript, and returns the server's proof. Wrong proofs
   * never replace the code: the person keeps the one they are reading.
   */
  pair(transcript: Transcript, pageProof: string): Promise<PairOutcome>
  /** Starts a resume of session `session`, or `undefined` when that is not the live session. */
  resume(session: string, transcript: Transcript): Promise<ResumeChallenge | undefined>
  /** Forgets the session token (the page must pair again). */
  revoke(): void
}

/**
 * Compares two strings in time that depends on neither content nor length: both sides are
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
  return `${raw.slice(0, 5)}-${raw.slice(5)}`
}

interface CodeState {
  raw: string
  expiresAt: number
  key: Promise<CryptoKey>
}

interface Session {
  token: string
  id: Promise<string>
  key: Promise<CryptoKey>
}

/**
 * Creates the pairing state machine. Codes are short, single use and expire; wrong guesses do
 * not replace them. Tokens are 256 bits, derived by both sides from a handshake, and only the
 * newest one is valid.
 */
export function createPairing(options: PairingOptions = {}): Pairing {
  const now = options.now ?? Date.now
  const ttl = options.codeTtlMs ?? DEFAULT_CODE_TTL_MS
  const salt = randomBase64Url(16)

  let code: CodeState | undefined
  /** The code that expired last, so a late entry is told `expired_code`, not `bad_code`. */
  let expired: CodeState | undefined
  let session: Session | undefined

  function rotate(): CodeState {
    const raw = generateCode()
    const key = codeKey(raw, salt)
    // Derived now, off the event loop, so the first attempt does not wait for it.
    key.catch(() => {})
    code = { raw, expiresAt: now() + ttl, key }
    options.onCode?.({ code: display(raw), expiresAt: code.expiresAt })
    return code
  }

  /** The code that still pairs, if any; an expired one moves to `expired`. */
  function unexpired(): CodeState | undefined {
    if (code && now() >= code.expiresAt) {
      expired = code
      code = undefined
    }
    return code
  }

  function open(token: string): Session {
    const key = tokenKey(token)
    return { token, key, id: key.then(sessionId) }
  }

  async function derive(key: CryptoKey, transcript: Transcript): Promise<string> {
    return mac(key, transcriptText('token', transcript))
  }

  return {
    salt,
    currentCode() {
      const c = unexpired() ?? rotate()
      return { code: display(c.raw), expiresAt: c.expiresAt }
    },
    async pair(transcript, pageProof) {
      // A guess never creates a code: only someone asking to see one does.
      const c = unexpired()
      const text = transcriptText('page', transcript)
      if (c && (await macMatches(await c.key, text, pageProof))) {
        // Checked again after the awaits: another page may have used the code meanwhile.
        if (code !== c) return { ok: false, reason: 'bad_code' }
        if (now() >= c.expiresAt) {
          expired = c
          code = undefined
          return { ok: false, reason: 'expired_code' }
        }
        code = undefined
        const key = await c.key
        const token = await derive(key, transcript)
        session = open(token)
        return {
          ok: true,
          token,
          serverProof: await mac(key, transcriptText('server', transcript)),
        }
      }
      const late = expired
      if (late && (await macMatches(await late.key, text, pageProof))) {
        return { ok: false, reason: 'expired_code' }
      }
      return { ok: false, reason: 'bad_code' }
    },
    async resume(id, transcript) {
      const current = session
      if (!current || !constantTimeEqual(id, await current.id)) return undefined
      const key = await current.key
      return {
        serverProof: await mac(key, transcriptText('server', transcript)),
        async complete(pageProof) {
          const matches = await macMatches(key, transcriptText('page', transcript), pageProof)
          // A newer pairing or resume in the meantime retired this token.
          if (!matches || session !== current) return { ok: false, reason: 'bad_token' }
          const token = await derive(key, transcript)
          if (session !== current) return { ok: false, reason: 'bad_token' }
          session = open(token)
          return { ok: true, token }
        },
      }
    },
    revoke() {
      session = undefined
    },
  }
}
