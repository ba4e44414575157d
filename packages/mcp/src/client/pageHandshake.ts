import {
  HANDSHAKE_VERSION,
  parseReply,
  transcriptText,
  type HandshakeRejection,
  type HelloMessage,
  type Transcript,
} from '../handshake'
import { codeKey, mac, macMatches, randomBase64Url, sessionId, tokenKey } from '../handshakeCrypto'

/** What the page proves it knows. */
export type PageSecret = { mode: 'pair'; code: string } | { mode: 'resume'; token: string }

/** What to do after a server frame. */
export type HandshakeStep =
  /** Send this frame and wait for the next one. */
  | { kind: 'send'; frame: string }
  /** The server proved itself and accepted the page: the socket now carries protocol v1. */
  | { kind: 'paired'; token: string }
  /** The server said no (unauthenticated, so it only ever ends the attempt). */
  | { kind: 'rejected'; reason: HandshakeRejection }
  /** The peer answered, but not as a server that knows the secret. */
  | { kind: 'unverified' }

/** The page's half of one handshake on one socket (see `handshake.ts`). */
export interface PageHandshake {
  /** The first frame to send once the socket is open. */
  hello(): Promise<string>
  /** Handles one frame from the server, in order. */
  receive(text: unknown): Promise<HandshakeStep>
  /**
   * Whether the page sent a proof of its code to a peer that has not proved itself yet. Such a
   * peer could search the code offline, so the attempt must not be repeated with that code.
   */
  readonly proofSent: boolean
}

/**
 * Runs the page's side of the handshake for `secret` against the server on `port`. Nothing
 * derived from the secret leaves before the server proved itself, except the page's proof in
 * pair mode, which needs the server's proof back before the page trusts it.
 */
export function createPageHandshake(secret: PageSecret, port: number): PageHandshake {
  let step: 'start' | 'challenge' | 'paired' | 'done' = 'start'
  let pageNonce = ''
  let transcript: Transcript | undefined
  let key: CryptoKey | undefined
  let proofSent = false

  const end = (result: HandshakeStep): HandshakeStep => {
    step = 'done'
    return result
  }

  return {
    get proofSent() {
      return proofSent
    },
    async hello() {
      pageNonce = randomBase64Url(32)
      step = 'challenge'
      if (secret.mode === 'pair') {
        const hello: HelloMessage = {
          type: 'hello',
          version: HANDSHAKE_VERSION,
          mode: 'pair',
          nonce: pageNonce,
        }
        return JSON.stringify(hello)
      }
      key = await tokenKey(secret.token)
      const hello: HelloMessage = {
        type: 'hello',
        version: HANDSHAKE_VERSION,
        mode: 'resume',
        nonce: pageNonce,
        session: await sessionId(key),
      }
      return JSON.stringify(hello)
    },
    async receive(text) {
      if (step === 'done' || step === 'start') return end({ kind: 'unverified' })
      const reply = parseReply(text, secret.mode)
      if (!reply) return end({ kind: 'unverified' })
      if (reply.type === 'rejected') return end({ kind: 'rejected', reason: reply.reason })

      if (step === 'challenge' && reply.type === 'challenge') {
        transcript = { mode: secret.mode, port, pageNonce, serverNonce: reply.nonce }
        if (secret.mode === 'resume') {
          const proven = await macMatches(key!, transcriptText('server', transcript), reply.proof!)
          if (!proven) return end({ kind: 'unverified' })
        } else {
          key = await codeKey(secret.code, reply.salt!)
          proofSent = true
        }
        step = 'paired'
        const proof = await mac(key!, transcriptText('page', transcript))
        return { kind: 'send', frame: JSON.stringify({ type: 'proof', proof }) }
      }

      if (step === 'paired' && reply.type === 'paired' && transcript && key) {
        if (secret.mode === 'pair') {
          const proven = await macMatches(key, transcriptText('server', transcript), reply.proof!)
          if (!proven) return end({ kind: 'unverified' })
        }
        return end({ kind: 'paired', token: await mac(key, transcriptText('token', transcript)) })
      }
      return end({ kind: 'unverified' })
    },
  }
}
