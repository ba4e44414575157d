/**
 * Runs `bench/rounds.measure.tsx` in jsdom (not part of `npm test`):
 *   npx vitest run --config bench/rounds.config.ts
 */
import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { aliases, root } from '../aliases.ts'

export default defineConfig({
  root,
  plugins: [react()],
  resolve: { alias: aliases },
  test: {
    name: 'rounds',
    environment: 'jsdom',
    include: ['bench/rounds.measure.tsx'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
})
