// What the chat-stack adapters add to an app's bundle, min + gzip, measured with esbuild.
//
//   node bench/size-ai-sdk.mjs [repository root]
//
// Each row bundles a small app entry against the sources (production build, minified, ESM) with
// react, react-dom, ai, @ai-sdk/*, @assistant-ui/* and zod left external, as an app's bundler
// shares them, and reports the gzip size (level 9) of the bundle. The adapters' rows are the
// difference against the typical import they are added to. Pass another checkout's root (say, the
// main branch) to see that apps which do not import the adapters are unchanged.

import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const root = path.resolve(process.argv[2] ?? here)

const external = [
  'react',
  'react/*',
  'react-dom',
  'react-dom/*',
  'ai',
  'ai/*',
  '@ai-sdk/*',
  '@assistant-ui/*',
  'zod',
  'zod/*',
]

/** `@toolmark/<pkg>[/<entry>]` → its sources, as the repository's aliases map them. */
const sources = {
  name: 'toolmark-sources',
  setup(b) {
    b.onResolve({ filter: /^@toolmark\// }, (args) => {
      const [, pkg, entry] = /^@toolmark\/(core|react)(?:\/(.+))?$/.exec(args.path) ?? []
      if (!pkg) return undefined
      const dir = pkg === 'core' ? path.join(root, 'packages/core/src') : path.join(root, 'src')
      return { path: entry ? path.join(dir, entry, 'index.ts') : path.join(dir, 'index.ts') }
    })
  },
}

async function gzipSize(code) {
  const result = await build({
    stdin: { contents: code, resolveDir: root, loader: 'tsx' },
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    external,
    plugins: [sources],
    logLevel: 'silent',
  })
  const bytes = result.outputFiles[0].contents
  return { min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }
}

/** The typical import: a provider, a tool, the dialog, and the registry. */
const typical = `
export { createToolmark } from '@toolmark/core'
export { ToolProvider, useTool, ConfirmDialog } from '@toolmark/react'
`
const rows = [
  ['typical import (@toolmark/core + @toolmark/react)', typical, undefined],
  [
    '+ @toolmark/react/ai-sdk (useToolmarkChat)',
    `${typical}export { useToolmarkChat } from '@toolmark/react/ai-sdk'\n`,
    'typical',
  ],
  [
    '+ @toolmark/react/assistant-ui (useToolmarkAssistantTools)',
    `${typical}export { useToolmarkAssistantTools } from '@toolmark/react/assistant-ui'\n`,
    'typical',
  ],
  [
    'server: @toolmark/core/ai-sdk (readToolmarkTools + toolsFromManifest), alone',
    `export { readToolmarkTools, toolsFromManifest } from '@toolmark/core/ai-sdk'\n`,
    undefined,
  ],
]

const measured = {}
console.log(`root: ${root}`)
for (const [label, code, base] of rows) {
  let size
  try {
    size = await gzipSize(code)
  } catch {
    console.log(`${label}: not in this checkout`)
    continue
  }
  if (code === typical) measured.typical = size
  const over = base ? `  (+${size.gzip - measured[base].gzip} B gzip over the typical import)` : ''
  console.log(`${label}: ${size.min} B min, ${size.gzip} B gzip${over}`)
}
