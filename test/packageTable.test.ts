import { readFileSync } from 'node:fs'
import path from 'node:path'
import { root } from '../aliases'

/** The packages whose `exports` maps the README's table lists, by directory. */
const PACKAGES = ['packages/core', '.', 'packages/mcp']

/**
 * Every entry of a package's `exports` map as an import specifier, leaving out `./package.json`,
 * stylesheets and subpath patterns (`./protocol/schemas/*`: JSON files, not an entry of code).
 */
function exportEntries(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8')) as {
    name: string
    exports?: Record<string, unknown>
  }
  return Object.keys(manifest.exports ?? {})
    .filter((subpath) => subpath !== './package.json')
    .filter((subpath) => !subpath.endsWith('.css') && !subpath.includes('*'))
    .map((subpath) => (subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`))
}

/** The first column of the table under `## Packages` in `markdown`, backticks removed. */
function packageTableEntries(markdown: string): string[] {
  const lines = markdown.split('\n')
  const start = lines.findIndex((line) => line.trim() === '## Packages')
  if (start === -1) throw new Error('README.md has no "## Packages" section')
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '))
  const rows = lines
    .slice(start + 1, end === -1 ? undefined : end)
    .filter((line) => line.trim().startsWith('|'))
  // The header row and the separator row come first.
  return rows.slice(2).map((row) =>
    row
      .split('|')[1]
      .trim()
      .replace(/^`(.*)`$/, '$1'),
  )
}

/** What `listed` lacks of `expected`, and what it holds beyond it. */
function compare(listed: string[], expected: string[]) {
  return {
    missing: expected.filter((entry) => !listed.includes(entry)),
    extra: listed.filter((entry) => !expected.includes(entry)),
  }
}

describe("README's package table", () => {
  it('lists every entry of the exports maps of @toolmark/core, @toolmark/react and @toolmark/mcp, and nothing else', () => {
    const listed = packageTableEntries(readFileSync(path.join(root, 'README.md'), 'utf8'))
    const expected = PACKAGES.flatMap(exportEntries)
    expect(expected).toContain('@toolmark/core')
    expect(expected).toContain('@toolmark/react')
    expect(expected).toContain('@toolmark/mcp/client')
    expect(compare(listed, expected)).toEqual({ missing: [], extra: [] })
    // Once each.
    expect(new Set(listed).size).toBe(listed.length)
  })

  it('names what is missing and what is extra', () => {
    const markdown = [
      '## Packages',
      '',
      '| entry | what it holds |',
      '| --- | --- |',
      '| `@toolmark/core` | the registry |',
      '| `@toolmark/core/gone` | an entry no longer exported |',
      '',
      '## Results',
      '| `@toolmark/core/bridge` | a table of another section |',
    ].join('\n')
    const listed = packageTableEntries(markdown)
    expect(listed).toEqual(['@toolmark/core', '@toolmark/core/gone'])
    expect(compare(listed, ['@toolmark/core', '@toolmark/core/forms'])).toEqual({
      missing: ['@toolmark/core/forms'],
      extra: ['@toolmark/core/gone'],
    })
  })
})
