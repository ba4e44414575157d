import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.dirname(fileURLToPath(import.meta.url))

/** Maps every public entry to its sources, so tests, stories and examples run against `src/`. */
export const aliases = [
  { find: /^@toolmark\/core$/, replacement: path.join(root, 'packages/core/src/index.ts') },
  {
    find: /^@toolmark\/core\/(.+)$/,
    replacement: path.join(root, 'packages/core/src/$1/index.ts'),
  },
  {
    find: /^@toolmark\/mcp\/client$/,
    replacement: path.join(root, 'packages/mcp/src/client/index.ts'),
  },
  { find: /^@toolmark\/react$/, replacement: path.join(root, 'src/index.ts') },
  { find: /^@toolmark\/react\/(.+)$/, replacement: path.join(root, 'src/$1/index.ts') },
]

/** Entries of a package that exist on disk, as `{ name: file }` for a Vite lib build. */
export function entries(dir: string, names: string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of names)
    out[name] = path.join(root, dir, name === 'index' ? 'index.ts' : `${name}/index.ts`)
  return out
}

export { root }
