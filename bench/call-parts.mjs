// Where the cost of tm.call over its floor sits: bench/call.mjs's first part, run on core as
// shipped and on two cut-down copies that are not shippable (they skip steps DESIGN §3.4
// requires) and only show how much the remaining steps weigh.
//
//   node bench/call-parts.mjs [runs]        (default 8 runs of each)
//
// - "as shipped": core as an app gets it.
// - "no steps 1–3": `tm.call` only looks the tool up, makes its `Call`, validates and hops; no
//   options or caller check, no `call` event, no access, policy or rate limit, no signal, not on
//   the list of calls in flight.
// - "no steps 1–3, run only": the same, and after the hop only `run` and the normalized result:
//   no slot, no `check` or confirmation test, no `ctx`, no settling.
//
// Each run is its own process (as separate apps would be), alternating between the copies, so a
// busy machine weighs on all of them alike; each prints bench/call.mjs's "ratio tm.call / floor".
// The copies are made by replacing two functions in the bundled source; the script stops if the
// bundle no longer has them in the expected form.

import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildCore } from './coreBundle.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const runs = Number(process.argv[2] ?? 8)

/** `code` with the one nested function `name` (declared one tab in) replaced by `body`. */
function replaceFunction(code, signature, body) {
  const start = code.indexOf(`\tfunction ${signature} {\n`)
  if (start < 0 || code.indexOf(`\tfunction ${signature} {\n`, start + 1) >= 0) {
    throw new Error(`bench/call-parts: the core bundle has no single "function ${signature}"`)
  }
  const end = code.indexOf('\n\t}\n', start)
  return `${code.slice(0, start)}\tfunction ${signature} {\n${body}\n\t}\n${code.slice(end + 4)}`
}

const shipped = await buildCore()
const noChecks = replaceFunction(
  shipped,
  'call(name, input, callOptions)',
  `\t\tconst record = internals.tools.get(name);
\t\tconst caller = callOptions?.caller ?? "inapp";
\t\tconst current = new Call(internals, record, caller, void 0, void 0);
\t\treturn hop(current, validateInput(internals, record, input, current));`,
)
const runOnly = replaceFunction(
  noChecks,
  'hop(call, checked)',
  `\t\treturn Promise.resolve(checked).then((c) => internals.normalize(call.record.def.run(c.value, void 0), call));`,
)

const variants = [
  ['as shipped', shipped],
  ['no steps 1–3', noChecks],
  ['no steps 1–3, run only', runOnly],
]
const dir = mkdtempSync(path.join(tmpdir(), 'toolmark-call-parts-'))
const ratios = variants.map(() => [])
try {
  const files = variants.map(([, code], i) => {
    const file = path.join(dir, `core-${i}.mjs`)
    writeFileSync(file, code)
    return file
  })
  for (let r = 0; r < runs; r++) {
    files.forEach((file, i) => {
      const child = spawnSync(process.execPath, [path.join(here, 'call.mjs')], {
        encoding: 'utf8',
        env: { ...process.env, TOOLMARK_BENCH_CORE: file, TOOLMARK_BENCH_ONLY: 'call' },
      })
      const found = /ratio tm\.call \/ floor\s+([\d.]+)×/.exec(child.stdout)
      if (child.status !== 0 || !found) {
        throw new Error(`bench/call.mjs failed on "${variants[i][0]}":\n${child.stderr}`)
      }
      ratios[i].push(Number(found[1]))
    })
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}

console.log(`tm.call / floor, ${runs} runs of bench/call.mjs each (node ${process.version})`)
variants.forEach(([label], i) => {
  const sorted = [...ratios[i]].sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)]
  console.log(
    `  ${label.padEnd(24)} median ${median.toFixed(2)}×   ` +
      `(${sorted[0].toFixed(2)}–${sorted.at(-1).toFixed(2)}×)`,
  )
})
