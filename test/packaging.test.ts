// @vitest-environment node
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { addDeclarationExtensions, withExtensions } from '../scripts/declarationExtensions.mjs'
import { packageEntries } from '../scripts/packageEntries.mjs'

const root = path.resolve(__dirname, '..')

/** A declarations folder: `files` maps relative paths to their text. */
function declarations(files: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolmark-dts-'))
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    writeFileSync(path.join(dir, name), text)
  }
  return dir
}

describe('declaration imports for Node ESM resolution', () => {
  it('gives a file import .js and a folder import /index.js', () => {
    const dir = declarations({
      'index.d.ts': '',
      'a.d.ts': '',
      'forms/index.d.ts': '',
      'forms/fill.d.ts': '',
    })
    const text = [
      "export { a } from './a';",
      "import type { F } from './forms';",
      "export * from './forms/fill';",
      'declare const x: import("./a").A;',
      "import './a.js';",
    ].join('\n')
    expect(withExtensions(text, path.join(dir, 'index.d.ts'))).toBe(
      [
        "export { a } from './a.js';",
        "import type { F } from './forms/index.js';",
        "export * from './forms/fill.js';",
        'declare const x: import("./a.js").A;',
        "import './a.js';",
      ].join('\n'),
    )
  })

  it('resolves a parent folder import such as import("..")', () => {
    const dir = declarations({ 'index.d.ts': '', 'forms/fill.d.ts': '' })
    expect(withExtensions('type S = import("..").Schema', path.join(dir, 'forms/fill.d.ts'))).toBe(
      'type S = import("../index.js").Schema',
    )
  })

  it('leaves package imports alone', () => {
    const dir = declarations({ 'index.d.ts': '' })
    const text = "import type { Toolmark } from '@toolmark/core';\nimport { z } from 'zod';"
    expect(withExtensions(text, path.join(dir, 'index.d.ts'))).toBe(text)
  })

  it('fails on a relative import that names no declaration file', () => {
    const dir = declarations({ 'index.d.ts': '' })
    expect(() => withExtensions("export * from './gone';", path.join(dir, 'index.d.ts'))).toThrow(
      /cannot resolve "\.\/gone"/,
    )
  })

  it('rewrites every declaration file in a folder and counts the changed ones', () => {
    const dir = declarations({
      'index.d.ts': "export * from './a';",
      'a.d.ts': 'export declare const a = 1;',
      'nested/b.d.ts': "export * from '../a';",
    })
    expect(addDeclarationExtensions(dir)).toBe(2)
    expect(readFileSync(path.join(dir, 'nested/b.d.ts'), 'utf8')).toBe("export * from '../a.js';")
  })
})

describe('package entries read from exports', () => {
  it('lists every public entry of the kit with the source it is built from', () => {
    const entries = packageEntries(root)
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
    const subpaths = Object.keys(manifest.exports).filter((key) => key !== './package.json')
    expect(entries.map((entry) => entry.subpath)).toEqual(subpaths)
    const rhf = entries.find((entry) => entry.subpath === './rhf')
    expect(rhf).toMatchObject({
      specifier: '@toolmark/react/rhf',
      output: './dist/rhf/index.js',
      types: './dist/types/rhf/index.d.ts',
      source: path.join(root, 'src/rhf/index.ts'),
    })
  })

  it('names the fix when an entry does not follow the dist layout', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'toolmark-entries-'))
    writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({
        name: '@toolmark/example',
        exports: { './forms': { types: './dist/forms.d.ts', import: './dist/forms.js' } },
      }),
    )
    expect(() => packageEntries(dir)).toThrow(
      '@toolmark/example exports["./forms"] must be { "types": "./dist/types/forms/index.d.ts", "import": "./dist/forms/index.js" }',
    )
  })
})
