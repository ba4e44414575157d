/**
 * The pairing handshake: the first frames on the loopback WebSocket, before protocol v1.
 * Shared by the server and the page, so it imports nothing (no Node, no DOM).
 *
 * Both sides prove they know the secret (the one-time code, or the session token) without
 * sending it: each proof is an HMAC-SHA-256, keyed by the secret, over a transcript naming the
 * role, the mode, the port and a fresh nonce from each side.
 *
 * Resume (a 256-bit token): the server proves first, in its challenge, so a process squatting
 * the port learns nothing but a nonce. Pair (a short code): the page proves first, so a guesser
 * posing as a page gets nothing it could test guesses against offline; the page attaches its
 * bridge only after the server's proof in `paired` checks out.
 *
 * ```
 * page                                              server
 *  │ hello { mode, nonce, session? } ──────────────▶ │
 *  │ ◀────────────── challenge { nonce, salt | proof } │   resume: proof = server's HMAC
 *  │ proof { proof } ──────────────────────────────▶ │
 *  │ ◀──────────────────────────── paired { proof? } │   pair: proof = server's HMAC
 * ```
 * Either side may answer `rejected { reason }` instead; the server then closes with 4003.
 */

/** Version of the handshake; a hello naming another one is refused. */
export const HANDSHAKE_VERSION = 2

/** PBKDF2-SHA-256 iterations that turn a code into its HMAC key (fixed: never negotiated). */
export const CODE_KDF_ITERATIONS = 100_000

/** Length in characters of a nonce or proof (32 bytes, base64url). */
export const PROOF_LENGTH = 43
/** Length in characters of the code key's salt (16 bytes, base64url). */
export const SALT_LENGTH = 22
/** Length in characters of a session id (16 bytes, base64url). */
export const SESSION_ID_LENGTH = 22

/** What the page proves it knows: the typed code, or the stored session token. */
export type HandshakeMode = 'pair' | 'resume'

/** Page → server, first frame. `session` names the stored token (resume only). */
export interface HelloMessage {
  type: 'hello'
  version: typeof HANDSHAKE_VERSION
  mode: HandshakeMode
  nonce: string
  session?: string
}

/** Server → page: its nonce, and the code key's salt (pair) or its own proof (resume). */
export interface ChallengeMessage {
  type: 'challenge'
  nonce: string
  salt?: string
  proof?: string
}

/** Page → server: the page's proof. */
export interface ProofMessage {
  type: 'proof'
  proof: string
}

/** Why the server turned a handshake down. */
export type HandshakeRejection =
  'bad_code' | 'expired_code' | 'bad_token' | 'invalid_handshake' | 'handshake_timeout'

/** Server → page. */
export type HandshakeReply =
  | ChallengeMessage
  | { type: 'paired'; proof?: string }
  | { type: 'rejected'; reason: HandshakeRejection }

/** Close codes the server uses, so the page knows whether to reconnect. */
export const CloseCode = {
  /** A newer pairing took over: terminal, never reconnect. */
  superseded: 4001,
  /** The handshake failed: terminal for this attempt. */
  rejected: 4003,
} as const

/** Largest handshake frame either side accepts, in bytes. */
export const MAX_HANDSHAKE_BYTES = 4096

/** The facts both sides put in every MAC of one handshake. */
export interface Transcript {
  mode: HandshakeMode
  /** The loopback port the page dialled and the server listens on. */
  port: number
  pageNonce: string
  serverNonce: string
}

/** Who a MAC speaks for: each side's proof, and the next session token both derive. */
export type ProofRole = 'page' | 'server' | 'token'

/**
 * The exact text each MAC covers. The role keeps a proof from being reflected back as the
 * other side's; the port keeps a relay on another port from passing proofs through.
 */
export function transcriptText(role: ProofRole, transcript: Transcript): string {
  const { mode, port, pageNonce, serverNonce } = transcript
  return `toolmark-mcp/${HANDSHAKE_VERSION} ${role} ${mode} ${port} ${pageNonce} ${serverNonce}`
}

