// The call regression gate: `tm.call` against the floor any call must pay, over several runs.
//
//   node bench/call-gate.mjs [runs]     # default 7; CI runs it (npm run bench:call)
//
// Each run is a fresh process of the first part of bench/call.mjs on core as shipped (one bundle,
// built once), so the spread between processes (1.4–2.1× has been seen for the same code) weighs
// in. The gate fails when the median ratio is over GATE: a regression, not noise.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildCore } from './coreBundle.mjs'

const GATE = 2
const here = path.dirname(fileURLToPath(import.meta.url))
const runs = Number(process.argv[2] ?? 7)

const dir = mkdtempSync(path.join(tmpdir(), 'toolmark-call-gate-'))
const ratios = []
try {
  const file = path.join(dir, 'core.mjs')
  writeFileSync(file, await buildCore())
  for (let r = 0; r < runs; r++) {
    const child = spawnSync(process.execPath, ['--expose-gc', path.join(here, 'call.mjs')], {
      encoding: 'utf8',
      env: { ...process.env, TOOLMARK_BENCH_CORE: file, TOOLMARK_BENCH_ONLY: 'call' },
    })
    const found = /ratio tm\.call \/ floor\s+([\d.]+)×/.exec(child.stdout)
    if (child.status !== 0 || !found) throw new Error(`bench/call.mjs failed:\n${child.stderr}`)
    ratios.push(Number(found[1]))
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}

const sorted = [...ratios].sort((a, b) => a - b)
const median = sorted[Math.floor(sorted.length / 2)]
console.log(`tm.call / floor, ${runs} runs of bench/call.mjs (node ${process.version})`)
console.log(`  runs    ${ratios.map((ratio) => `${ratio.toFixed(2)}×`).join(' ')}`)
console.log(
  `  median  ${median.toFixed(2)}× (${sorted[0].toFixed(2)}–${sorted.at(-1).toFixed(2)}×)`,
)
if (median > GATE) {
  console.error(`The call gate failed: median ${median.toFixed(2)}× the floor, over ${GATE}×.`)
  process.exitCode = 1
} else console.log(`  gate    ≤ ${GATE}× the floor: met`)
