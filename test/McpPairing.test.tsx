import { StrictMode } from 'react'
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { createToolmark, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import type { TokenStorage } from '@toolmark/mcp/client'
import { ToolProvider } from '@toolmark/react'
import { McpPairing } from '@toolmark/react/mcp'
import { transcriptText, type Transcript } from '../packages/mcp/src/handshake'
import { codeKey, mac, randomBase64Url } from '../packages/mcp/src/handshakeCrypto'
import { createPairing, type Pairing } from '../packages/mcp/src/pairing'

/** A WebSocket the test drives by hand: it opens, answers and closes when told. */
class FakeSocket {
  static all: FakeSocket[] = []
  readyState = 0
  sent: unknown[] = []
  closedWith: number | undefined
  private listeners = new Map<string, ((event: any) => void)[]>()
  constructor(public url: string) {
    FakeSocket.all.push(this)
  }
  static last(): FakeSocket {
    return FakeSocket.all[FakeSocket.all.length - 1]
  }
  addEventListener(type: string, listener: (event: any) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }
  private emit(type: string, event: unknown) {
    for (const listener of this.listeners.get(type) ?? []) listener(event)
  }
  send(data: string) {
    this.sent.push(JSON.parse(data))
  }
  close(code = 1000) {
    if (this.readyState === 3) return
    this.readyState = 3
    this.closedWith = code
    this.emit('close', { code })
  }
  open() {
    this.readyState = 1
    this.emit('open', {})
  }
  reply(message: object) {
    this.emit('message', { data: JSON.stringify(message) })
  }
}

/**
 * Plays `toolmark-mcp`'s side of the handshake on a fake socket with the server's own pairing
 * state, so the page's proofs are checked for real.
 */
async function serve(socket: FakeSocket, pairing: Pairing, port = 17840) {
  await waitFor(() => expect(socket.sent).toHaveLength(1))
  const hello = socket.sent[0] as { mode: 'pair' | 'resume'; nonce: string; session?: string }
  const transcript: Transcript = {
    mode: hello.mode,
    port,
    pageNonce: hello.nonce,
    serverNonce: randomBase64Url(32),
  }
  if (hello.mode === 'pair') {
    act(() =>
      socket.reply({ type: 'challenge', nonce: transcript.serverNonce, salt: pairing.salt }),
    )
    await waitFor(() => expect(socket.sent).toHaveLength(2))
    const outcome = await pairing.pair(transcript, (socket.sent[1] as { proof: string }).proof)
    if (!outcome.ok) throw new Error(`the page's proof failed: ${outcome.reason}`)
    await act(async () => socket.reply({ type: 'paired', proof: outcome.serverProof }))
    return outcome.token
  }
  const challenge = await pairing.resume(hello.session!, transcript)
  if (!challenge) throw new Error('unknown session')
  act(() =>
    socket.reply({
      type: 'challenge',
      nonce: transcript.serverNonce,
      proof: challenge.serverProof,
    }),
  )
  await waitFor(() => expect(socket.sent).toHaveLength(2))
  const outcome = await challenge.complete((socket.sent[1] as { proof: string }).proof)
  if (!outcome.ok) throw new Error('the page failed to resume')
  await act(async () => socket.reply({ type: 'paired' }))
  return outcome.token
}

/** A session token the pairing knows, as a page that paired before would have stored. */
async function pairedToken(pairing: Pairing): Promise<string> {
  const t: Transcript = {
    mode: 'pair',
    port: 17840,
    pageNonce: randomBase64Url(32),
    serverNonce: randomBase64Url(32),
  }
  const proof = await mac(
    await codeKey(pairing.currentCode().code, pairing.salt),
    transcriptText('page', t),
  )
  const outcome = await pairing.pair(t, proof)
  if (!outcome.ok) throw new Error('pairing failed')
  return outcome.token
}

function memory(entries: Record<string, string> = {}): TokenStorage & { map: Map<string, string> } {
  const map = new Map(Object.entries(entries))
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  }
}

function renderPairing(tm: Toolmark, storage: TokenStorage, onStatusChange = vi.fn()) {
  render(
    <StrictMode>
      <ToolProvider toolmark={tm}>
        <McpPairing WebSocket={FakeSocket} storage={storage} onStatusChange={onStatusChange} />
      </ToolProvider>
    </StrictMode>,
  )
  return onStatusChange
}

beforeEach(() => {
  FakeSocket.all = []
})

