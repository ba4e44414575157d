import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
// The React kit reports too (query and mutation tools), so its sources are scanned as well.
const scanned = ['packages/core/src', 'packages/mcp/src', 'src']

const sourceFiles = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name)
        if (entry.isDirectory()) return sourceFiles(full)
        return /\.tsx?$/.test(entry.name) && !/\.d\.ts$/.test(entry.name) ? [full] : []
      })
    : []

type Kind = 'refused' | 'cancelled' | 'code'

/** Every code the sources can emit, by kind, with the files that emit it. */
function emittedCodes(): Map<string, { kind: Kind; files: Set<string> }> {
  const found = new Map<string, { kind: Kind; files: Set<string> }>()
  const add = (code: string, kind: Kind, file: string) => {
    const key = `${kind}:${code}`
    const entry = found.get(key) ?? { kind, files: new Set<string>() }
    entry.files.add(path.relative(root, file))
    found.set(key, entry)
  }
  for (const dir of scanned) {
    for (const file of sourceFiles(path.join(root, dir))) {
      const source = readFileSync(file, 'utf8')
      for (const m of source.matchAll(/\brefuse\(\s*'([a-z_]+)'/g)) add(m[1], 'refused', file)
      for (const m of source.matchAll(/\bcancelled\(\s*'([a-z_]+)'/g)) add(m[1], 'cancelled', file)
      // A literal cancelled result; other `by` keys (who approved a confirmation) are not codes.
      for (const m of source.matchAll(/status:\s*'cancelled',\s*by:\s*'([a-z_]+)'/g)) {
        add(m[1], 'cancelled', file)
      }
      for (const m of source.matchAll(/\bcode:\s*'([a-z_]+)'/g)) add(m[1], 'code', file)
      for (const m of source.matchAll(/\b(?:misconfigured|toolError)\(\s*'([a-z_]+)'/g)) {
        add(m[1], 'code', file)
      }
    }
  }
  return found
}

/** The codes documented in docs/codes.md, by section heading. */
function documentedCodes(): Map<string, Set<string>> {
  const text = readFileSync(path.join(root, 'docs/codes.md'), 'utf8')
  const sections = new Map<string, Set<string>>()
  let heading = ''
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) {
      heading = line.slice(3).trim()
      sections.set(heading, new Set())
      continue
    }
    const row = /^\|\s*`([a-z_]+)`\s*\|/.exec(line)
    if (row && heading) sections.get(heading)!.add(row[1])
  }
  return sections
}

const inSections = (docs: Map<string, Set<string>>, test: (heading: string) => boolean) => {
  const out = new Set<string>()
  for (const [heading, codes] of docs) if (test(heading)) for (const c of codes) out.add(c)
  return out
}

describe('docs/codes.md', () => {
  const emitted = emittedCodes()
  const docs = documentedCodes()
  const refusedDocs = inSections(docs, (h) => /^Refused/i.test(h))
  const cancelledDocs = inSections(docs, (h) => /^Cancelled/i.test(h))
  const errorDocs = inSections(docs, (h) => /error events/i.test(h))
  const appDocs = inSections(docs, (h) => /for apps/i.test(h))

  it('finds codes in the sources (the scan works)', () => {
    const kinds = [...emitted.values()].map((e) => e.kind)
    expect(kinds.filter((k) => k === 'refused').length).toBeGreaterThan(5)
    expect(kinds.filter((k) => k === 'cancelled').length).toBe(3)
    expect(kinds.filter((k) => k === 'code').length).toBeGreaterThan(10)
  })

  it("finds the React kit's own codes in src/", () => {
    for (const code of ['query_failed', 'mutation_failed', 'undo_failed']) {
      const files = [...(emitted.get(`code:${code}`)?.files ?? [])]
      expect(files.some((file) => file.startsWith('src/query/'))).toBe(true)
    }
  })

  it('lists every refused code the sources emit, in the refused section', () => {
    const missing = [...emitted]
      .filter(([, e]) => e.kind === 'refused')
      .map(([key]) => key.slice('refused:'.length))
      .filter((code) => !refusedDocs.has(code))
    expect(missing).toEqual([])
  })

  it('lists every cancelled.by, in the cancelled section', () => {
    const by = [...emitted]
      .filter(([, e]) => e.kind === 'cancelled')
      .map(([key]) => key.split(':')[1])
    expect(by.sort()).toEqual(['operator', 'policy', 'signal'])
    expect([...cancelledDocs].sort()).toEqual(['operator', 'policy', 'signal'])
  })

  it('lists every other code (error events, literal refusals) in an error-event or refused section', () => {
    const missing = [...emitted]
      .filter(([, e]) => e.kind === 'code')
      .map(([key, e]) => [key.slice('code:'.length), [...e.files].join(', ')])
      .filter(([code]) => !errorDocs.has(code) && !refusedDocs.has(code))
    expect(missing).toEqual([])
  })

  it('lists no code the sources never emit, apart from the codes kept for apps', () => {
    const all = new Set([...emitted.keys()].map((key) => key.split(':')[1]))
    const documented = new Set([...refusedDocs, ...errorDocs])
    const unused = [...documented].filter((code) => !all.has(code) && !appDocs.has(code))
    expect(unused).toEqual([])
  })
})
