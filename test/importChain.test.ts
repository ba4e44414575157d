// @vitest-environment node
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { importGraph, longestChain } from '../scripts/import-chain.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const coreSrc = path.join(root, 'packages/core/src')

/** The paragraph of docs/architecture.md about the longest import chain, on one line. */
function chainParagraph(): string {
  const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8')
  const paragraph = doc
    .split(/\n\s*\n/)
    .find((block) => block.includes('node scripts/import-chain.mjs'))
  if (paragraph === undefined) throw new Error('docs/architecture.md names no import-chain count')
  return paragraph.replace(/\s+/g, ' ')
}

/** Writes `files` (path → source) into a fresh folder and returns it. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolmark-chain-'))
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    writeFileSync(path.join(dir, file), source)
  }
  return dir
}

describe('scripts/import-chain.mjs', () => {
  it('counts type imports, re-exports, side-effect imports, index files; a loop as one file', () => {
    const dir = tree({
      'index.ts': "export * from './a'\nexport { d } from './lib'\n",
      'a.ts': "import type { B } from './b'\nexport type A = B\n",
      'b.ts': "import './c.js'\nexport type B = string\n",
      'c.ts': "import { d } from './lib'\nexport const c = d\n",
      'lib/index.ts': "import { e } from './e'\nexport const d = e\n",
      'lib/e.ts': "import { f } from './f'\nexport const e = f\n",
      'lib/f.ts': "import { e } from './e'\nexport const f = 1\nexport const g = () => e\n",
    })
    try {
      expect(longestChain(dir)).toEqual({
        length: 6,
        chain: ['index.ts', 'a.ts', 'b.ts', 'c.ts', 'lib/index.ts', 'lib/e.ts ⇄ lib/f.ts'],
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('leaves out packages, files outside the folder, imports in comments or strings', () => {
    const dir = tree({
      'src/a.ts': [
        "import { z } from 'zod'",
        "import { outside } from '../outside'",
        "// import { b } from './b'",
        '/**',
        " * import { b } from './b'",
        ' */',
        "export const text = `see import { b } from './b'`",
        'export const a = [z, outside, text]',
        '',
      ].join('\n'),
      'src/b.ts': 'export const b = 1\n',
      'outside.ts': 'export const outside = 1\n',
    })
    try {
      expect([...importGraph(path.join(dir, 'src')).values()]).toEqual([[], []])
      expect(longestChain(path.join(dir, 'src')).length).toBe(1)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the longest import chain of @toolmark/core', () => {
  it('is 15 files at most', () => {
    expect(longestChain(coreSrc).length).toBeLessThanOrEqual(15)
  })

  it('is the count docs/architecture.md states', () => {
    const stated = /and is now (\d+) files/.exec(chainParagraph())
    expect(stated).not.toBeNull()
    expect(longestChain(coreSrc).length).toBe(Number(stated![1]))
  })

  it('is as long as the chain docs/architecture.md names, whose every import exists', () => {
    const named = /The longest chain now is (.+?)\. /.exec(chainParagraph())
    expect(named).not.toBeNull()
    const files = named![1].split(' → ').map((file) => /^`(.+)`$/.exec(file)![1])
    const graph = importGraph(coreSrc)
    for (const [i, file] of files.slice(0, -1).entries())
      expect(graph.get(path.join(coreSrc, file)), file).toContain(path.join(coreSrc, files[i + 1]))
    expect(files).toHaveLength(longestChain(coreSrc).length)
  })
})
