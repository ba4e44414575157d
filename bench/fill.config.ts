/**
 * Runs `bench/fill.measure.tsx` in jsdom and then in real Chromium (not part of `npm test`):
 *   npx vitest run --config bench/fill.config.ts
 */
import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { playwright } from '@vitest/browser-playwright'
import { aliases, root } from '../aliases.ts'
import { chromiumLaunchOptions } from '../scripts/chromium.mjs'

const file = 'bench/fill.measure.tsx'

export default defineConfig({
  root,
  plugins: [react()],
  resolve: { alias: aliases },
  test: {
    // One environment at a time, so the two measurements do not compete for the CPU.
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 300_000,
    projects: [
      { extends: true, test: { name: 'fill-jsdom', environment: 'jsdom', include: [file] } },
      {
        extends: true,
        optimizeDeps: {
          include: [
            'react',
            'react-dom',
            'react-dom/client',
            'react/jsx-dev-runtime',
            'zod',
            'react-hook-form',
            '@hookform/resolvers/zod',
          ],
        },
        test: {
          name: 'fill-chromium',
          include: [file],
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: chromiumLaunchOptions() }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
})