describe('McpPairing', () => {
  it('pairs with the typed code without sending it, and shows the connection', async () => {
    const tm = createToolmark()
    tm.register({ name: 'echo', description: 'Echo', run: () => ok(1) })
    const storage = memory()
    const pairing = createPairing()
    const code = pairing.currentCode().code
    const onStatusChange = renderPairing(tm, storage)

    expect(screen.getByRole('form', { name: 'Connect a desktop agent' })).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('Not connected.')
    expect(FakeSocket.all).toHaveLength(0)
    expect(screen.getByRole('button', { name: 'Connect' })).toBeDisabled()

    const typed = ` ${code.toLowerCase().replace('-', ' ')} `
    fireEvent.change(screen.getByLabelText('Pairing code'), { target: { value: typed } })
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }))
    expect(screen.getByRole('status')).toHaveTextContent('Connecting…')
    const socket = FakeSocket.last()
    expect(socket.url).toBe('ws://127.0.0.1:17840')

    act(() => socket.open())
    const token = await serve(socket, pairing)
    expect(socket.sent[0]).toEqual({
      type: 'hello',
      version: 2,
      mode: 'pair',
      nonce: expect.any(String),
    })
    expect(JSON.stringify(socket.sent)).not.toContain(code.replace('-', ''))

    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'Connected: the desktop agent can use the tools of this page.',
      ),
    )
    expect(screen.queryByLabelText('Pairing code')).not.toBeInTheDocument()
    expect(storage.map.get('toolmark:mcp:17840')).toBe(token)
    expect(onStatusChange).toHaveBeenLastCalledWith('paired')
    // The bridge speaks protocol v1 on the same socket: its manifest follows the handshake.
    expect(socket.sent[2]).toMatchObject({
      protocol: 1,
      type: 'manifest',
      tools: [{ name: 'echo' }],
    })
  })

  it('explains a rejected or expired code and keeps the form', async () => {
    const tm = createToolmark()
    renderPairing(tm, memory())
    fireEvent.change(screen.getByLabelText('Pairing code'), { target: { value: 'AAAAA-AAAAA' } })
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }))
    act(() => FakeSocket.last().open())
    await waitFor(() => expect(FakeSocket.last().sent).toHaveLength(1))
    act(() => FakeSocket.last().reply({ type: 'rejected', reason: 'bad_code' }))
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('That code was not accepted.'),
    )

    fireEvent.change(screen.getByLabelText('Pairing code'), { target: { value: 'BBBBB-BBBBB' } })
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }))
    act(() => FakeSocket.last().open())
    await waitFor(() => expect(FakeSocket.last().sent).toHaveLength(1))
    act(() => FakeSocket.last().reply({ type: 'rejected', reason: 'expired_code' }))
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('That code has expired.'),
    )
    expect(screen.getByLabelText('Pairing code')).toBeEnabled()
  })

  it('resumes a stored session on mount, once, under StrictMode', async () => {
    const tm = createToolmark()
    const pairing = createPairing()
    const stored = await pairedToken(pairing)
    const storage = memory({ 'toolmark:mcp:17840': stored })
    renderPairing(tm, storage)
    const live = FakeSocket.all.filter((socket) => socket.readyState !== 3)
    expect(live).toHaveLength(1)
    act(() => live[0].open())
    const rotated = await serve(live[0], pairing)
    expect(JSON.stringify(live[0].sent)).not.toContain(stored)
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Connected'))
    expect(storage.map.get('toolmark:mcp:17840')).toBe(rotated)
    expect(rotated).not.toBe(stored)
  })

  it('says so when the process on the port cannot prove it is toolmark-mcp', async () => {
    const tm = createToolmark()
    const storage = memory({ 'toolmark:mcp:17840': await pairedToken(createPairing()) })
    renderPairing(tm, storage)
    const socket = FakeSocket.all.find((s) => s.readyState !== 3)!
    act(() => socket.open())
    await waitFor(() => expect(socket.sent).toHaveLength(1))
    act(() =>
      socket.reply({
        type: 'challenge',
        nonce: randomBase64Url(32),
        proof: randomBase64Url(32),
      }),
    )
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        'The process on port 17840 could not prove it is the paired toolmark-mcp',
      ),
    )
    // It got the hello and nothing else, and the form is back for a new code.
    expect(socket.sent).toHaveLength(1)
    expect(socket.readyState).toBe(3)
    expect(screen.getByLabelText('Pairing code')).toBeEnabled()
  })

  it('says when another page took over, and when the saved session ended', async () => {
    const tm = createToolmark()
    const pairing = createPairing()
    const storage = memory({ 'toolmark:mcp:17840': await pairedToken(pairing) })
    renderPairing(tm, storage)
    const socket = FakeSocket.all.find((s) => s.readyState !== 3)!
    act(() => socket.open())
    await serve(socket, pairing)
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Connected'))
    act(() => socket.close(4001))
    expect(screen.getByRole('status')).toHaveTextContent('Another page took over the connection.')
    expect(FakeSocket.all.filter((s) => s.readyState !== 3)).toHaveLength(0)

    fireEvent.change(screen.getByLabelText('Pairing code'), { target: { value: 'CCCCC-CCCCC' } })
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }))
    act(() => FakeSocket.last().open())
    await waitFor(() => expect(FakeSocket.last().sent).toHaveLength(1))
    act(() => FakeSocket.last().reply({ type: 'rejected', reason: 'bad_token' }))
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('The saved connection has ended.'),
    )
  })

  it('disconnects and forgets the session', async () => {
    const tm = createToolmark()
    const storage = memory()
    const pairing = createPairing()
    const onStatusChange = renderPairing(tm, storage)
    fireEvent.change(screen.getByLabelText('Pairing code'), {
      target: { value: pairing.currentCode().code },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }))
    const socket = FakeSocket.last()
    act(() => socket.open())
    await serve(socket, pairing)
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Connected'))

    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }))
    expect(socket.closedWith).toBe(1000)
    expect(storage.map.size).toBe(0)
    expect(screen.getByRole('status')).toHaveTextContent('Not connected.')
    expect(onStatusChange).toHaveBeenLastCalledWith('idle')
  })

  it('closes its socket on unmount', () => {
    const tm = createToolmark()
    const { unmount } = render(
      <ToolProvider toolmark={tm}>
        <McpPairing
          WebSocket={FakeSocket}
          storage={memory({ 'toolmark:mcp:9000': 't' })}
          port={9000}
        />
      </ToolProvider>,
    )
    const socket = FakeSocket.last()
    expect(socket.url).toBe('ws://127.0.0.1:9000')
    unmount()
    expect(socket.readyState).toBe(3)
  })

  it('throws a helpful message outside a provider', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() => render(<McpPairing storage={memory()} />)).toThrow(
      '`McpPairing` must be used within `<ToolProvider>`',
    )
    spy.mockRestore()
  })
})
