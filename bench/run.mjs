// Runs every benchmark in turn (`npm run bench`). Not part of `npm test`: each prints its own
// ratios against a baseline measured in the same run.
import { spawnSync } from 'node:child_process'

const benches = [
  ['call', 'node', ['--expose-gc', 'bench/call.mjs'], {}],
  ['call-gate', 'node', ['bench/call-gate.mjs'], {}],
  ['call-parts', 'node', ['bench/call-parts.mjs'], {}],
  [
    'registration',
    'npx',
    ['vitest', 'bench', '--run', '--project', 'react', 'bench/registration.bench.tsx'],
    { NODE_ENV: 'production' },
  ],
  ['fill', 'npx', ['vitest', 'run', '--config', 'bench/fill.config.ts'], {}],
  // NODE_ENV=production: the components of bench/webmcp-react.measure.tsx run React's production build.
  [
    'webmcp',
    'npx',
    ['vitest', 'run', '--config', 'bench/webmcp.config.ts'],
    { NODE_ENV: 'production' },
  ],
  ['size-ai-sdk', 'node', ['bench/size-ai-sdk.mjs'], {}],
  ['size', 'node', ['bench/size.mjs'], {}],
  ['rounds', 'npx', ['vitest', 'run', '--config', 'bench/rounds.config.ts'], {}],
]

const only = process.argv.slice(2)
let failed = 0
for (const [name, command, args, env] of benches) {
  if (only.length > 0 && !only.includes(name)) continue
  console.log(`\n=== bench/${name} ===`)
  const run = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true', ...env },
  })
  if (run.status !== 0) failed++
}
process.exitCode = failed === 0 ? 0 : 1
