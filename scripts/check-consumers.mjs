#!/usr/bin/env node
// Installs the packed tarballs in a fresh app the way docs/getting-started.md says, then checks
// what a user meets:
//
//   npm run check:consumers             # npm run pack, then every check below
//   npm run check:consumers -- --no-build  # pack what dist/ holds
//
// 1. `npm run pack`, then `npm i ./packed/toolmark-*.tgz` (and the peers) in a throwaway app;
// 2. the declarations type-check with `skipLibCheck: false` under `moduleResolution` `bundler`
//    (a Vite React app, JSX), `node16` and `nodenext` (a Node ESM server), importing every public
//    entry read from the packages' `exports`, and no export is `any`;
// 3. the Vite React app builds, and Node imports every entry at run time;
// 4. a subpath that is not exported and `require()` fail with Node's standard errors;
// 5. `npx --package=./toolmark-mcp-<version>.tgz toolmark-mcp` prints its version and serves MCP
//    over stdio (the package has two commands, toolmark-mcp and toolmark-lint, so npx is told which)
//    (an MCP SDK client lists its pairing tool).
//
// The page itself, block by block in a fresh Vite app, is scripts/check-getting-started.mjs; both
// share scripts/consumerRun.mjs (the tarballs of the run, named steps).
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createConsumer, pinned } from './consumer.mjs'
import { copyTarballs, createSteps, packedTarballs, run } from './consumerRun.mjs'
import { PACKAGES, root } from './pack.mjs'
import { packageEntries } from './packageEntries.mjs'

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
const tsc = path.join(root, 'node_modules/typescript/bin/tsc')

const { step, failures } = createSteps()

// 1. Pack, as the docs say, and install in a fresh app.
const tarballs = packedTarballs(process.argv)

// `--app <dir>` reuses an app a previous run installed (`--keep` leaves it in place).
const reuse = process.argv.includes('--app')
  ? process.argv[process.argv.indexOf('--app') + 1]
  : undefined
