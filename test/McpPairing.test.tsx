import { StrictMode } from 'react'
import { act, fireEvent, render, screen } from '@testing-library/react'
import { createToolmark, ok } from '@toolmark/core'
import type { Toolmark } from '@toolmark/core'
import type { TokenStorage } from '@toolmark/mcp/client'
import { ToolProvider } from '@toolmark/react'
import { McpPairing } from '@toolmark/react/mcp'

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
  it('pairs with the typed code and shows the connection', async () => {
    const tm = createToolmark()
    tm.register({ name: 'echo', description: 'Echo', run: () => ok(1) })
    const storage = memory()
    const onStatusChange = renderPairing(tm, storage)

    expect(screen.getByRole('form', { name: 'Connect a desktop agent' })).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('Not connected.')
    expect(FakeSocket.all).toHaveLength(0)
    expect(screen.getByRole('button', { name: 'Connect' })).toBeDisabled()

    fireEvent.change(screen.getByLabelText('Pairing code'), { target: { value: ' k7qf-2m9d ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }))
    expect(screen.getByRole('status')).toHaveTextContent('Connecting…')
    const socket = FakeSocket.last()
    expect(socket.url).toBe('ws://127.0.0.1:17840')

    act(() => socket.open())
    expect(socket.sent).toEqual([{ type: 'pair', code: 'k7qf-2m9d' }])
    act(() => socket.reply({ type: 'paired', token: 'tok-1' }))

    expect(screen.getByRole('status')).toHaveTextContent(
      'Connected: the desktop agent can use the tools of this page.',
    )
    expect(screen.queryByLabelText('Pairing code')).not.toBeInTheDocument()
    expect(storage.map.get('toolmark:mcp:17840')).toBe('tok-1')
    expect(onStatusChange).toHaveBeenLastCalledWith('paired')
    // The bridge speaks protocol v1 on the same socket: its manifest follows the handshake.
    expect(socket.sent[1]).toMatchObject({
      protocol: 1,
      type: 'manifest',
      tools: [{ name: 'echo' }],
    })
  })

  it('explains a rejected or expired code and keeps the form', () => {
    const tm = createToolmark()
    renderPairing(tm, memory())
    fireEvent.change(screen.getByLabelText('Pairing code'), { target: { value: 'AAAA-AAAA' } })
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }))
    act(() => FakeSocket.last().open())
    act(() => FakeSocket.last().reply({ type: 'rejected', reason: 'bad_code' }))
    expect(screen.getByRole('status')).toHaveTextContent('That code was not accepted.')

    fireEvent.change(screen.getByLabelText('Pairing code'), { target: { value: 'BBBB-BBBB' } })
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }))
    act(() => FakeSocket.last().open())
    act(() => FakeSocket.last().reply({ type: 'rejected', reason: 'expired_code' }))
    expect(screen.getByRole('status')).toHaveTextContent('That code has expired.')
    expect(screen.getByLabelText('Pairing code')).toBeEnabled()
  })

  it('resumes a stored session on mount, once, under StrictMode', () => {
    const tm = createToolmark()
    renderPairing(tm, memory({ 'toolmark:mcp:17840': 'stored' }))
    const live = FakeSocket.all.filter((socket) => socket.readyState !== 3)
    expect(live).toHaveLength(1)
    act(() => live[0].open())
    expect(live[0].sent).toEqual([{ type: 'resume', token: 'stored' }])
    act(() => live[0].reply({ type: 'paired', token: 'rotated' }))
    expect(screen.getByRole('status')).toHaveTextContent('Connected')
  })

  it('says when another page took over, and when the saved session ended', () => {
    const tm = createToolmark()
    const storage = memory({ 'toolmark:mcp:17840': 'stored' })
    renderPairing(tm, storage)
    const socket = FakeSocket.all.find((s) => s.readyState !== 3)!
    act(() => socket.open())
    act(() => socket.reply({ type: 'paired', token: 'new' }))
    act(() => socket.close(4001))
    expect(screen.getByRole('status')).toHaveTextContent('Another page took over the connection.')
    expect(FakeSocket.all.filter((s) => s.readyState !== 3)).toHaveLength(0)

    fireEvent.change(screen.getByLabelText('Pairing code'), { target: { value: 'CCCC-CCCC' } })
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }))
    act(() => FakeSocket.last().open())
    act(() => FakeSocket.last().reply({ type: 'rejected', reason: 'bad_token' }))
    expect(screen.getByRole('status')).toHaveTextContent('The saved connection has ended.')
  })

  it('disconnects and forgets the session', () => {
    const tm = createToolmark()
    const storage = memory()
    const onStatusChange = renderPairing(tm, storage)
    fireEvent.change(screen.getByLabelText('Pairing code'), { target: { value: 'K7QF-2M9D' } })
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }))
    const socket = FakeSocket.last()
    act(() => socket.open())
    act(() => socket.reply({ type: 'paired', token: 'tok' }))

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
