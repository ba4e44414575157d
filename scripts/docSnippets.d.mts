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
/** Pages checked without docs/snippets.d.ts: every name their blocks use is on the page. */
export const SELF_CONTAINED: string[]
/** The file a block is (`// src/main.tsx` on its first line), or undefined. */
export function fileNameOf(code: string): string | undefined
/** Every fenced block, with its info string (`tsx`, `sh`). */
export function blocksOf(markdown: string): { line: number; info: string; code: string }[]
export function snippetsOf(markdown: string): DocSnippet[]
export function checkDocSnippets(options?: { files?: string[] }): {
  blocks: number
  failures: DocSnippetFailure[]
}