const app = reuse ? path.resolve(reuse) : mkdtempSync(path.join(tmpdir(), 'toolmark-consumer-'))
const entries = PACKAGES.flatMap(({ dir }) => packageEntries(path.join(root, dir)))
try {
  // The docs' steps: the tarballs sit in the app, installed and run by relative path.
  const local = copyTarballs(app, tarballs)
  if (!reuse)
    step('npm i ./toolmark-*.tgz in a fresh app', () =>
      createConsumer(app, [
        ...Object.values(local),
        ...[
          'react',
          'react-dom',
          '@types/react',
          '@types/react-dom',
          '@types/node',
          'zod',
          'react-hook-form',
          '@tanstack/react-query',
          'ai',
          '@ai-sdk/react',
          '@assistant-ui/react',
        ].map(pinned),
      ]),
    )

  // 2. Types for every resolver. Each entry is imported as a namespace; `NotAny` fails the check
  // when a declaration resolves to nothing (what `skipLibCheck` hides).
  const ident = (entry) => `entry_${entry.specifier.replace(/[^A-Za-z0-9]/g, '_')}`
  const imports = entries
    .map((entry) => `import * as ${ident(entry)} from '${entry.specifier}'`)
    .join('\n')
  const notAny = `type NotAny<T> = 0 extends 1 & T ? never : T
export const entries: NotAny<unknown>[] = [${entries.map(ident).join(', ')}]`
  mkdirSync(path.join(app, 'src'), { recursive: true })
  writeFileSync(
    path.join(app, 'src/server.ts'),
    `${imports}
import { createToolmark, ok, type ToolResult } from '@toolmark/core'
import { createPageClient } from '@toolmark/core/agent'

${notAny}
const tm = createToolmark()
const result: ToolResult<{ id: number }> = ok({ id: 1 })
const started: NotAny<typeof createPageClient> = createPageClient
console.log(tm.clientId, result.status, typeof started)
`,
  )
  writeFileSync(
    path.join(app, 'src/main.tsx'),
    `${imports}
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { z } from 'zod'
import { createToolmark, ok } from '@toolmark/core'
import { ConfirmDialog, ToolProvider, useTool } from '@toolmark/react'

${notAny}
const tm = createToolmark()

function Counter() {
  const tool = useTool({
    name: 'counter.add',
    description: 'Adds to the counter.',
    input: z.object({ by: z.number() }),
    run: ({ by }) => ok({ by }),
  })
  const status: NotAny<typeof tool.status> = tool.status
  return <p>{status}</p>
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ToolProvider toolmark={tm}>
      <Counter />
      <ConfirmDialog />
    </ToolProvider>
  </StrictMode>,
)
console.log(entries.length)
`,
  )
  writeFileSync(
    path.join(app, 'index.html'),
    '<!doctype html><div id="root"></div><script type="module" src="/src/main.tsx"></script>\n',
  )
  // The entries a server uses; /forms (the DOM form adapter) and /passkey name DOM types.
  const coreEntries = entries.filter(
    (entry) =>
      entry.specifier.startsWith('@toolmark/core') && !/\/(forms|passkey)$/.test(entry.specifier),
  )
  writeFileSync(
    path.join(app, 'src/core-server.ts'),
    `${coreEntries.map((entry) => `import * as ${ident(entry)} from '${entry.specifier}'`).join('\n')}

type NotAny<T> = 0 extends 1 & T ? never : T
export const entries: NotAny<unknown>[] = [${coreEntries.map(ident).join(', ')}]
`,
  )
  const base = { target: 'ES2022', strict: true, skipLibCheck: false, noEmit: true }
  const configs = {
    bundler: {
      compilerOptions: {
        ...base,
        module: 'ESNext',
        moduleResolution: 'bundler',
        jsx: 'react-jsx',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        // The AI SDK's own declarations name Node's Buffer.
        types: ['node'],
      },
      files: ['src/main.tsx'],
    },
    node16: {
      compilerOptions: { ...base, module: 'node16', lib: ['ES2022', 'DOM'], types: ['node'] },
      files: ['src/server.ts'],
    },
    nodenext: {
      compilerOptions: { ...base, module: 'nodenext', lib: ['ES2022', 'DOM'], types: ['node'] },
      files: ['src/server.ts'],
    },
    // A server without DOM types type-checks every core entry but /forms and /passkey.
    'nodenext, core without DOM': {
      compilerOptions: { ...base, module: 'nodenext', lib: ['ES2022'], types: ['node'] },
      files: ['src/core-server.ts'],
    },
  }
  for (const [resolution, config] of Object.entries(configs)) {
    const file = path.join(app, `tsconfig.${resolution.replace(/\W+/g, '-')}.json`)
    writeFileSync(file, JSON.stringify(config, null, 2))
    step(`types: every entry under moduleResolution ${resolution}, skipLibCheck false`, () =>
      run(process.execPath, [tsc, '-p', file], app),
    )
  }

  // 3. The app builds with Vite; Node imports every entry.
  step('a Vite React app builds from the tarballs', () => {
    writeFileSync(
      path.join(app, 'vite.build.mjs'),
      `import { build } from ${JSON.stringify(pathToFileURL(createRequire(path.join(root, 'package.json')).resolve('vite')).href)}
import react from ${JSON.stringify(pathToFileURL(createRequire(path.join(root, 'package.json')).resolve('@vitejs/plugin-react')).href)}
await build({ root: process.cwd(), configFile: false, logLevel: 'error', plugins: [react()] })
`,
    )
    run(process.execPath, ['vite.build.mjs'], app)
  })
  step('Node imports every entry at run time', () => {
    writeFileSync(
      path.join(app, 'imports.mjs'),
      `const specifiers = ${JSON.stringify(entries.map((entry) => entry.specifier))}
for (const specifier of specifiers) {
  const module = await import(specifier)
  if (Object.keys(module).length === 0) throw new Error(specifier + ' has no exports')
}
console.log(specifiers.length)
`,
    )
    const count = run(process.execPath, ['imports.mjs'], app).trim()
    if (Number(count) !== entries.length) throw new Error(`imported ${count} of ${entries.length}`)
  })

  // 4. Bad input gets the standard errors, naming the package.
  step('an entry that is not exported fails with ERR_PACKAGE_PATH_NOT_EXPORTED', () => {
    const out = spawnSync(process.execPath, ['-e', "import('@toolmark/core/internal')"], {
      cwd: app,
      encoding: 'utf8',
    })
    if (!out.stderr.includes('ERR_PACKAGE_PATH_NOT_EXPORTED')) throw new Error(out.stderr)
    if (!out.stderr.includes('@toolmark/core')) throw new Error(out.stderr)
  })
  step('require() fails: the packages are ESM-only', () => {
    writeFileSync(path.join(app, 'required.cjs'), "require('@toolmark/core')\n")
    const out = spawnSync(process.execPath, ['required.cjs'], { cwd: app, encoding: 'utf8' })
    if (out.status === 0 || !out.stderr.includes('ERR_PACKAGE_PATH_NOT_EXPORTED'))
      throw new Error(out.stderr || 'require() succeeded')
  })

  // 5. The MCP server from its tarball.
  const mcp = local['@toolmark/mcp']
  step('npx --package=./toolmark-mcp-<version>.tgz toolmark-mcp --version', () => {
    const { version } = JSON.parse(
      readFileSync(path.join(root, 'packages/mcp/package.json'), 'utf8'),
    )
    const out = run(npx, ['--yes', `--package=${mcp}`, 'toolmark-mcp', '--version'], app)
    if (!out.includes(version)) throw new Error(`printed ${out}`)
    // What an MCP client's config holds: the tarball by absolute path, from any directory.
    const absolute = run(
      npx,
      ['--yes', `--package=${path.join(app, mcp)}`, 'toolmark-mcp', '--version'],
      tmpdir(),
    )
    if (!absolute.includes(version)) throw new Error(`printed ${absolute}`)
  })
  step('npx --package=./toolmark-mcp-<version>.tgz toolmark-mcp serves MCP over stdio', () => {
    writeFileSync(
      path.join(app, 'mcp-client.mjs'),
      `import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
const transport = new StdioClientTransport({
  command: ${JSON.stringify(npx)},
  args: ['--yes', ${JSON.stringify(`--package=${mcp}`)}, 'toolmark-mcp', '--allow-origin', 'http://localhost:5173', '--port', '0'],
  stderr: 'ignore',
  // The SDK hands the child only HOME, PATH and a few more; npx may ask the registry, which on a
  // machine with its own CA or proxy settings needs them (without, it stalls past the timeout).
  env: { ...process.env },
})
const client = new Client({ name: 'consumer-check', version: '1.0.0' })
await client.connect(transport)
const { tools } = await client.listTools()
await client.close()
if (!tools.some((tool) => tool.name === 'toolmark_pairing')) throw new Error(JSON.stringify(tools))
console.log(tools.map((tool) => tool.name).join(','))
`,
    )
    run(process.execPath, ['mcp-client.mjs'], app)
  })
} finally {
  if (!reuse && !process.argv.includes('--keep')) rmSync(app, { recursive: true, force: true })
  else console.log(`the app stays in ${app}`)
}

if (failures.length > 0) {
  console.error(`\n${failures.length} consumer check(s) failed: ${failures.join('; ')}`)
  process.exitCode = 1
} else console.log(`\nEvery consumer check passed (${entries.length} entries).`)
