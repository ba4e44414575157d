// The bundle budget: what each typical import costs an app, minified and gzipped, in production.
// `npm run size` fails when a figure grows more than 1 % over the one recorded in bench/size.json;
// `npm run size -- --update` records the current figures on purpose (commit the file with the
// change that explains them); `npm run size -- --why` also lists the modules that weigh most in
// each bundle (minified bytes each contributes, before gzip). Sources are bundled through the tsconfig paths, the way an app's
// bundler sees the published entries; React, React DOM, zod, react-hook-form and TanStack Query are
// external, as the app has them anyway.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const recordFile = path.join(root, 'bench/size.json')
const TOLERANCE = 0.01

/** Each figure: what an app imports, and the goal it should meet (kB, min + gzip). */
const SCENARIOS = [
  {
    id: 'core',
    label: 'core alone',
    goal: 11,
    code: `export { createToolmark, ok, invalid, refuse, cancelled, errorResult } from '@toolmark/core'`,
  },
  {
    id: 'provider-useTool',
    label: 'provider + useTool',
    goal: 13,
    code: `export { createToolmark, ok } from '@toolmark/core'
export { ToolProvider, useTool } from '@toolmark/react'`,
  },
  {
    id: 'typical',
    label: 'typical: + <ConfirmDialog> + useFormTool',
    goal: 20,
    code: `export { createToolmark, ok } from '@toolmark/core'
export { ToolProvider, useTool, ConfirmDialog } from '@toolmark/react'
export { useFormTool } from '@toolmark/react/rhf'`,
  },
  {
    id: 'assistant',
    label: 'in-app assistant set: + bridge + agent',
    goal: 26,
    code: `export { createToolmark, ok } from '@toolmark/core'
export { ToolProvider, useTool, ConfirmDialog } from '@toolmark/react'
export { useFormTool } from '@toolmark/react/rhf'
export { bridge, createInPageChannel } from '@toolmark/core/bridge'
export { createPageClient, pageTools } from '@toolmark/core/agent'`,
  },
  {
    id: 'query',
    label: '/query: useQueryTool + useMutationTool',
    code: `export { useQueryTool, useMutationTool } from '@toolmark/react/query'`,
  },
  {
    id: 'devtools',
    label: '/devtools in production',
    code: `export { ToolmarkDevtools } from '@toolmark/react/devtools'`,
  },
]

/** Peers, measured the same way (esbuild, min + gzip, the same externals). */
const PEERS = [
  ['assistant-ui provider + tools', 34.4 * 1024],
  ['MCP-B hook with its WebMCP runtime', 86.4 * 1024],
  ['CopilotKit provider + tools', 3.54 * 1024 * 1024],
]

const EXTERNAL = [
  'react',
  'react/*',
  'react-dom',
  'react-dom/*',
  'zod',
  'zod/*',
  'react-hook-form',
  '@hookform/*',
  '@tanstack/*',
]

async function measure(code) {
  const result = await build({
    stdin: { contents: code, resolveDir: root, sourcefile: 'size-entry.ts', loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    tsconfig: path.join(root, 'tsconfig.json'),
    external: EXTERNAL,
    define: { 'process.env.NODE_ENV': '"production"' },
    write: false,
    logLevel: 'silent',
    metafile: true,
    outfile: path.join(root, 'size-entry.js'),
  })
  const output = result.outputFiles[0].contents
  const [bundle] = Object.values(result.metafile.outputs)
  const modules = Object.entries(bundle.inputs)
    .map(([file, { bytesInOutput }]) => [file, bytesInOutput])
    .filter(([, bytes]) => bytes > 0)
    .sort((a, b) => b[1] - a[1])
  return { min: output.length, gzip: gzipSync(output, { level: 9 }).length, modules }
}

const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`
const mB = (bytes) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MB` : kB(bytes))

const update = process.argv.includes('--update')
const why = process.argv.includes('--why')
const WHY_TOP = 12
const readRecord = () => {
  try {
    return JSON.parse(readFileSync(recordFile, 'utf8'))
  } catch {
    return {}
  }
}
const recorded = readRecord()

const figures = {}
const problems = []
const rows = []
const whyRows = []
for (const scenario of SCENARIOS) {
  const { min, gzip, modules } = await measure(scenario.code)
  if (why) {
    whyRows.push(`${scenario.label} (${kB(gzip)} gzip, ${modules.length} modules):`)
    for (const [file, bytes] of modules.slice(0, WHY_TOP)) {
      whyRows.push(`  ${String(bytes).padStart(6)} B  ${file}`)
    }
  }
  figures[scenario.id] = gzip
  const before = recorded[scenario.id]
  let verdict
  if (before === undefined) {
    verdict = 'not recorded'
    if (!update)
      problems.push(`${scenario.label}: no recorded figure (run npm run size -- --update)`)
  } else if (gzip > before * (1 + TOLERANCE)) {
    const growth = (((gzip - before) / before) * 100).toFixed(1)
    verdict = `GREW ${growth} % over ${kB(before)}`
    if (!update)
      problems.push(`${scenario.label}: ${kB(gzip)}, ${growth} % over the recorded ${kB(before)}`)
  } else {
    const delta = gzip - before
    verdict = delta === 0 ? 'as recorded' : `${delta > 0 ? '+' : ''}${delta} B vs recorded`
  }
  const goal =
    scenario.goal === undefined
      ? ''
      : `goal ≤ ${scenario.goal} kB${gzip > scenario.goal * 1024 ? ' (not met)' : ' (met)'}`
  rows.push([scenario.label, kB(gzip), `min ${kB(min)}`, goal, verdict])
}

const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)))
console.log(
  'Bundle sizes (esbuild, minified + gzip level 9, NODE_ENV=production; peers external)\n',
)
for (const row of rows) console.log('  ' + row.map((cell, i) => cell.padEnd(widths[i])).join('   '))
if (why) console.log(`\nHeaviest modules (minified bytes in the bundle):\n${whyRows.join('\n')}`)
console.log('\nPeers, measured the same way:')
for (const [label, bytes] of PEERS) console.log(`  ${label.padEnd(widths[0])}   ${mB(bytes)}`)

if (update) {
  writeFileSync(recordFile, JSON.stringify(figures, null, 2) + '\n')
  console.log(`\nRecorded in ${path.relative(root, recordFile)}.`)
} else if (problems.length > 0) {
  console.error(
    `\nThe bundle budget failed (more than ${TOLERANCE * 100} % over the recorded figure):`,
  )
  for (const problem of problems) console.error(`  - ${problem}`)
  console.error('If the growth is intended, record it: npm run size -- --update')
  process.exitCode = 1
} else {
  console.log(`\nEvery figure is within ${TOLERANCE * 100} % of bench/size.json.`)
}
