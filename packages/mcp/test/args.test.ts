import { describe, expect, it } from 'vitest'
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_PORT, normalizeOrigin, parseArgs } from '../src/args'
import { DEFAULT_PROGRESS_INTERVAL_MS } from '../src/progressReporter'

describe('parseArgs', () => {
  it('reads origins, port and call timeout with their defaults', () => {
    expect(parseArgs(['--allow-origin', 'http://localhost:5173'])).toEqual({
      kind: 'run',
      options: {
        allowOrigins: ['http://localhost:5173'],
        port: DEFAULT_PORT,
        callTimeoutMs: DEFAULT_CALL_TIMEOUT_MS,
        progressIntervalMs: DEFAULT_PROGRESS_INTERVAL_MS,
      },
    })
    expect(
      parseArgs([
        '--allow-origin',
        'http://localhost:5173',
        'https://app.example.com',
        '--port=0',
        '--call-timeout',
        '1500',
        '--allow-origin=http://127.0.0.1:3000',
        '--progress-interval=0',
      ]),
    ).toEqual({
      kind: 'run',
      options: {
        allowOrigins: ['http://localhost:5173', 'https://app.example.com', 'http://127.0.0.1:3000'],
        port: 0,
        callTimeoutMs: 1500,
        progressIntervalMs: 0,
      },
    })
  })

  it('answers help and version before anything else', () => {
    expect(parseArgs(['--help'])).toEqual({ kind: 'help' })
    expect(parseArgs(['-h'])).toEqual({ kind: 'help' })
    expect(parseArgs(['--version'])).toEqual({ kind: 'version' })
    expect(parseArgs(['-v'])).toEqual({ kind: 'version' })
  })

  it.each([
    [[], '--allow-origin is required'],
    [['--allow-origin'], '--allow-origin needs an origin'],
    [['--allow-origin', 'localhost:5173'], 'is not an origin'],
    [['--allow-origin', 'http://localhost:5173/app'], 'is not an origin'],
    [['--allow-origin', 'file:///tmp'], 'is not an origin'],
    [['--allow-origin', 'http://a.test', '--port', '70000'], '--port needs a number'],
    [['--allow-origin', 'http://a.test', '--port', 'abc'], '--port needs a number'],
    [['--allow-origin', 'http://a.test', '--port'], '--port needs a number'],
    [['--allow-origin', 'http://a.test', '--call-timeout', '0'], '--call-timeout needs'],
    [['--allow-origin', 'http://a.test', '--call-timeout', '-5'], '--call-timeout needs'],
    [['--allow-origin', 'http://a.test', '--progress-interval', '-1'], '--progress-interval needs'],
    [
      ['--allow-origin', 'http://a.test', '--progress-interval', '1.5'],
      '--progress-interval needs',
    ],
    [['--allow-origin', 'http://a.test', '--progress-interval'], '--progress-interval needs'],
    [['--allow-origin', 'http://a.test', '--verbose'], 'unknown option --verbose'],
    [['--allow-origin', 'http://a.test', '--help=yes'], '--help takes no value'],
  ])('turns %j into an error', (argv, message) => {
    const parsed = parseArgs(argv)
    expect(parsed.kind).toBe('error')
    expect(parsed.kind === 'error' && parsed.message).toContain(message)
  })

  it('treats a bare word as an unexpected argument', () => {
    expect(parseArgs(['serve'])).toEqual({ kind: 'error', message: 'unexpected argument "serve"' })
  })
})

describe('normalizeOrigin', () => {
  it('keeps scheme, host and port and drops a trailing slash', () => {
    expect(normalizeOrigin('HTTP://LocalHost:5173/')).toBe('http://localhost:5173')
    expect(normalizeOrigin('https://app.example.com:443')).toBe('https://app.example.com')
  })

  it('refuses anything that is not a bare http(s) origin', () => {
    expect(normalizeOrigin('http://user:pw@a.test')).toBeUndefined()
    expect(normalizeOrigin('http://a.test/?x=1')).toBeUndefined()
    expect(normalizeOrigin('ws://a.test')).toBeUndefined()
    expect(normalizeOrigin('*')).toBeUndefined()
  })
})
