// The longest import chain of a source tree: how many files a reader may have to open, one
// import after another, starting from any file.
//
// Every static `import … from './x'`, `export … from './x'` and `import './x'` between the files
// under the folder counts, type-only imports included (a type import is still a file to open).
// A specifier resolves to `x.ts`, `x.tsx`, `x/index.ts` or `x/index.tsx` (`./x.js` names
// `./x.ts`); imports of packages and of files outside the folder do not count. Statements are
// read at the start of a line, so an import quoted in a comment is not one. Files that import
// each other in a loop count as one file of the chain.
//
//   node scripts/import-chain.mjs [dir]      (dir defaults to packages/core/src)
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The .ts and .tsx files under `dir` (declaration files left out), sorted. */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) return sourceFiles(full)
      return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : []
    })
    .sort()
}

// `import type { A, b } from '…'`, `import x, * as y from '…'`, `export * from '…'`,
// `export { a as b } from '…'`: names, `*`, `as`, commas and one braced list before `from`.
const FROM = /^[ \t]*(?:import|export)\s+(?:[\w$*\s,]|\{[^}]*\})*?\bfrom\s*(['"])(.+?)\1/gm
// `import './x'`, for its side effects.
const BARE = /^[ \t]*import\s*(['"])(.+?)\1/gm

/** The module specifiers a source imports or re-exports from. */
export function specifiersOf(source) {
  return [...source.matchAll(FROM), ...source.matchAll(BARE)].map((match) => match[2])
}

/**
 * Each file under `dir` with the files under `dir` it imports (absolute paths).
 * @param {string} dir
 * @returns {Map<string, string[]>}
 */
export function importGraph(dir) {
  const files = sourceFiles(path.resolve(dir))
  const known = new Set(files)
  const resolve = (from, specifier) => {
    const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''))
    const candidates = [base, `${base}.ts`, `${base}.tsx`]
    candidates.push(path.join(base, 'index.ts'), path.join(base, 'index.tsx'))
    return candidates.find((file) => known.has(file))
  }
  const graph = new Map()
  for (const file of files) {
    const targets = specifiersOf(readFileSync(file, 'utf8'))
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolve(file, specifier))
      .filter((target) => target !== undefined && target !== file)
    graph.set(file, [...new Set(targets)].sort())
  }
  return graph
}

/**
 * The groups of files that import each other in a loop (Tarjan's algorithm); a file in no loop
 * is a group of its own.
 */
function loopGroups(graph) {
  const order = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const groupOf = new Map()
  const groups = []
  const visit = (file) => {
    order.set(file, order.size)
    low.set(file, order.get(file))
    stack.push(file)
    onStack.add(file)
    for (const next of graph.get(file)) {
      if (!order.has(next)) {
        visit(next)
        low.set(file, Math.min(low.get(file), low.get(next)))
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file), order.get(next)))
    }
    if (low.get(file) !== order.get(file)) return
    const group = []
    let member
    do {
      member = stack.pop()
      onStack.delete(member)
      groupOf.set(member, groups.length)
      group.push(member)
    } while (member !== file)
    groups.push(group.sort())
  }
  for (const file of graph.keys()) if (!order.has(file)) visit(file)
  return { groups, groupOf }
}

/**
 * The longest import chain under `dir`: its length in files (a loop counts as one) and its files,
 * from the one that starts it to the leaf, relative to `dir` (a loop's files joined by ` ⇄ `).
 * Among chains of the same length, the one whose files come first in path order.
 * @param {string} dir
 * @returns {{ length: number, chain: string[] }}
 */
export function longestChain(dir) {
  const graph = importGraph(dir)
  const { groups, groupOf } = loopGroups(graph)
  // The longest chain starting at each group, as the groups it passes through.
  const longest = new Map()
  const chainFrom = (group) => {
    if (longest.has(group)) return longest.get(group)
    let best = []
    for (const file of groups[group])
      for (const next of graph.get(file)) {
        const target = groupOf.get(next)
        if (target === group) continue
        const rest = chainFrom(target)
        if (rest.length > best.length) best = rest
      }
    const chain = [group, ...best]
    longest.set(group, chain)
    return chain
  }
  let top = []
  for (const file of graph.keys()) {
    const chain = chainFrom(groupOf.get(file))
    if (chain.length > top.length) top = chain
  }
  const name = (file) => path.relative(path.resolve(dir), file).split(path.sep).join('/')
  return { length: top.length, chain: top.map((group) => groups[group].map(name).join(' ⇄ ')) }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(process.argv[2] ?? path.join(root, 'packages/core/src'))
  const { length, chain } = longestChain(dir)
  console.log(
    `longest import chain in ${path.relative(process.cwd(), dir) || '.'}: ${length} files`,
  )
  for (const file of chain) console.log(`  ${file}`)
}
