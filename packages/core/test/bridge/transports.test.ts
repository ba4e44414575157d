import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  createInPageChannel,
  postMessageTransport,
  websocketTransport,
} from '@toolmark/core/bridge'
import type { PostMessageEventLike, WebSocketLike } from '@toolmark/core/bridge'

afterEach(() => {
  vi.useRealTimers()
})

describe('createInPageChannel', () => {
  it('delivers JSON text to the other end, asynchronously', async () => {
    const { page, agent } = createInPageChannel()
    const got = vi.fn()
    const own = vi.fn()
    agent.onMessage(got)
    page.onMessage(own)
    page.send('{"a":1}')
    expect(got).not.toHaveBeenCalled()
    await Promise.resolve()
    expect(got).toHaveBeenCalledWith('{"a":1}')
    expect(own).not.toHaveBeenCalled()
  })

  it('turns a non-string into JSON text, like a wire would', async () => {
    const { page, agent } = createInPageChannel()
    const got = vi.fn()
    page.onMessage(got)
    agent.send({ when: new Date(0) } as never)
    await Promise.resolve()
    expect(got).toHaveBeenCalledWith('{"when":"1970-01-01T00:00:00.000Z"}')
  })

  it('isolates a throwing listener and stops after close or unsubscribe', async () => {
    const channel = createInPageChannel()
    const second = vi.fn()
    channel.agent.onMessage(() => {
      throw new Error('broken')
    })
    const unsubscribe = channel.agent.onMessage(second)
    channel.page.send('1')
    await Promise.resolve()
    expect(second).toHaveBeenCalledTimes(1)
    unsubscribe()
    channel.page.send('2')
    await Promise.resolve()
    expect(second).toHaveBeenCalledTimes(1)
    const third = vi.fn()
    channel.agent.onMessage(third)
    channel.page.send('3')
    channel.close()
    await Promise.resolve()
    expect(third).not.toHaveBeenCalled()
  })
})

/** A window stand-in: records what is posted to it and dispatches `message` events. */
function fakeWindow() {
  const listeners = new Set<(event: PostMessageEventLike) => void>()
  return {
    posted: [] as [unknown, string][],
    postMessage(message: unknown, targetOrigin: string) {
      this.posted.push([message, targetOrigin])
    },
    addEventListener: (_type: 'message', l: (event: PostMessageEventLike) => void) =>
      listeners.add(l),
    removeEventListener: (_type: 'message', l: (event: PostMessageEventLike) => void) =>
      listeners.delete(l),
    dispatch: (event: PostMessageEventLike) => [...listeners].forEach((l) => l(event)),
    listenerCount: () => listeners.size,
  }
}

describe('postMessageTransport', () => {
  it('refuses wildcard and inexact origins at once', () => {
    const target = fakeWindow()
    for (const origin of [
      '*',
      '/',
      'https://a.example/',
      'https://a.example/path',
      'a.example',
      'null',
    ]) {
      expect(() =>
        postMessageTransport({ target, targetOrigin: origin, listenOn: target }),
      ).toThrow(/exact origin/)
    }
    expect(() =>
      postMessageTransport({
        target,
        targetOrigin: 'https://a.example',
        allowedOrigins: ['*'],
        listenOn: target,
      }),
    ).toThrow(/allowedOrigins\[0\]/)
  })

  it('posts to the exact target origin', () => {
    const target = fakeWindow()
    const transport = postMessageTransport({
      target,
      targetOrigin: 'https://assistant.example',
      listenOn: fakeWindow(),
    })
    transport.send('{"x":1}')
    expect(target.posted).toEqual([['{"x":1}', 'https://assistant.example']])
  })

  it('accepts text only from the expected source and an allowed origin', () => {
    const frame = fakeWindow()
    const self = fakeWindow()
    const stranger = fakeWindow()
    const transport = postMessageTransport({
      target: frame,
      targetOrigin: 'https://assistant.example',
      allowedOrigins: ['https://assistant.example', 'https://other.example'],
      listenOn: self,
    })
    const got = vi.fn()
    const stop = transport.onMessage(got)
    self.dispatch({ source: frame, origin: 'https://assistant.example', data: 'ok-1' })
    self.dispatch({ source: frame, origin: 'https://other.example', data: 'ok-2' })
    self.dispatch({ source: stranger, origin: 'https://assistant.example', data: 'wrong source' })
    self.dispatch({ source: frame, origin: 'https://evil.example', data: 'wrong origin' })
    self.dispatch({ source: frame, origin: 'https://assistant.example', data: { not: 'text' } })
    expect(got.mock.calls).toEqual([['ok-1'], ['ok-2']])
    stop()
    expect(self.listenerCount()).toBe(0)
  })

  it('sends and receives nothing after close', () => {
    const frame = fakeWindow()
    const self = fakeWindow()
    const transport = postMessageTransport({
      target: frame,
      targetOrigin: 'https://assistant.example',
      listenOn: self,
    })
    const got = vi.fn()
    transport.onMessage(got)
    transport.close!()
    transport.send('x')
    self.dispatch({ source: frame, origin: 'https://assistant.example', data: 'late' })
    expect(frame.posted).toEqual([])
    expect(got).not.toHaveBeenCalled()
    expect(self.listenerCount()).toBe(0)
  })
})

