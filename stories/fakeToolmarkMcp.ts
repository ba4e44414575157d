import type { McpWebSocket, McpWebSocketConstructor, TokenStorage } from '@toolmark/mcp/client'
// The handshake is shared by the page and the server and runs on WebCrypto, so the stand-in
// below plays the server's side of it for real, in the browser.
import { transcriptText, type Transcript } from '../packages/mcp/src/handshake'
import {
  codeKey,
  mac,
  macMatches,
  randomBase64Url,
  sessionId,
  tokenKey,
} from '../packages/mcp/src/handshakeCrypto'

/** How the stand-in behaves, to show each state of the pairing box. */
export type FakeServerMode =
  /** Proves itself and pairs with the right code. */
  | 'honest'
  /** Answers every code with "expired". */
  | 'expired'
  /** Takes the page's proof but cannot prove it knows the code (not the real `toolmark-mcp`). */
  | 'impostor'
  /** Accepts the connection, then never answers. */
  | 'silent'

/**
 * A stand-in for a local `toolmark-mcp`, so stories show every pairing state without a server:
 * a WebSocket class for `<McpPairing WebSocket>`, a memory token storage, the code it "shows",
 * and what the page sent it once paired (the tools a desktop agent would see).
 */
export interface FakeToolmarkMcp {
  /** The one-time code the desktop agent would show. */
  code: string
  WebSocket: McpWebSocketConstructor
  storage: TokenStorage
  /** Tool names from the last manifest the paired page sent. */
  tools(): string[]
  /** Drops every connection and refuses new ones (the MCP client quit). */
  stop(): void
  /** Another page paired: the server closes this one's connection for good. */
  supersede(): void
}

const CONNECTING = 0
const OPEN = 1
const CLOSED = 3

export function createFakeToolmarkMcp({
  port,
  mode = 'honest',
  code = 'K7QF2-M9DXA',
}: {
  port: number
  mode?: FakeServerMode
  code?: string
}): FakeToolmarkMcp {
  const tokens = new Map<string, string>()
  const sockets = new Set<FakeSocket>()
  let manifest: string[] = []
  let running = true
  const memory = new Map<string, string>()

  class FakeSocket implements McpWebSocket {
    readyState = CONNECTING
    private listeners = new Map<string, ((event: unknown) => void)[]>()
    private transcript: Transcript | undefined
    private key: CryptoKey | undefined
    private salt = ''
    private paired = false

    constructor(url: string) {
      if (url !== `ws://127.0.0.1:${port}`) throw new Error(`Unexpected URL ${url}`)
      sockets.add(this)
      setTimeout(() => {
        if (!running) return this.close(1006)
        this.readyState = OPEN
        this.emit('open', {})
      }, 20)
    }

    addEventListener(type: string, listener: (event: unknown) => void) {
      this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
    }

    send(data: string) {
      if (this.readyState !== OPEN) return
      void this.receive(JSON.parse(data) as Record<string, string>)
    }

    close(code = 1000) {
      if (this.readyState === CLOSED) return
      this.readyState = CLOSED
      sockets.delete(this)
      setTimeout(() => this.emit('close', { code }), 0)
    }

    private emit(type: string, event: unknown) {
      for (const listener of this.listeners.get(type) ?? []) listener(event)
    }

    private reply(message: object) {
      if (this.readyState === OPEN) this.emit('message', { data: JSON.stringify(message) })
    }

    private async receive(message: Record<string, string>) {
      if (this.paired) {
        // Protocol v1 from the page's bridge: remember the tools it offers.
        const parsed = message as unknown as { type?: string; tools?: { name: string }[] }
        if (parsed.type === 'manifest') manifest = (parsed.tools ?? []).map((tool) => tool.name)
        return
      }
      if (mode === 'silent') return
      if (message.type === 'hello') {
        const serverNonce = randomBase64Url(32)
        this.transcript = {
          mode: message.mode as 'pair' | 'resume',
          port,
          pageNonce: message.nonce,
          serverNonce,
        }
        if (message.mode === 'resume') {
          const token = tokens.get(message.session)
          if (!token) return this.reject('bad_token')
          this.key = await tokenKey(token)
          const proof = await mac(this.key, transcriptText('server', this.transcript))
          return this.reply({ type: 'challenge', nonce: serverNonce, proof })
        }
        this.salt = randomBase64Url(16)
        return this.reply({ type: 'challenge', nonce: serverNonce, salt: this.salt })
      }
      if (message.type === 'proof' && this.transcript) {
        const key = this.key ?? (await codeKey(code, this.salt))
        const pageProven = await macMatches(
          key,
          transcriptText('page', this.transcript),
          message.proof,
        )
        if (mode === 'expired') return this.reject('expired_code')
        if (!pageProven)
          return this.reject(this.transcript.mode === 'pair' ? 'bad_code' : 'bad_token')
        const token = await mac(key, transcriptText('token', this.transcript))
        tokens.set(await sessionId(await tokenKey(token)), token)
        this.paired = true
        if (this.transcript.mode === 'resume') return this.reply({ type: 'paired' })
        const proof =
          mode === 'impostor'
            ? randomBase64Url(32)
            : await mac(key, transcriptText('server', this.transcript))
        return this.reply({ type: 'paired', proof })
      }
    }

    private reject(reason: string) {
      this.reply({ type: 'rejected', reason })
      this.close(4003)
    }
  }

  return {
    code,
    WebSocket: FakeSocket,
    storage: {
      getItem: (key) => memory.get(key) ?? null,
      setItem: (key, value) => void memory.set(key, value),
      removeItem: (key) => void memory.delete(key),
    },
    tools: () => manifest,
    stop() {
      running = false
      for (const socket of [...sockets]) socket.close(1006)
    },
    supersede() {
      for (const socket of [...sockets]) socket.close(4001)
    },
  }
}
