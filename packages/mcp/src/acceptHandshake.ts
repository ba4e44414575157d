import type { RawData, WebSocket } from 'ws'
import {
  CloseCode,
  MAX_HANDSHAKE_BYTES,
  parseHello,
  parseProof,
  type HandshakeRejection,
  type Transcript,
} from './handshake'
import { randomBase64Url } from './handshakeCrypto'
import type { Pairing, ResumeChallenge } from './pairing'
import { closeSoon, frameText, reply } from './socketFrames'
import type { ThrottledLog } from './throttledLog'

/** One socket between its upgrade and the end of its handshake. */
export interface PendingHandshake {
  /** `hello` waits for the page's hello; `failed` waits out its failure delay. */
  phase: 'hello' | 'preparing' | 'challenged' | 'checking' | 'failed'
  /** When the challenge was sent (`performance.now()`), once it was. */
  challengedAt?: number
  /** Cuts the socket at once, without an answer (it was pushed out). */
  drop(): void
}

/** What one socket's handshake needs from the pairing server. */
export interface HandshakeContext {
  /** The bound port, which the transcript names. */
  port(): number
  pairing: Pairing
  /** Time allowed for the whole handshake. */
  handshakeTimeoutMs: number
  /** Delay before a wrong code or token is answered. */
  failureDelayMs: number
  /** The sockets mid-handshake: this one is in it from its start until its handshake ends. */
  pending: Set<PendingHandshake>
  /** Where refused attempts are noted. */
  refusals: ThrottledLog
  /** Pairs the socket, once its handshake succeeded and it left `pending`. */
  promote(socket: WebSocket, origin: string, transcript: Transcript, proof?: string): void
}

/**
 * Runs the challenge–response handshake (`handshake.ts`) on one socket whose upgrade was
 * accepted: one frame per step, the whole of it within `handshakeTimeoutMs`, a wrong code or
 * token answered only after `failureDelayMs`. The socket is pending from now until it fails,
 * closes, is pushed out or is promoted.
 */
export function acceptHandshake(
  socket: WebSocket,
  origin: string,
  context: HandshakeContext,
): void {
  const { pairing, pending, refusals } = context
  let transcript: Transcript | undefined
  let resume: ResumeChallenge | undefined
  let penalty: ReturnType<typeof setTimeout> | undefined
  const entry: PendingHandshake = {
    phase: 'hello',
    drop() {
      leave()
      socket.terminate()
    },
  }
  pending.add(entry)
  const timer = setTimeout(() => fail('handshake_timeout', 0), context.handshakeTimeoutMs)
  socket.on('message', onFrame)
  socket.once('close', () => leave())

  function leave(): void {
    pending.delete(entry)
    clearTimeout(timer)
    clearTimeout(penalty)
    socket.off('message', onFrame)
  }

  function fail(reason: HandshakeRejection, delayMs: number): void {
    if (entry.phase === 'failed') return
    entry.phase = 'failed'
    clearTimeout(timer)
    socket.off('message', onFrame)
    refusals.note(
      `toolmark-mcp: ${transcript?.mode ?? 'handshake'} from ${origin} refused (${reason})`,
    )
    // The socket stays pending while it waits, so it is the first to go under load.
    penalty = setTimeout(() => {
      leave()
      reply(socket, { type: 'rejected', reason })
      closeSoon(socket, CloseCode.rejected, reason)
    }, delayMs)
  }

  const open = () => socket.readyState === socket.OPEN && pending.has(entry)

  async function onFrame(data: RawData, isBinary: boolean): Promise<void> {
    const text = frameText(data, isBinary)
    const fits = text !== undefined && Buffer.byteLength(text) <= MAX_HANDSHAKE_BYTES
    if (entry.phase === 'hello') {
      const hello = fits ? parseHello(text) : undefined
      if (!hello) return fail('invalid_handshake', 0)
      entry.phase = 'preparing'
      transcript = {
        mode: hello.mode,
        port: context.port(),
        pageNonce: hello.nonce,
        serverNonce: randomBase64Url(32),
      }
      if (hello.mode === 'pair') {
        entry.phase = 'challenged'
        entry.challengedAt = performance.now()
        reply(socket, {
          type: 'challenge',
          nonce: transcript.serverNonce,
          salt: pairing.salt,
        })
        return
      }
      resume = await pairing.resume(hello.session!, transcript)
      if (!open() || entry.phase !== 'preparing') return
      if (!resume) return fail('bad_token', context.failureDelayMs)
      entry.phase = 'challenged'
      entry.challengedAt = performance.now()
      reply(socket, {
        type: 'challenge',
        nonce: transcript.serverNonce,
        proof: resume.serverProof,
      })
      return
    }
    if (entry.phase !== 'challenged' || !transcript) {
      // Only one frame per step: anything sent out of turn ends the handshake.
      return fail('invalid_handshake', 0)
    }
    const proof = fits ? parseProof(text) : undefined
    if (!proof) return fail('invalid_handshake', 0)
    entry.phase = 'checking'
    const checked = transcript
    if (checked.mode === 'pair') {
      const outcome = await pairing.pair(checked, proof.proof)
      if (!open() || entry.phase !== 'checking') return
      if (!outcome.ok) return fail(outcome.reason, context.failureDelayMs)
      leave()
      context.promote(socket, origin, checked, outcome.serverProof)
      return
    }
    const outcome = await resume!.complete(proof.proof)
    if (!open() || entry.phase !== 'checking') return
    if (!outcome.ok) return fail(outcome.reason, context.failureDelayMs)
    leave()
    context.promote(socket, origin, checked)
  }
}
