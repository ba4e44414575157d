#!/usr/bin/env node
// Follows docs/getting-started.md in a fresh Vite React app, as a reader does, and fails when
// the page no longer works as written:
//
//   npm run check:getting-started                # npm run pack, then the page's steps
//   npm run check:getting-started -- --no-build  # pack what dist/ holds
//   npm run check:getting-started -- --keep      # leave the app in place, and say where
//
// 1. A fresh app as `npm create vite@latest -- --template react-ts` leaves it (index.html,
//    vite.config.ts, a strict tsconfig.json; react, vite and typescript at this repository's
//    versions), with the tarballs copied next to its package.json, as the page says.
// 2. The page, block by block in its order: a `sh` block whose first line is `# in your app` is
//    run line by line in the app; a TypeScript block is written to the file its first line names
//    (`// src/main.tsx`). A TypeScript block without a file name fails: the page's blocks are
//    whole files (the docs check compiles them without docs/snippets.d.ts, see SELF_CONTAINED).
//    Where the page starts the app (`npm run dev`, a server that does not exit), the app's
//    `npm run build` runs instead (`tsc && vite build`: stricter than the dev server, which does
//    not type-check); the page must say it. From there on the app must keep working: every file
//    the page writes later leaves it type-checking, so a step that needs what a later one
//    installs fails where it is.
// 3. The app type-checks with its own tsconfig and builds with `vite build`.
//
// npm works from its cache first (`--prefer-offline`, through the environment, so the page's
// commands run as written): with this repository installed, nothing new is downloaded but what
// the page itself adds.
import { execSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createConsumer, pinned } from './consumer.mjs'
import { copyTarballs, createSteps, packedTarballs, run } from './consumerRun.mjs'
import { blocksOf, fileNameOf } from './docSnippets.mjs'
import { root } from './pack.mjs'

const PAGE = 'docs/getting-started.md'
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/** The page's command that starts the app: a dev server, checked by building the app instead. */
const START_APP = /^npm run dev\b/

/** What the react-ts template starts an app with, at the versions this repository tests. */
const TEMPLATE_DEPENDENCIES = [
  'react',
  'react-dom',
  '@types/react',
  '@types/react-dom',
  '@vitejs/plugin-react',
  'typescript',
  'vite',
]

const TEMPLATE_FILES = {
  'index.html': `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Tickets</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`,
  'vite.config.ts': `import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

export default defineConfig({ plugins: [react()] })
`,
  // The template's compiler options for the app's own code.
  'tsconfig.json': `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        module: 'ESNext',
        moduleResolution: 'bundler',
        types: ['vite/client'],
        skipLibCheck: true,
        verbatimModuleSyntax: true,
        moduleDetection: 'force',
        noEmit: true,
        jsx: 'react-jsx',
        strict: true,
        noUnusedLocals: true,
        noUnusedParameters: true,
        noFallthroughCasesInSwitch: true,
        noUncheckedSideEffectImports: true,
      },
      include: ['src'],
    },
    null,
    2,
  )}\n`,
}

/**
 * The page's steps in order: `{ kind: 'run', line, command }` for each command of an app block,
 * `{ kind: 'file', line, file, code }` for each TypeScript block. Throws on a TypeScript block
 * that names no file.
 * @param {string} markdown
 */
export function pageSteps(markdown) {
  const steps = []
  for (const { line, info, code } of blocksOf(markdown)) {
    const lang = /^[\w-]*/.exec(info)[0].toLowerCase()
    if (['sh', 'bash', 'shell'].includes(lang)) {
      const [first, ...rest] = code.split('\n')
      if (!/^#\s*in your app\b/.test(first)) continue
      rest.forEach((command, i) => {
        if (command.trim() && !command.trim().startsWith('#'))
          steps.push({ kind: 'run', line: line + 1 + i, command: command.trim() })
      })
    } else if (['ts', 'tsx', 'typescript', 'mts'].includes(lang)) {
      const file = fileNameOf(code)
      if (!file)
        throw new Error(`${PAGE}:${line}: a block must start with its file name (// src/….tsx)`)
      steps.push({ kind: 'file', line, file, code: `${code}\n` })
    }
  }
  return steps
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename
if (isMain) {
  const { step, failures } = createSteps()
  const tarballs = packedTarballs(process.argv)
  const app = mkdtempSync(path.join(tmpdir(), 'toolmark-getting-started-'))
  try {
    let steps = []
    const parsed = step(`${PAGE}: every block is a command in the app or a named file`, () => {
      steps = pageSteps(readFileSync(path.join(root, PAGE), 'utf8'))
      if (!steps.some((s) => s.kind === 'run')) throw new Error('no `# in your app` commands')
      if (!steps.some((s) => s.kind === 'run' && START_APP.test(s.command)))
        throw new Error('no `# in your app` block starts the app (`npm run dev`)')
    })

    copyTarballs(app, tarballs)
    const scaffolded = step('a fresh Vite React app (the react-ts template)', () => {
      createConsumer(app, TEMPLATE_DEPENDENCIES.map(pinned), {
        manifest: { scripts: { dev: 'vite', build: 'tsc && vite build' } },
      })
      for (const [file, text] of Object.entries(TEMPLATE_FILES))
        writeFileSync(path.join(app, file), text)
    })

    // The page's commands as written; npm prefers its cache through the environment.
    const env = {
      ...process.env,
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    }
    const typeCheck = () => run(npx, ['tsc', '-p', 'tsconfig.json'], app, env)
    let followed = parsed && scaffolded
    let started = false // the page has started the app: each later step must keep it working
    for (const s of steps) {
      if (!followed) break
      if (s.kind === 'file') {
        mkdirSync(path.dirname(path.join(app, s.file)), { recursive: true })
        writeFileSync(path.join(app, s.file), s.code)
        if (started)
          followed = step(`${PAGE}:${s.line}: the app still type-checks with ${s.file}`, typeCheck)
        continue
      }
      if (START_APP.test(s.command)) {
        started = true
        followed = step(`${PAGE}:${s.line}: ${s.command} (checked as npm run build)`, () =>
          run(npm, ['run', 'build'], app, env),
        )
        continue
      }
      followed = step(`${PAGE}:${s.line}: ${s.command}`, () => {
        execSync(s.command, { cwd: app, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      })
    }

    if (followed) {
      step("the app type-checks (the template's strict tsconfig)", typeCheck)
      step('the app builds with vite build', () => {
        run(npx, ['vite', 'build', '--logLevel', 'error'], app, env)
        if (!existsSync(path.join(app, 'dist/index.html'))) throw new Error('no dist/index.html')
      })
    }
  } finally {
    if (process.argv.includes('--keep')) console.log(`the app stays in ${app}`)
    else rmSync(app, { recursive: true, force: true })
  }

  if (failures.length > 0) {
    console.error(`\n${failures.length} getting-started check(s) failed: ${failures.join('; ')}`)
    process.exitCode = 1
  } else console.log(`\n${PAGE} works as written, in a fresh app.`)
}
