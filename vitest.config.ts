import { existsSync } from 'node:fs'
import path from 'node:path'
import { defineConfig, mergeConfig } from 'vitest/config'
import { playwright } from '@vitest/browser-playwright'
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin'
import viteConfig from './vite.config.ts'
import { root } from './aliases.ts'
import { CHROMIUM_ARGS, chromiumPath } from './scripts/chromium.mjs'

/**
 * The Chromium of scripts/chromium.mjs, kept off the network; extra flags per project. Looked up
 * without failing here, so the node projects run on a machine without any Chromium; the browser
 * projects' globalSetup then stops them with the message naming the ways to get one.
 */
const chromium = (extra: string[] = []) => {
  let executablePath: string | undefined
  try {
    executablePath = chromiumPath()
  } catch {
    executablePath = undefined
  }
  return playwright({ launchOptions: { executablePath, args: [...CHROMIUM_ARGS, ...extra] } })
}
const needsChromium = ['./scripts/chromium.mjs']

const optimizeDeps = {
  include: [
    'react',
    'react-dom',
    'react-dom/client',
    'react/jsx-runtime',
    'react/jsx-dev-runtime',
    'vitest-browser-react',
    'axe-core',
    'zod',
    'react-hook-form',
    '@hookform/resolvers/zod',
    '@tanstack/react-query',
    '@mcp-b/webmcp-polyfill',
    '@ag-ui/client',
    '@ag-ui/core',
    '@ag-ui/encoder',
    'ai',
    'ai/test',
  ],
}

/**
 * React and React DOM 18.3.1, installed nested in the test/react18 workspace so that React DOM 18
 * finds its own React. Libraries that import React are inlined, so they get these too.
 */
const react18 = path.join(root, 'test/react18/node_modules')
const react18Aliases = [
  { find: /^react$/, replacement: path.join(react18, 'react/index.js') },
  { find: /^react\/(.+)$/, replacement: path.join(react18, 'react/$1.js') },
  { find: /^react-dom$/, replacement: path.join(react18, 'react-dom/index.js') },
  { find: /^react-dom\/(.+)$/, replacement: path.join(react18, 'react-dom/$1.js') },
  // assistant-ui's composer input and its hooks: their ESM builds, inlined below, likewise.
  ...[
    'react-textarea-autosize/dist/react-textarea-autosize.browser.development.esm.js',
    'use-composed-ref/dist/use-composed-ref.esm.js',
    'use-latest/dist/use-latest.esm.js',
    'use-isomorphic-layout-effect/dist/use-isomorphic-layout-effect.browser.esm.js',
  ].map((file) => ({
    find: new RegExp(`^${file.slice(0, file.indexOf('/'))}$`),
    replacement: path.join(root, 'node_modules', file),
  })),
  // Its ESM build, inlined below, so that its own imports of React resolve through the aliases.
  {
    find: /^@testing-library\/react$/,
    replacement: path.join(
      root,
      'node_modules/@testing-library/react/dist/@testing-library/react.esm.js',
    ),
  },
]

const ifExists = (file: string) => (existsSync(path.join(root, file)) ? [file] : [])

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      globals: true,
      projects: [
        {
          extends: true,
          test: {
            name: 'core',
            environment: 'node',
            include: ['packages/core/test/**/*.test.ts'],
          },
        },
        {
          extends: true,
          test: {
            name: 'react',
            environment: 'jsdom',
            globals: true,
            setupFiles: ['./test/setup.ts'],
            include: ['test/**/*.test.{ts,tsx}'],
            exclude: ['test/browser/**', '**/node_modules/**'],
          },
        },
        {
          extends: true,
          resolve: { alias: react18Aliases },
          test: {
            name: 'react18',
            environment: 'jsdom',
            globals: true,
            setupFiles: ['./test/setup.ts'],
            include: ['test/**/*.test.tsx'],
            exclude: ['test/browser/**', '**/node_modules/**'],
            server: {
              deps: {
                inline: [
                  /@testing-library\/react/,
                  /@tanstack\/react-query/,
                  /react-hook-form/,
                  /@ai-sdk\/react/,
                  /@assistant-ui\//,
                  // assistant-ui's primitives render through Radix and these, which import React.
                  /@radix-ui\//,
                  /\/radix-ui\//,
                  /react-textarea-autosize/,
                  /use-composed-ref/,
                  /use-latest/,
                  /use-isomorphic-layout-effect/,
                  /zustand/,
                  /use-sync-external-store/,
                ],
              },
            },
          },
        },
        {
          extends: true,
          optimizeDeps,
          test: {
            name: 'browser',
            include: [
              'test/browser/**/*.browser.test.{ts,tsx}',
              'packages/*/test/**/*.browser.test.{ts,tsx}',
            ],
            exclude: ['**/*.polyfill.browser.test.{ts,tsx}', '**/node_modules/**'],
            testTimeout: 20_000,
            globalSetup: needsChromium,
            browser: {
              enabled: true,
              headless: true,
              provider: chromium(['--enable-features=WebMCP']),
              instances: [{ browser: 'chromium' }],
            },
          },
        },
        {
          extends: true,
          optimizeDeps,
          test: {
            name: 'browser-polyfill',
            include: ['test/browser/**/*.polyfill.browser.test.{ts,tsx}'],
            testTimeout: 20_000,
            globalSetup: needsChromium,
            browser: {
              enabled: true,
              headless: true,
              provider: chromium(),
              instances: [{ browser: 'chromium' }],
            },
          },
        },
        {
          extends: true,
          optimizeDeps,
          plugins: [storybookTest({ configDir: path.join(root, '.storybook') })],
          test: {
            name: 'storybook',
            testTimeout: 20_000,
            globalSetup: needsChromium,
            browser: {
              enabled: true,
              headless: true,
              provider: chromium(['--enable-features=WebMCP']),
              instances: [{ browser: 'chromium' }],
            },
          },
        },
        {
          extends: true,
          test: {
            name: 'mcp',
            environment: 'node',
            include: ['packages/mcp/test/**/*.test.ts'],
            globalSetup: ifExists('packages/mcp/test/globalSetup.ts'),
            testTimeout: 30_000,
          },
        },
        {
          extends: true,
          test: {
            name: 'e2e',
            environment: 'node',
            include: ['examples/**/e2e/**/*.e2e.test.ts'],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            fileParallelism: false,
          },
        },
      ],
    },
  }),
)
