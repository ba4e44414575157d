/** The module specifiers a source imports or re-exports from, in statements at a line's start. */
export function specifiersOf(source: string): string[]
/** Each .ts/.tsx file under `dir` with the files under `dir` it imports (absolute paths). */
export function importGraph(dir: string): Map<string, string[]>
/**
 * The longest import chain under `dir`: its length in files (a loop counts as one) and its files
 * from the one that starts it to the leaf, relative to `dir` with `/`.
 */
export function longestChain(dir: string): { length: number; chain: string[] }
