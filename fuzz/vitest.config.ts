/**
 * The fuzz suite (`npm run fuzz`), not part of `npm test`: property-based runs with fast-check,
 * each counting its runs, throws and violations, printed as one table at the end.
 *
 *   npm run fuzz                         a fresh seed, printed with the table
 *   FUZZ_SEED=123456 npm run fuzz        replays a run
 *   npm run fuzz -- -t pairing           one property
 */
import { defineConfig } from 'vitest/config'
import { aliases, root } from '../aliases.ts'
import FuzzTableReporter from './support/tableReporter.ts'

const given = process.env.FUZZ_SEED
const seed = given !== undefined && given !== '' ? Number(given) : Date.now() % 2_147_483_647
if (!Number.isInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got "${given}"`)
// Workers inherit the environment: every property derives its own seed from this one.
process.env.FUZZ_SEED = String(seed)

export default defineConfig({
  root,
  resolve: { alias: aliases },
  test: {
    name: 'fuzz',
    environment: 'node',
    include: ['fuzz/**/*.fuzz.ts'],
    // One property at a time, so each row's time is its own on a shared machine.
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 600_000,
    hookTimeout: 60_000,
    reporters: ['default', new FuzzTableReporter(seed)],
  },
})
