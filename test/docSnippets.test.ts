// @vitest-environment node
import { checkDocSnippets, docFiles, snippetsOf } from '../scripts/docSnippets.mjs'

describe('TypeScript blocks of README.md and docs/', () => {
  it('finds indented and named blocks and numbers them by their first code line', () => {
    const markdown = [
      '# Title', // 1
      '', // 2
      '```ts', // 3
      'const a = 1', // 4
      '```', // 5
      '- item', // 6
      '  ```tsx', // 7
      '  // main.tsx', // 8
      '  export const b = <p />', // 9
      '  ```', // 10
      '```sh', // 11
      'npm start', // 12
      '```', // 13
    ].join('\n')

    expect(snippetsOf(markdown)).toEqual([
      { line: 4, lang: 'ts', code: 'const a = 1' },
      { line: 8, lang: 'tsx', code: '// main.tsx\nexport const b = <p />' },
    ])
  })

  it('reports a missing import and an undefined name with the file and line of each', () => {
    const { blocks, failures } = checkDocSnippets({ files: ['test/fixtures/brokenSnippets.md'] })

    expect(blocks).toBe(3)
    expect(failures.map((f) => `${f.file}:${f.line}: ${f.message}`)).toEqual([
      "test/fixtures/brokenSnippets.md:7: Cannot find name 'ToolProvider'.",
      "test/fixtures/brokenSnippets.md:9: Cannot find name 'ToolProvider'.",
      "test/fixtures/brokenSnippets.md:22: Cannot find name 'toolsFromManifest'.",
      "test/fixtures/brokenSnippets.md:22: Cannot find name 'manifest'.",
    ])
  }, 240_000)

  it('type-check, each as a module with its own imports; a failure names its file and line', () => {
    const { blocks, failures } = checkDocSnippets({ files: docFiles() })

    expect(blocks).toBeGreaterThan(50)
    expect(failures.map((f) => `${f.file}:${f.line}: ${f.message}`)).toEqual([])
  }, 240_000)
})
