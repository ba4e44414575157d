// What a change did to the bundles, commit against commit, in one run:
//
//   node bench/size-across.mjs 8dc10d1 3b4d0ac HEAD
//
// Each commit is checked out in a throwaway worktree and each import below is bundled from its
// sources (the worktree's tsconfig paths point the package names at them) with esbuild:
// minified, NODE_ENV=production, the same peers external as `npm run size` (`sizeImports.mjs`), gzip level 9. No
// commit is built, so an old one need not typecheck with today's tools. The figures follow the
// sources, not the packed tarballs, so they sit within about 0.5 % of `npm run size`; what
// counts is the difference between commits, measured the same way in the same run. The last
// column compares the last commit with the first.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { root } from '../scripts/pack.mjs'
import { BUNDLE_OPTIONS, IMPORTS } from './sizeImports.mjs'

const ENTRIES = [
  '@toolmark/core',
  '@toolmark/core/bridge',
  '@toolmark/core/agent',
  '@toolmark/core/ag-ui',
  '@toolmark/core/passkey',
  '@toolmark/mcp/client',
  '@toolmark/react/mcp',
  '@toolmark/react/ag-ui',
]

const MEASURED = {
  'core alone': IMPORTS.core,
  'provider + useTool': IMPORTS['provider-useTool'],
  typical: IMPORTS.typical,
  'assistant set': IMPORTS.assistant,
  ...Object.fromEntries(ENTRIES.map((entry) => [entry, `export * from '${entry}'`])),
}

const run = (cwd, command, args) => execFileSync(command, args, { cwd, stdio: 'pipe' })

/** Checks `commit` out in a worktree under `dir`; returns the worktree. */
function checkout(commit, dir) {
  const tree = path.join(dir, commit.replace(/[^\w.-]/g, '_'))
  run(root, 'git', ['worktree', 'add', '--detach', '-q', tree, commit])
  return tree
}

/** The gzipped bytes of `code` bundled from `tree`'s sources. */
async function measure(code, tree) {
  const result = await build({
    stdin: { contents: code, resolveDir: tree, sourcefile: 'entry.js', loader: 'js' },
    absWorkingDir: tree,
    tsconfig: path.join(tree, 'tsconfig.json'),
    // The peers the sources import resolve in this checkout's node_modules.
    nodePaths: [path.join(root, 'node_modules')],
    ...BUNDLE_OPTIONS,
  })
  return gzipSync(result.outputFiles[0].contents, { level: 9 }).length
}

const commits = process.argv.slice(2)
if (commits.length < 2) {
  console.error('usage: node bench/size-across.mjs <commit> <commit> [...]')
  process.exit(2)
}
const dir = mkdtempSync(path.join(tmpdir(), 'toolmark-size-'))
const figures = {}
try {
  for (const commit of commits) {
    const tree = checkout(commit, dir)
    figures[commit] = {}
    for (const [label, code] of Object.entries(MEASURED)) {
      figures[commit][label] = await measure(code, tree).catch(() => undefined)
    }
  }
} finally {
  for (const commit of commits) {
    const tree = path.join(dir, commit.replace(/[^\w.-]/g, '_'))
    try {
      run(root, 'git', ['worktree', 'remove', '--force', tree])
    } catch {
      // Never added.
    }
  }
  rmSync(dir, { recursive: true, force: true })
}

const first = commits[0]
const last = commits.at(-1)
const cell = (bytes) => (bytes === undefined ? '—' : `${bytes} B`)
console.log(`| import | ${commits.join(' | ')} | ${last} vs ${first} |`)
console.log(`| --- |${' --- |'.repeat(commits.length + 1)}`)
for (const label of Object.keys(MEASURED)) {
  const a = figures[first][label]
  const b = figures[last][label]
  const change =
    a === undefined || b === undefined
      ? '—'
      : `${b - a >= 0 ? '+' : ''}${b - a} B (${(((b - a) / a) * 100).toFixed(1)} %)`
  console.log(
    `| ${label} | ${commits.map((c) => cell(figures[c][label])).join(' | ')} | ${change} |`,
  )
}