/** A controllable WebSocket: the test opens, closes and feeds each instance. */
class FakeSocket implements WebSocketLike {
  static all: FakeSocket[] = []
  readyState = 0
  sent: string[] = []
  closedWith?: number
  private listeners = new Map<string, Set<(event: any) => void>>()
  constructor(
    readonly url: string | URL,
    readonly protocols?: string | string[],
  ) {
    FakeSocket.all.push(this)
  }
  send(data: string) {
    if (this.readyState !== 1) throw new Error('not open')
    this.sent.push(data)
  }
  close(code?: number) {
    this.closedWith = code
    this.drop()
  }
  addEventListener(type: string, listener: (event: any) => void) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set())
    this.listeners.get(type)!.add(listener)
  }
  removeEventListener(type: string, listener: (event: any) => void) {
    this.listeners.get(type)?.delete(listener)
  }
  fire(type: string, event: object = {}) {
    for (const listener of [...(this.listeners.get(type) ?? [])]) listener(event)
  }
  open() {
    this.readyState = 1
    this.fire('open')
  }
  receive(data: unknown) {
    this.fire('message', { data })
  }
  drop() {
    if (this.readyState === 3) return
    this.readyState = 3
    this.fire('error')
    this.fire('close', { code: 1006 })
  }
}

describe('websocketTransport', () => {
  afterEach(() => {
    FakeSocket.all = []
  })

  it('dials on first use with the given protocols, and sends text frames once open', () => {
    const transport = websocketTransport({
      url: 'wss://app.example/agent',
      protocols: ['toolmark.v1'],
      WebSocket: FakeSocket,
    })
    expect(FakeSocket.all).toHaveLength(0)
    transport.send('one')
    const [socket] = FakeSocket.all
    expect(socket.url).toBe('wss://app.example/agent')
    expect(socket.protocols).toEqual(['toolmark.v1'])
    expect(socket.sent).toEqual([])
    socket.open()
    transport.send('two')
    expect(socket.sent).toEqual(['one', 'two'])
    transport.close!()
  })

  it('drops binary and oversized inbound frames, counting UTF-8 bytes', () => {
    const transport = websocketTransport({
      url: 'wss://app.example',
      WebSocket: FakeSocket,
      maxMessageBytes: 10,
    })
    const got = vi.fn()
    transport.onMessage(got)
    const [socket] = FakeSocket.all
    socket.open()
    socket.receive('0123456789')
    socket.receive('01234567890')
    socket.receive('ééééé!') // 11 bytes in 6 characters
    socket.receive(new Uint8Array([1, 2]))
    expect(got.mock.calls).toEqual([['0123456789']])
    transport.close!()
  })

  it('reconnects with growing, jittered delays and flushes the outbox in order', async () => {
    vi.useFakeTimers()
    vi.spyOn(Math, 'random').mockReturnValue(0) // no jitter: delay = the full backoff step
    const transport = websocketTransport({
      url: 'wss://app.example',
      WebSocket: FakeSocket,
      backoff: { initialMs: 100, maxMs: 1_000, factor: 2, jitter: 0.5 },
    })
    const got = vi.fn()
    transport.onMessage(got)
    FakeSocket.all[0].drop()
    await vi.advanceTimersByTimeAsync(99)
    expect(FakeSocket.all).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(FakeSocket.all).toHaveLength(2)
    FakeSocket.all[1].drop()
    await vi.advanceTimersByTimeAsync(199)
    expect(FakeSocket.all).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(FakeSocket.all).toHaveLength(3)
    transport.send('queued-1')
    transport.send('queued-2')
    FakeSocket.all[2].open()
    expect(FakeSocket.all[2].sent).toEqual(['queued-1', 'queued-2'])
    FakeSocket.all[2].receive('hello')
    expect(got).toHaveBeenCalledWith('hello')
    // A successful open resets the backoff.
    FakeSocket.all[2].drop()
    await vi.advanceTimersByTimeAsync(100)
    expect(FakeSocket.all).toHaveLength(4)
    vi.mocked(Math.random).mockReturnValue(0.999)
    FakeSocket.all[3].drop()
    // With full jitter chance the delay shrinks by up to half: 200 × (1 − 0.5 × 0.999).
    await vi.advanceTimersByTimeAsync(101)
    expect(FakeSocket.all).toHaveLength(5)
    transport.close!()
    vi.restoreAllMocks()
  })

  it('caps the backoff at maxMs', async () => {
    vi.useFakeTimers()
    vi.spyOn(Math, 'random').mockReturnValue(0)
    const transport = websocketTransport({
      url: 'wss://app.example',
      WebSocket: FakeSocket,
      backoff: { initialMs: 100, maxMs: 300, factor: 10 },
    })
    transport.onMessage(() => {})
    for (const wait of [100, 300, 300]) {
      const count = FakeSocket.all.length
      FakeSocket.all[count - 1].drop()
      await vi.advanceTimersByTimeAsync(wait - 1)
      expect(FakeSocket.all).toHaveLength(count)
      await vi.advanceTimersByTimeAsync(1)
      expect(FakeSocket.all).toHaveLength(count + 1)
    }
    transport.close!()
    vi.restoreAllMocks()
  })

  it('keeps a bounded outbox while disconnected, dropping the oldest', () => {
    const transport = websocketTransport({
      url: 'wss://app.example',
      WebSocket: FakeSocket,
      outboxLimit: 3,
    })
    for (const text of ['1', '2', '3', '4', '5']) transport.send(text)
    FakeSocket.all[0].open()
    expect(FakeSocket.all[0].sent).toEqual(['3', '4', '5'])
    transport.close!()
  })

  it('treats close as final: no reconnect, nothing sent or delivered', async () => {
    vi.useFakeTimers()
    const transport = websocketTransport({ url: 'wss://app.example', WebSocket: FakeSocket })
    const got = vi.fn()
    transport.onMessage(got)
    const [socket] = FakeSocket.all
    socket.open()
    transport.close!()
    expect(socket.closedWith).toBe(1000)
    transport.send('late')
    socket.receive('late')
    await vi.advanceTimersByTimeAsync(60_000)
    expect(FakeSocket.all).toHaveLength(1)
    expect(socket.sent).toEqual([])
    expect(got).not.toHaveBeenCalled()
  })

  it('wraps one accepted socket without ever redialling it', async () => {
    vi.useFakeTimers()
    const socket = new FakeSocket('server-side')
    socket.readyState = 1
    const transport = websocketTransport({ socket })
    transport.send('hi')
    expect(socket.sent).toEqual(['hi'])
    socket.drop()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(FakeSocket.all).toHaveLength(1)
  })

  it('redials through a socket factory', async () => {
    vi.useFakeTimers()
    const factory = vi.fn(() => new FakeSocket('factory'))
    const transport = websocketTransport({ socket: factory, backoff: { initialMs: 10, jitter: 0 } })
    transport.onMessage(() => {})
    FakeSocket.all[0].drop()
    await vi.advanceTimersByTimeAsync(10)
    expect(factory).toHaveBeenCalledTimes(2)
    transport.close!()
  })

  it('refuses to start without a url, a socket or a WebSocket constructor', () => {
    expect(() => websocketTransport({})).toThrow(/url|socket/)
    const saved = (globalThis as any).WebSocket
    ;(globalThis as any).WebSocket = undefined
    try {
      expect(() => websocketTransport({ url: 'ws://x' })).toThrow(/ws/)
    } finally {
      ;(globalThis as any).WebSocket = saved
    }
  })
})
