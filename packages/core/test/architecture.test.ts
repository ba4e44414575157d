import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const coreDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const doc = readFileSync(path.resolve(coreDir, '../../docs/architecture.md'), 'utf8')

/** The rows of the first table under a `## heading`, as lists of cells. */
function tableUnder(heading: string): string[][] {
  const start = doc.indexOf(`\n## ${heading}\n`)
  if (start === -1) throw new Error(`docs/architecture.md has no "## ${heading}"`)
  const lines = doc.slice(start).split('\n')
  const first = lines.findIndex((line) => line.startsWith('|'))
  const end = lines.findIndex((line, i) => i > first && !line.startsWith('|'))
  // The header row and the --- row, then the table's own rows up to the first other line.
  const table = lines.slice(first + 2, end).map((row) =>
    row
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim()),
  )
  return table
}

describe('docs/architecture.md', () => {
  it('lists every folder of @toolmark/core once, and no folder that is not there', () => {
    const listed = tableUnder('Folders of `@toolmark/core`').flatMap(([first]) =>
      [...first.matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1]),
    )
    const folders = readdirSync(path.join(coreDir, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
    expect([...listed].sort()).toEqual([...folders].sort())
    expect(new Set(listed).size).toBe(listed.length)
  })

  it('says the root holds only index.ts and types.ts, as it does', () => {
    expect(doc).toContain('The root holds only `index.ts` (the public entry) and `types.ts`')
    const files = readdirSync(path.join(coreDir, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
    expect(files.sort()).toEqual(['index.ts', 'types.ts'])
  })

  it('names real folders in the layer order of core', () => {
    const order =
      /Inside core's own layer the folders stack, lowest first: (.+?); then the folders built/.exec(
        doc.replace(/\s+/g, ' '),
      )
    expect(order).not.toBeNull()
    const named = [...order![1].matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1])
    expect(named.length).toBeGreaterThan(5)
    for (const folder of named) expect(readdirSync(path.join(coreDir, 'src'))).toContain(folder)
  })
})
