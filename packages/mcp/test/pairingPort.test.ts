import { describe, expect, it, vi } from 'vitest'
import { createToolmark, type ErrorEvent } from '@toolmark/core'
import {
  createMcpPairingObserver,
  forgetMcpSession,
  hasMcpSession,
  mcpPairing,
  type McpPairingStatus,
  type McpPairingStatusDetail,
  type McpWebSocket,
} from '@toolmark/mcp/client'
import { testStorage } from './harness'

/** Ports that are not ports, each with how a test title shows it: none may open a socket. */
const BAD_PORTS: [string, unknown][] = [
  ["'17840@evil.example'", '17840@evil.example'],
  ["'0'", '0'],
  ['65536', 65536],
  ['1.5', 1.5],
  ["'80 '", '80 '],
  ['-1', -1],
  ["'+80'", '+80'],
  ["'80/evil'", '80/evil'],
  ["'evil.example:80'", 'evil.example:80'],
  ["''", ''],
  ["'65536'", '65536'],
  ["'1e3'", '1e3'],
  ['NaN', Number.NaN],
  ['null', null],
  ['an object whose toString() is 80', { toString: () => '80' }],
]

/** A WebSocket constructor that records the URLs it is asked for and never connects. */
function recordingSocket() {
  const urls: string[] = []
  class Recorded implements McpWebSocket {
    readyState = 0
    constructor(url: string) {
      urls.push(url)
    }
    send() {}
    close() {
      this.readyState = 3
    }
    addEventListener() {}
  }
  return { urls, WebSocket: Recorded }
}

describe('mcpPairing: the port', () => {
  it.each(BAD_PORTS)(
    'production: port %s opens no socket, emits invalid_port and ends rejected (invalid_port)',
    (_, port) => {
      const tm = createToolmark({ dev: false })
      const errors: ErrorEvent[] = []
      tm.events.on('error', (event) => errors.push(event))
      const statuses: [McpPairingStatus, McpPairingStatusDetail][] = []
      const { urls, WebSocket } = recordingSocket()

      const dispose = tm.use(
        mcpPairing({
          code: 'K7QF2-M9DXA',
          port: port as number,
          WebSocket,
          storage: testStorage(),
          onStatus: (status, detail) => statuses.push([status, detail]),
        }),
      )
      dispose()

      expect(urls).toEqual([])
      expect(statuses).toEqual([['rejected', { reason: 'invalid_port' }]])
      expect(errors).toHaveLength(1)
      expect(errors[0].code).toBe('invalid_port')
      expect(errors[0].message).toMatch(/is not a port\. Give a whole number from 1 to 65535/)
    },
  )

  it.each(BAD_PORTS)(
    'development: port %s throws naming the fix, and opens no socket',
    (_, port) => {
      const tm = createToolmark({ dev: true })
      const { urls, WebSocket } = recordingSocket()
      expect(() =>
        tm.use(
          mcpPairing({
            code: 'K7QF2-M9DXA',
            port: port as number,
            WebSocket,
            storage: testStorage(),
          }),
        ),
      ).toThrow(/^\[toolmark\] mcpPairing\(\{ port \}\): .* is not a port\. Give a whole number/)
      expect(urls).toEqual([])
    },
  )

  it('the message shows a long bad value cut short', () => {
    const tm = createToolmark({ dev: true })
    const port = `17840@${'a'.repeat(500)}.example`
    expect(() => tm.use(mcpPairing({ code: 'K7QF2-M9DXA', port }))).toThrow(
      /"17840@a{34}…" is not a port/,
    )
  })

  it.each([
    [17840, 'ws://127.0.0.1:17840'],
    ['17840', 'ws://127.0.0.1:17840'],
    [1, 'ws://127.0.0.1:1'],
    ['65535', 'ws://127.0.0.1:65535'],
    [undefined, 'ws://127.0.0.1:17840'],
  ])('port %j connects to the loopback address only: %s', (port, url) => {
    const tm = createToolmark({ dev: true })
    const { urls, WebSocket } = recordingSocket()
    const dispose = tm.use(
      mcpPairing({ code: 'K7QF2-M9DXA', port, WebSocket, storage: testStorage() }),
    )
    dispose()
    expect(urls).toEqual([url])
  })

  it('a port given as digits finds the session stored for that port', () => {
    const storage = testStorage()
    storage.setItem('toolmark:mcp:17841', 'token')
    expect(hasMcpSession('17841', storage)).toBe(true)
    expect(hasMcpSession(17841, storage)).toBe(true)
    expect(hasMcpSession('17841@evil.example', storage)).toBe(false)
    forgetMcpSession('17841 ', storage)
    expect(hasMcpSession(17841, storage)).toBe(true)
    forgetMcpSession('17841', storage)
    expect(hasMcpSession(17841, storage)).toBe(false)
  })

  it('the observer’s resume with a bad port reports rejected (invalid_port) instead of staying idle; no socket', () => {
    const tm = createToolmark({ dev: false })
    const errors = vi.fn()
    tm.events.on('error', errors)
    const { urls, WebSocket } = recordingSocket()
    const pairing = createMcpPairingObserver(tm, {
      port: '17840@evil.example',
      WebSocket,
      storage: testStorage(),
    })

    expect(pairing.resume()).toBe(true)

    expect(pairing.getSnapshot()).toEqual({ status: 'rejected', reason: 'invalid_port' })
    expect(errors).toHaveBeenCalledWith(expect.objectContaining({ code: 'invalid_port' }))
    expect(urls).toEqual([])
    pairing.stop()
  })
})
