import { describe, expect, it } from 'vitest'
import { parseArgs } from '../src/args'
import { addOrigins, parseInteger, readFlags } from '../src/argv'
import { parseLintArgs } from '../src/lint/lintArgs'

/** Each flag with what `value()` (or `values()` for lists) took from the arguments after it. */
function read(argv: string[], lists: string[] = []) {
  const out: [string, unknown][] = []
  for (const token of readFlags(argv)) {
    out.push([token.flag, lists.includes(token.flag) ? token.values() : token.value()])
  }
  return out
}

describe('readFlags, shared by toolmark-mcp and toolmark-lint', () => {
  it('takes a value after = or from the next argument, and never a following -- flag', () => {
    expect(read(['--port=0', '--timeout', '5', '--format', '--rule'])).toEqual([
      ['--port', '0'],
      ['--timeout', '5'],
      ['--format', undefined],
      ['--rule', undefined],
    ])
  })

  it('takes a list up to the next flag, or split on commas after =', () => {
    expect(
      read(['--allow-origin', 'a', 'b', '-h', '--allow-origin=c,d'], ['--allow-origin']),
    ).toEqual([
      ['--allow-origin', ['a', 'b']],
      ['-h', undefined],
      ['--allow-origin', ['c', 'd']],
    ])
  })

  it('reads whole numbers in range only', () => {
    expect([
      parseInteger('42', 0, 100),
      parseInteger('101', 0, 100),
      parseInteger('-1', 0, 100),
    ]).toEqual([42, undefined, undefined])
    expect([
      parseInteger('1e3', 0, 1e6),
      parseInteger(undefined, 0, 1),
      parseInteger('9'.repeat(20), 0, 1e6),
    ]).toEqual([undefined, undefined, undefined])
  })

  it('adds each origin once and names the first value that is not one', () => {
    const into: string[] = []
    expect(
      addOrigins(['http://a.test/', ' http://a.test', 'https://b.test:8443'], into),
    ).toBeUndefined()
    expect(into).toEqual(['http://a.test', 'https://b.test:8443'])
    expect(addOrigins(['http://c.test', 'http://c.test/path'], into)).toBe(
      '--allow-origin: "http://c.test/path" is not an origin (use scheme://host[:port])',
    )
    expect(addOrigins([], into)).toBe('--allow-origin needs an origin')
  })

  it('gives both command lines the same origin rules', () => {
    const argv = ['--allow-origin', 'http://a.test', 'http://a.test', 'ftp://b.test']
    const problem = '--allow-origin: "ftp://b.test" is not an origin (use scheme://host[:port])'
    expect(parseArgs(argv)).toEqual({ kind: 'error', message: problem })
    expect(parseLintArgs(['m.json', ...argv])).toEqual({ kind: 'error', message: problem })
    const ok = ['--allow-origin', 'http://a.test', 'http://a.test']
    expect(parseArgs(ok)).toMatchObject({
      kind: 'run',
      options: { allowOrigins: ['http://a.test'] },
    })
    expect(parseLintArgs(['m.json', ...ok])).toMatchObject({
      kind: 'run',
      options: { allowOrigins: ['http://a.test'] },
    })
  })
})
