import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createToolmark, ok } from '../src/index'
import { CALLERS } from '../src/types'
import { isCaller } from '../src/base/guards'
import { CALLER_TRAITS, INLINE_CALLERS, POLICY_CALLERS, perCaller } from '../src/tool/callers'
import { compilePolicy } from '../src/tool/policy'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')

function sources(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) out.push(...sources(file))
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(file)
  }
  return out
}

const CALLER_KEY = new RegExp(`^\\s*(${CALLERS.join('|')})\\??\\s*:`)
const CALLER_STRING = new RegExp(`'(${CALLERS.join('|')})'`, 'g')
/** An array literal of caller names only. */
const CALLER_LIST = new RegExp(`\\[(\\s*'(?:${CALLERS.join('|')})'\\s*,?){2,}\\s*\\]`, 'g')

/**
 * The per-caller tables written out in a source file: object literals with two or more callers
 * as keys (a `Record<Caller, …>` by hand), and lists of two or more caller names.
 */
function handWrittenTables(text: string) {
  const lines = text.split('\n')
  const tables: { line: number; keys: string[] }[] = []
  lines.forEach((line, i) => {
    for (const list of line.matchAll(CALLER_LIST)) {
      tables.push({ line: i + 1, keys: [...list[0].matchAll(CALLER_STRING)].map((m) => m[1]) })
    }
  })
  for (let i = 0; i < lines.length; i++) {
    if (!CALLER_KEY.test(lines[i])) continue
    const indent = lines[i].search(/\S/)
    const keys: string[] = []
    let j = i
    // The keys of one literal: the caller keys at this indent until the literal closes.
    for (; j < lines.length; j++) {
      const at = lines[j].search(/\S/)
      if (at >= 0 && at < indent) break
      const key = at === indent ? CALLER_KEY.exec(lines[j])?.[1] : undefined
      if (key) keys.push(key)
    }
    if (keys.length >= 2) tables.push({ line: i + 1, keys })
    i = j
  }
  return tables
}

const CONFIGURABLE = CALLERS.filter((c) => CALLER_TRAITS[c].confirm === 'configurable')

describe('one list of callers', () => {
  it('derives the type guard, the traits, the policy callers and the inline callers from CALLERS', () => {
    expect(Object.keys(CALLER_TRAITS)).toEqual([...CALLERS])
    for (const caller of CALLERS) expect(isCaller(caller)).toBe(true)
    expect(isCaller('admin')).toBe(false)
    expect(isCaller('toString')).toBe(false)
    expect(POLICY_CALLERS).toEqual(CALLERS.filter((c) => c !== 'human'))
    expect(INLINE_CALLERS).toEqual(['webmcp', 'mcp', 'human', 'tour'])
    expect(Object.keys(perCaller(() => 0))).toEqual([...CALLERS])
    for (const caller of CALLERS)
      expect(
        Object.hasOwn(
          perCaller(() => 0),
          caller,
        ),
      ).toBe(true)
    expect(Object.keys(compilePolicy(undefined).callers)).toEqual([...CALLERS])
  })

  it('no source writes a per-caller table by hand unless it names every caller', () => {
    const files = [
      ...sources(path.join(root, 'packages/core/src')),
      ...sources(path.join(root, 'packages/mcp/src')),
      ...sources(path.join(root, 'src')),
    ]
    const missing: string[] = []
    for (const file of files) {
      const relative = path.relative(root, file)
      for (const table of handWrittenTables(readFileSync(file, 'utf8'))) {
        // The list itself.
        if (relative === path.join('packages/core/src/types.ts') && table.keys.length === 6) {
          continue
        }
        // A table of the callers one trait picks (the configurable ones, say) is derived too.
        const same = (set: readonly string[]) =>
          set.length === table.keys.length && set.every((c) => table.keys.includes(c))
        if (same(CONFIGURABLE) || same(POLICY_CALLERS)) continue
        const absent = CALLERS.filter((c) => !table.keys.includes(c))
        if (absent.length > 0) missing.push(`${relative}:${table.line} lacks ${absent.join(', ')}`)
      }
    }
    expect(missing).toEqual([])
  })

  it('finds a table that misses a caller (the scan can fail)', () => {
    const text = ['const modes = {', "  inapp: 'deferred',", "  webmcp: 'inline',", '}'].join('\n')
    expect(handWrittenTables(text)).toEqual([{ line: 2, keys: ['inapp', 'webmcp'] }])
    expect(handWrittenTables("const INLINE = ['webmcp', 'mcp']")).toHaveLength(1)
  })

  it('a polluted Object.prototype names no caller into access: a tool denied to the tour stays denied', async () => {
    const tm = createToolmark({ dev: true, policy: { tour: { tools: { deny: ['admin.*'] } } } })
    const runs: string[] = []
    tm.register({
      name: 'admin.setFlag',
      description: 'Sets a flag.',
      run: () => (runs.push('set'), ok(true)),
    })
    const proto = Object.prototype as Record<string, unknown>
    try {
      for (const caller of CALLERS) proto[caller] = 'ok'
      // Read the access of every caller once, so a cache is filled under the pollution.
      for (const caller of CALLERS) await tm.call('admin.setFlag', {}, { caller })
      const result = await tm.call('admin.setFlag', {}, { caller: 'tour' })
      expect(result).toMatchObject({ status: 'refused' })
    } finally {
      for (const caller of CALLERS) delete proto[caller]
    }
    // inapp, webmcp, mcp, test and human may; the tour may not.
    expect(runs).toHaveLength(5)
  })
})
