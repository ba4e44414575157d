import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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

/** The import cycles among the sources under `dir` (relative imports, type imports included). */
function importCycles(dir: string): string[] {
  const files = sourceFiles(dir)
  const resolve = (from: string, specifier: string): string | undefined => {
    // `./x.js` names `./x.ts` in sources compiled for Node.
    const base = path.resolve(path.dirname(from), specifier).replace(/\.js$/, '')
    return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((f) => files.includes(f))
  }
  const graph = new Map(
    files.map((file) => [
      file,
      importSpecifiers(readFileSync(file, 'utf8'))
        .filter((s) => s.startsWith('.'))
        .map((s) => resolve(file, s))
        .filter((f): f is string => f !== undefined),
    ]),
  )
  const cycles: string[] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const stack: string[] = []
  const visit = (file: string) => {
    state.set(file, 'visiting')
    stack.push(file)
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'visiting') {
        const loop = stack.slice(stack.indexOf(next)).concat(next)
        cycles.push(loop.map((f) => path.relative(dir, f)).join(' → '))
      } else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(file, 'done')
  }
  for (const file of files) if (!state.has(file)) visit(file)
  return cycles
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