/** The text a session id is the MAC of (keyed by the token). */
export const SESSION_ID_TEXT = `toolmark-mcp/${HANDSHAKE_VERSION} session-id`

/** The code key's PBKDF2 salt prefix; the server's random salt follows it. */
export const CODE_SALT_PREFIX = `toolmark-mcp/${HANDSHAKE_VERSION} code `

/** Uppercases, drops separators and maps look-alikes (O → 0, I/L → 1), as Crockford base32 does. */
export function normalizeCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1')
}

const REJECTIONS: readonly string[] = [
  'bad_code',
  'expired_code',
  'bad_token',
  'invalid_handshake',
  'handshake_timeout',
]

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function parse(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string' || text.length > MAX_HANDSHAKE_BYTES) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return isRecord(value) ? value : undefined
  } catch {
    return undefined
  }
}

const keys = (value: Record<string, unknown>) => Object.keys(value).sort().join(',')

/** Whether a value is base64url text of exactly `length` characters. */
function isB64(value: unknown, length: number): value is string {
  return typeof value === 'string' && value.length === length && /^[A-Za-z0-9_-]+$/.test(value)
}

/** Parses a page's hello strictly; anything else is `undefined`. */
export function parseHello(text: unknown): HelloMessage | undefined {
  const value = parse(text)
  if (!value || value.type !== 'hello' || value.version !== HANDSHAKE_VERSION) return undefined
  if (!isB64(value.nonce, PROOF_LENGTH)) return undefined
  if (value.mode === 'pair' && keys(value) === 'mode,nonce,type,version') {
    return { type: 'hello', version: HANDSHAKE_VERSION, mode: 'pair', nonce: value.nonce }
  }
  if (
    value.mode === 'resume' &&
    keys(value) === 'mode,nonce,session,type,version' &&
    isB64(value.session, SESSION_ID_LENGTH)
  ) {
    return {
      type: 'hello',
      version: HANDSHAKE_VERSION,
      mode: 'resume',
      nonce: value.nonce,
      session: value.session,
    }
  }
  return undefined
}

/** Parses a page's proof strictly; anything else is `undefined`. */
export function parseProof(text: unknown): ProofMessage | undefined {
  const value = parse(text)
  if (!value || value.type !== 'proof' || keys(value) !== 'proof,type') return undefined
  return isB64(value.proof, PROOF_LENGTH) ? { type: 'proof', proof: value.proof } : undefined
}

/**
 * Parses a server frame strictly, for the step the page is at (`mode` says which challenge
 * fields must be there); anything else is `undefined`.
 */
export function parseReply(text: unknown, mode: HandshakeMode): HandshakeReply | undefined {
  const value = parse(text)
  if (!value) return undefined
  if (value.type === 'rejected' && keys(value) === 'reason,type') {
    return typeof value.reason === 'string' && REJECTIONS.includes(value.reason)
      ? { type: 'rejected', reason: value.reason as HandshakeRejection }
      : undefined
  }
  if (value.type === 'challenge' && isB64(value.nonce, PROOF_LENGTH)) {
    if (mode === 'pair' && keys(value) === 'nonce,salt,type' && isB64(value.salt, SALT_LENGTH)) {
      return { type: 'challenge', nonce: value.nonce, salt: value.salt }
    }
    if (
      mode === 'resume' &&
      keys(value) === 'nonce,proof,type' &&
      isB64(value.proof, PROOF_LENGTH)
    ) {
      return { type: 'challenge', nonce: value.nonce, proof: value.proof }
    }
    return undefined
  }
  if (value.type === 'paired') {
    if (mode === 'pair' && keys(value) === 'proof,type' && isB64(value.proof, PROOF_LENGTH)) {
      return { type: 'paired', proof: value.proof }
    }
    if (mode === 'resume' && keys(value) === 'type') return { type: 'paired' }
  }
  return undefined
}
