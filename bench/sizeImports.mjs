// What `size.mjs` and `size-across.mjs` share: the imports both measure and how each bundle is
// made, so the two never measure differently.

/** What an app imports, by the gate's id. */
export const IMPORTS = {
  core: `export { createToolmark, ok, invalid, refuse, cancelled, errorResult } from '@toolmark/core'`,
  'provider-useTool': `export { createToolmark, ok } from '@toolmark/core'
export { ToolProvider, useTool } from '@toolmark/react'`,
  typical: `export { createToolmark, ok } from '@toolmark/core'
export { ToolProvider, useTool, ConfirmDialog } from '@toolmark/react'
export { useFormTool } from '@toolmark/react/rhf'`,
  assistant: `export { createToolmark, ok } from '@toolmark/core'
export { ToolProvider, useTool, ConfirmDialog } from '@toolmark/react'
export { useFormTool } from '@toolmark/react/rhf'
export { bridge, createInPageChannel } from '@toolmark/core/bridge'
export { createPageClient, pageTools } from '@toolmark/core/agent'`,
}

/** The peers an app has anyway: external to every bundle. */
export const EXTERNAL = [
  'react',
  'react/*',
  'react-dom',
  'react-dom/*',
  'zod',
  'zod/*',
  'react-hook-form',
  '@hookform/*',
  '@tanstack/*',
  'ai',
  'ai/*',
  '@ai-sdk/*',
  '@assistant-ui/*',
  '@modelcontextprotocol/*',
]

/** The esbuild options of every measured bundle: minified ES2022 for browsers, production. */
export const BUNDLE_OPTIONS = {
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  external: EXTERNAL,
  define: { 'process.env.NODE_ENV': '"production"' },
  write: false,
  logLevel: 'silent',
}
