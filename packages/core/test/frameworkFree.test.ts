import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createToolmark, ok } from '../src/index'
import { createTestToolmark } from '../src/testing'

// If core touched React anywhere, this empty stand-in would break it.
vi.mock('react', () => ({}))
vi.mock('react-dom', () => ({}))

const coreDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return /\.tsx?$/.test(entry.name) ? [full] : []
  })

const importSpecifiers = (source: string): string[] => {
  const found: string[] = []
  // Statements only (at the start of a line), so prose in comments and strings is not counted.
  const pattern =
    /^\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm
  for (const match of source.matchAll(pattern)) found.push(match[1] ?? match[2] ?? match[3])
  return found
}

/** Each source under `dir` with the sources it imports (relative imports, type imports included). */
function importGraph(dir: string): Map<string, string[]> {
  const files = sourceFiles(dir)
  const resolve = (from: string, specifier: string): string | undefined => {
    // `./x.js` names `./x.ts` in sources compiled for Node.
    const base = path.resolve(path.dirname(from), specifier).replace(/\.js$/, '')
    return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((f) => files.includes(f))
  }
  return new Map(
    files.map((file) => [
      file,
      importSpecifiers(readFileSync(file, 'utf8'))
        .filter((s) => s.startsWith('.'))
        .map((s) => resolve(file, s))
        .filter((f): f is string => f !== undefined),
    ]),
  )
}

/** The loops of a graph, each as its nodes from the first back to it. */
function loopsOf(graph: Map<string, readonly string[]>, name: (node: string) => string): string[] {
  const cycles: string[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const stack: string[] = []
  const visit = (node: string) => {
    state.set(node, 'visiting')
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'visiting') {
        const loop = stack.slice(stack.indexOf(next)).concat(next)
        cycles.push(loop.map(name).join(' → '))
      } else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(node, 'done')
  }
  for (const node of graph.keys()) if (!state.has(node)) visit(node)
  return cycles
}

/** The import cycles among the sources under `dir` (relative imports, type imports included). */
const importCycles = (dir: string): string[] =>
  loopsOf(importGraph(dir), (f) => path.relative(dir, f))

/**
 * The loops between the folders under `dir`: a folder imports another when any of its files
 * does. A file at the top is a layer of its own (`types.ts`), except the entry (`index.ts`),
 * which imports every layer and is imported by none.
 */
function folderLoops(dir: string): string[] {
  const layerOf = (file: string): string | undefined => {
    const parts = path.relative(dir, file).split(path.sep)
    if (parts.length > 1) return `${parts[0]}/`
    return parts[0] === 'index.ts' ? undefined : parts[0]
  }
  const layers = new Map<string, Set<string>>()
  for (const [file, imports] of importGraph(dir)) {
    const from = layerOf(file)
    if (from === undefined) continue
    const out = layers.get(from) ?? new Set<string>()
    layers.set(from, out)
    for (const target of imports) {
      const to = layerOf(target)
      if (to !== undefined && to !== from) out.add(to)
    }
  }
  return loopsOf(new Map([...layers].map(([k, v]) => [k, [...v].sort()])), (layer) => layer)
}

const repoDir = path.resolve(coreDir, '../..')

