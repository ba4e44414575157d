/**
 * Runs `bench/webmcp.measure.ts` in jsdom (with `@mcp-b/webmcp-polyfill`) and then in real
 * Chromium (the one scripts/chromium.mjs picks; native WebMCP, `--enable-features=WebMCP`), and
 * `bench/webmcp-react.measure.tsx` (components serving tools, against MCP-B's hook) in jsdom and
 * in Chromium, both on the polyfill; not part of `npm test`:
 *   npx vitest run --config bench/webmcp.config.ts
 *   NODE_ENV=production npx vitest run --config bench/webmcp.config.ts --project 'webmcp-react-*'
 */
import { defineConfig } from 'vitest/config'
import { playwright } from '@vitest/browser-playwright'
import { aliases, root } from '../aliases.ts'
import { chromiumLaunchOptions } from '../scripts/chromium.mjs'

const file = 'bench/webmcp.measure.ts'
const reactFile = 'bench/webmcp-react.measure.tsx'

export default defineConfig({
  root,
  resolve: { alias: aliases },
  test: {
    // One environment at a time, so the two measurements do not compete for the CPU.
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 600_000,
    projects: [
      { extends: true, test: { name: 'webmcp-jsdom', environment: 'jsdom', include: [file] } },
      {
        extends: true,
        optimizeDeps: { include: ['zod', '@mcp-b/webmcp-polyfill'] },
        test: {
          name: 'webmcp-chromium',
          include: [file],
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: chromiumLaunchOptions(['--enable-features=WebMCP']),
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
      {
        extends: true,
        test: { name: 'webmcp-react-jsdom', environment: 'jsdom', include: [reactFile] },
      },
      {
        extends: true,
        // Without the WebMCP flag: the polyfill serves in Chromium too, as in jsdom.
        optimizeDeps: {
          include: ['zod', '@mcp-b/webmcp-polyfill', '@mcp-b/react-webmcp', 'react', 'react-dom'],
        },
        test: {
          name: 'webmcp-react-chromium',
          include: [reactFile],
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: chromiumLaunchOptions([]) }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
})
