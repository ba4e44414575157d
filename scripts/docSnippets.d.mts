/** One TypeScript block of a markdown file. */
export interface DocSnippet {
  /** The 1-based line of the block's first code line in its file. */
  line: number
  lang: 'ts' | 'tsx'
  code: string
}
/** A diagnostic of one block, at its line in the markdown file. */
export interface DocSnippetFailure {
  file: string
  line: number
  message: string
}
export function docFiles(dir?: string): string[]
export function snippetsOf(markdown: string): DocSnippet[]
export function checkDocSnippets(options?: { files?: string[] }): {
  blocks: number
  failures: DocSnippetFailure[]
}