describe('no import cycles, type imports included', () => {
  it.each([
    ['@toolmark/core', path.join(coreDir, 'src')],
    ['@toolmark/react', path.join(repoDir, 'src')],
    ['@toolmark/mcp', path.join(repoDir, 'packages/mcp/src')],
  ])('in the sources of %s', (_, dir) => {
    expect(sourceFiles(dir).length).toBeGreaterThan(10)
    expect(importCycles(dir)).toEqual([])
  })

  it('has no loop between the folders of @toolmark/core, type imports included', () => {
    expect(folderLoops(path.join(coreDir, 'src'))).toEqual([])
  })

  it('has no loop between the sub-folders of forms/ (values, files, fill, steps, dom)', () => {
    const forms = path.join(coreDir, 'src/forms')
    const folders = readdirSync(forms, { withFileTypes: true }).filter((e) => e.isDirectory())
    expect(folders.map((e) => e.name).sort()).toEqual(['dom', 'files', 'fill', 'steps', 'values'])
    expect(folderLoops(forms)).toEqual([])
  })

  it('finds a loop between two folders, though no file imports itself', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'toolmark-layers-'))
    try {
      for (const folder of ['low', 'high']) mkdirSync(path.join(dir, folder))
      writeFileSync(
        path.join(dir, 'low/a.ts'),
        "import type { C } from '../high/c'\nexport type A = C\n",
      )
      writeFileSync(path.join(dir, 'low/b.ts'), 'export type B = string\n')
      writeFileSync(
        path.join(dir, 'high/c.ts'),
        "import type { B } from '../low/b'\nexport type C = B\n",
      )
      writeFileSync(
        path.join(dir, 'index.ts'),
        "export * from './low/a'\nexport * from './high/c'\n",
      )
      expect(importCycles(dir)).toEqual([])
      // One loop, whichever folder the walk meets first.
      const loops = folderLoops(dir)
      expect(loops).toHaveLength(1)
      expect(new Set(loops[0].split(' → '))).toEqual(new Set(['high/', 'low/']))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('takes reportError from its own module, never through createToolmark', () => {
    const through = sourceFiles(path.join(coreDir, 'src')).filter((file) =>
      /import\s*\{[^}]*\breportError\b[^}]*\}\s*from\s*['"][^'"]*createToolmark['"]/.test(
        readFileSync(file, 'utf8'),
      ),
    )
    expect(through.map((f) => path.relative(coreDir, f))).toEqual([])
  })

  it('finds a cycle made of type imports only', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'toolmark-cycles-'))
    try {
      writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b'\nexport type A = B[]\n")
      writeFileSync(path.join(dir, 'b.tsx'), "import type { A } from './a.js'\nexport type B = A\n")
      writeFileSync(path.join(dir, 'c.ts'), "import type { A } from './a'\nexport type C = A\n")
      expect(importCycles(dir)).toEqual(['a.ts → b.tsx → a.ts'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('framework-free core', () => {
  it('imports and runs a call while react is mocked to an empty module', async () => {
    const tm = createToolmark()
    tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })
    expect(await tm.call('ping')).toEqual({ status: 'ok', data: 'pong' })
    const test = createTestToolmark({ answer: 'approve' })
    test.register({
      name: 'close',
      description: 'Closes',
      hints: { consequential: true },
      run: () => ok(1),
    })
    expect(await test.call('close', {}, { caller: 'mcp' })).toEqual({ status: 'ok', data: 1 })
  })

  it('declares no runtime dependencies in packages/core/package.json', () => {
    const pkg = JSON.parse(readFileSync(path.join(coreDir, 'package.json'), 'utf8'))
    expect(pkg.dependencies ?? {}).toEqual({})
    expect(pkg.peerDependencies ?? {}).toEqual({})
  })

  it('imports nothing but its own files in any core source', () => {
    const files = sourceFiles(path.join(coreDir, 'src'))
    expect(files.length).toBeGreaterThan(10)
    const outside: string[] = []
    let seen = 0
    for (const file of files) {
      for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
        seen++
        if (!specifier.startsWith('.'))
          outside.push(`${path.relative(coreDir, file)}: ${specifier}`)
      }
    }
    expect(seen).toBeGreaterThan(50)
    expect(outside).toEqual([])
  })

  it('names no React, react-hook-form or TanStack module in any core source', () => {
    for (const file of sourceFiles(path.join(coreDir, 'src'))) {
      const source = readFileSync(file, 'utf8')
      expect(source, file).not.toMatch(
        /from\s+['"](react|react-dom|react-hook-form|@tanstack\/[^'"]+)['"]/,
      )
      expect(source, file).not.toMatch(/require\(\s*['"]react/)
    }
  })
})
