// The call regression gate: `tm.call` of this checkout against `tm.call` of a reference commit,
// measured in the same run on the same machine.
//
//   node bench/call-gate.mjs [runs]     # default 7; CI runs 11 (npm run bench:call -- 11)
//
// Each run is a pair of fresh processes of the first part of bench/call.mjs, one on each of two
// bundles of core as shipped: this checkout's and REFERENCE's (checked out in a throwaway worktree
// and bundled the same way), in alternating order. Each process measures `tm.call` against the
// floor; the gate fails when the median ratio of this checkout is over GATE times the
// reference's: a regression of this code against that code on the same machine in the same run.
//
// The ratio to the floor (validate, one hop, run, a frozen copy) is printed for both and is the
// figure the README records, but it is not what the gate tests: it moves with the CPU as much as
// with the code. On one machine the same bundle measured 1.65× pinned to one of its two CPUs and
// 1.90× pinned to the other, and a CI machine measured over 2× for code measuring 1.77–1.90× here.
//
// Moving REFERENCE forward accepts what the commits between cost: do it in a commit of its own
// that says so, with the figures of both.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildCore } from './coreBundle.mjs'

/** The commit whose `tm.call` is the bar (the call-cost cut, as submitted after the review). */
const REFERENCE = 'dfe1a595e3844f61bd860ed95ca3b99b19831eb0'
const GATE = 1.1
const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const runs = Number(process.argv[2] ?? 7)

const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: 'pipe' })

try {
  git('cat-file', '-e', `${REFERENCE}^{commit}`)
} catch {
  console.error(
    `The call gate needs the reference commit ${REFERENCE.slice(0, 12)}, which this clone does not have ` +
      '(a shallow clone?): run `git fetch --unshallow` and try again.',
  )
  process.exit(1)
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const span = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return `${median(values).toFixed(2)}× (${sorted[0].toFixed(2)}–${sorted.at(-1).toFixed(2)}×)`
}

const dir = mkdtempSync(path.join(tmpdir(), 'toolmark-call-gate-'))
const tree = path.join(dir, 'reference')
const rows = { self: [], reference: [] }
try {
  const files = { self: path.join(dir, 'core.mjs'), reference: path.join(dir, 'reference.mjs') }
  writeFileSync(files.self, await buildCore())
  git('worktree', 'prune')
  git('worktree', 'add', '--detach', '-q', tree, REFERENCE)
  try {
    writeFileSync(files.reference, await buildCore('', tree))
  } finally {
    git('worktree', 'remove', '--force', tree)
  }
  for (let r = 0; r < runs; r++) {
    for (const which of r % 2 === 0 ? ['self', 'reference'] : ['reference', 'self']) {
      const child = spawnSync(process.execPath, ['--expose-gc', path.join(here, 'call.mjs')], {
        encoding: 'utf8',
        env: { ...process.env, TOOLMARK_BENCH_CORE: files[which], TOOLMARK_BENCH_ONLY: 'call' },
      })
      const found = /ratio tm\.call \/ floor\s+([\d.]+)×/.exec(child.stdout)
      if (child.status !== 0 || !found) throw new Error(`bench/call.mjs failed:\n${child.stderr}`)
      rows[which].push(Number(found[1]))
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}

const relative = median(rows.self) / median(rows.reference)
console.log(
  `tm.call / floor, ${runs} runs of bench/call.mjs on each core (node ${process.version})`,
)
console.log(`  this checkout        ${span(rows.self)}`)
console.log(`  ${REFERENCE.slice(0, 7)} (reference)  ${span(rows.reference)}`)
console.log(`  this / reference     ${relative.toFixed(2)}× (of the medians)`)
if (relative > GATE) {
  console.error(
    `The call gate failed: tm.call measured ${relative.toFixed(2)}× the reference's ratio to the floor, over ${GATE}×.`,
  )
  process.exitCode = 1
} else console.log(`  gate                 ≤ ${GATE}× the reference: met`)
