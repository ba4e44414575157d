// The bundle gate: what each import costs an app, measured on what ships.
//
//   npm run size                # build, pack, install the tarballs in a throwaway app, bundle
//   npm run size -- --update    # record the current figures in bench/size.json, on purpose
//   npm run size -- --why       # also list the heaviest modules of each bundle
//   npm run size -- --no-build  # pack what `npm run build` left in dist/
//
// Each goal also gets a floor: its import without the part the goal would have to lose (no
// confirmation code for provider + useTool, no dialog for the others), printed; only a floor
// that takes nothing away fails the run.
//
// Each import is bundled from the installed tarballs with esbuild (and the typical import also
// with Vite 8, Rolldown), minified, NODE_ENV=production, React, React DOM, zod, react-hook-form,
// TanStack Query and the AI SDK external (the app has them anyway), and gzipped at level 9. The
// run fails when a figure grows more than 1 % over the one recorded in bench/size.json, or when a
// bundle holds a module its import must not reach (the `forbid` rules, read from the bundler's
// metafile), or misses a module it must bring (the `require` rules). Goals not met and `pending`
// rules (modules an import should not reach but still does) are printed on every run without
// failing it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { build as esbuild } from 'esbuild'
import { build as viteBuild } from 'vite'
import { createConsumer } from '../scripts/consumer.mjs'
import { buildPackages, packPackages, root } from '../scripts/pack.mjs'
import { packageEntries } from '../scripts/packageEntries.mjs'
import { BUNDLE_OPTIONS, EXTERNAL, IMPORTS } from './sizeImports.mjs'

const recordFile = path.join(root, 'bench/size.json')
const TOLERANCE = 0.01

/** What an import must not bring: a module path pattern and what it stands for. */
const DIALOG = [/@toolmark\/react\/dist\/confirm-dialog\//, 'the confirmation dialog']
const DEVTOOLS = [/@toolmark\/react\/dist\/devtools\//, 'the devtools']
const ACTIVITY = [
  /@toolmark\/(react\/dist\/useAgentActivity|core\/dist\/observers\/activityStore)\.js$/,
  'the activity store',
]
// The dialog shows a file in a confirmation through the forms' file helpers: those may come along.
const FORMS = [
  /@toolmark\/(core\/dist\/forms\/(?!files\/filePreviews\.js$)|react\/dist\/rhf\/)/,
  'the forms code',
]
const THEME = [/@toolmark\/react\/dist\/theme\//, 'the theme']
// Opt-in by import: a registry made with questions() or grants() brings their code, and a
// verifier brings its WebAuthn checks (@toolmark/core/passkey).
const QUESTIONS = [/@toolmark\/core\/dist\/confirmations\/question(Run)?\.js$/, 'the question code']
// The dialog's question form comes with `questions({ form: questionForm })`, questionForm from
// @toolmark/react.
const QUESTION_FORM = [
  /@toolmark\/react\/dist\/confirm-dialog\/(ConfirmDialogQuestion|questionFields|questionForm)\.js$/,
  "the dialog's question form",
]
const GRANTS = [
  /@toolmark\/core\/dist\/confirmations\/grant(List|Pins|Ceiling)\.js$/,
  'the grant code',
]
const WEBAUTHN = [
  /@toolmark\/core\/dist\/(verification\/(checkAssertion|approvalChallenge)|passkey\/verifyApproval)\.js$/,
  'the WebAuthn challenge and checks',
]
const WIZARD = [
  /@toolmark\/(core\/dist\/forms\/(createWizardTools|steps\/combineSteps|steps\/formSteps)|react\/dist\/rhf\/(useWizardTool|wizardRegistration))\.js$/,
  'the wizard (steps) code',
]
const LOOKUP = [
  /@toolmark\/core\/dist\/forms\/fill\/(optionsTool|optionLookups)\.js$/,
  'the options lookup code',
]
const FILES = [
  /@toolmark\/core\/dist\/forms\/files\/(fileFields|resolveFiles|fetchFile|fileRules|fileInputSchema)\.js$/,
  'the file field code',
]
// Tours come with @toolmark/react/tour and @toolmark/core/tour only.
const TOUR = [/@toolmark\/(core|react)\/dist\/tour\//, 'the tour code']
// Anchors come with what adds one (`useToolAnchor`, `addAnchor`, a form's fields, a tour).
const ANCHORS = [/@toolmark\/core\/dist\/anchors\/anchors\.js$/, 'the anchors code']
const STYLESHEET = [
  /@toolmark\/react\/dist\/(confirm-dialog\/confirmDialogStyles|theme\/themeTokens)\.js$/,
  'the dialog stylesheet',
]

/**
 * Each figure: what an app imports, its goal (kB, min + gzip), what it must not reach and what it
 * must bring.
 */
const SCENARIOS = [
  {
    id: 'core',
    label: 'core alone',
    code: IMPORTS.core,
    forbid: [TOUR, FORMS, ACTIVITY, QUESTIONS, GRANTS, WEBAUTHN, ANCHORS],
  },
  {
    id: 'provider-useTool',
    label: 'provider + useTool',
    goal: 16,
    code: IMPORTS['provider-useTool'],
    forbid: [TOUR, DIALOG, DEVTOOLS, ACTIVITY, FORMS, THEME, QUESTIONS, GRANTS, WEBAUTHN, ANCHORS],
  },
  {
    id: 'typical',
    label: 'typical: + <ConfirmDialog> + useFormTool',
    goal: 32,
    vite: true,
    code: IMPORTS.typical,
    // A form without steps, lookups or file fields: formSteps(), optionLookups() and fileFields()
    // bring that code. A dialog on a registry that neither asks nor grants: questions() and
    // grants() bring that code, and questionForm the dialog's question form.
    forbid: [TOUR, DEVTOOLS, ACTIVITY, WIZARD, LOOKUP, FILES, QUESTIONS, QUESTION_FORM, GRANTS],
  },
  {
    id: 'asks-grants',
    label: 'typical, a registry with questions({ form: questionForm }) + grants()',
    code: `export { createToolmark, ok, questions, grants } from '@toolmark/core'
export { ToolProvider, useTool, ConfirmDialog, questionForm } from '@toolmark/react'
export { useFormTool } from '@toolmark/react/rhf'`,
    forbid: [TOUR, DEVTOOLS, ACTIVITY, WIZARD, LOOKUP, FILES],
    require: [QUESTIONS, QUESTION_FORM, GRANTS],
  },
  {
    id: 'forms-all',
    label: 'typical, useFormTool with formSteps + optionLookups + fileFields',
    code: `export { createToolmark, ok } from '@toolmark/core'
export { ToolProvider, useTool, ConfirmDialog } from '@toolmark/react'
export { formSteps, optionLookups, fileFields } from '@toolmark/core/forms'
export { useFormTool } from '@toolmark/react/rhf'`,
    forbid: [TOUR, DEVTOOLS, ACTIVITY],
    require: [WIZARD, LOOKUP, FILES],
  },
  {
    id: 'unstyled-dialog',
    label: 'provider + useTool + <UnstyledConfirmDialog>',
    code: `export { createToolmark, ok } from '@toolmark/core'
export { ToolProvider, useTool, UnstyledConfirmDialog } from '@toolmark/react'`,
    forbid: [TOUR, DEVTOOLS, ACTIVITY, FORMS, STYLESHEET, QUESTION_FORM],
  },
  {
    id: 'ai-sdk-chat',
    label: 'AI SDK chat, browser side: + <ConfirmDialog> + useToolmarkChat',
    goal: 22,
    code: `export { createToolmark, ok } from '@toolmark/core'
export { ToolProvider, useTool, ConfirmDialog } from '@toolmark/react'
export { useToolmarkChat } from '@toolmark/react/ai-sdk'`,
    forbid: [TOUR, DEVTOOLS, ACTIVITY, FORMS, QUESTIONS, QUESTION_FORM, GRANTS],
  },
  {
    id: 'assistant',
    label: 'in-app assistant set: typical + bridge + agent',
    goal: 45,
    code: IMPORTS.assistant,
    forbid: [TOUR, DEVTOOLS, ACTIVITY, WIZARD, LOOKUP, FILES, QUESTIONS, QUESTION_FORM, GRANTS],
  },
  {
    id: 'tour',
    label: 'typical + a tour: useTour + <TourOverlay> + tour.start',
    code: `export { createToolmark, ok } from '@toolmark/core'
export { ToolProvider, useTool, ConfirmDialog } from '@toolmark/react'
export { useFormTool } from '@toolmark/react/rhf'
export { registerTourTool } from '@toolmark/core/tour'
export { useTour, TourOverlay } from '@toolmark/react/tour'`,
    forbid: [DEVTOOLS, ACTIVITY, WIZARD, LOOKUP, FILES, QUESTIONS, QUESTION_FORM, GRANTS],
    require: [TOUR],
  },
  {
    id: 'query',
    label: '/query: useQueryTool + useMutationTool',
    code: `export { useQueryTool, useMutationTool } from '@toolmark/react/query'`,
    forbid: [DIALOG, DEVTOOLS, FORMS],
  },
  {
    id: 'devtools',
    label: '/devtools in production',
    code: `export { ToolmarkDevtools } from '@toolmark/react/devtools'`,
    forbid: [DIALOG, FORMS],
  },
]

/**
 * What each goal's import weighs without a part a goal would have to lose: printed beside the goal
 * on every run, so "not met" says how far the part itself is from fitting. `drop` takes that export
 * out of the goal's import; `stub` replaces each module matching it with empty exports (esbuild
 * only measures, it never runs them).
 */
const FLOORS = [
  {
    of: 'provider-useTool',
    without: 'any confirmation code (the flow, one confirmation, the store)',
    stub: /@toolmark\/core\/dist\/(call\/(confirmFlow|inRunAsks|prepareConfirmation|verifyApproval)|confirmations\/(confirmation|confirmationStore))\.js$/,
  },
  {
    of: 'typical',
    without: 'any dialog',
    drop: 'ConfirmDialog',
  },
  {
    of: 'ai-sdk-chat',
    without: 'any dialog',
    drop: 'ConfirmDialog',
  },
  {
    of: 'assistant',
    without: 'any dialog',
    drop: 'ConfirmDialog',
  },
]

/** Every public entry alone (all its exports), read from package.json, so new entries count. */
const ENTRY_SCENARIOS = ['packages/core', 'packages/mcp', '.'].flatMap((dir) =>
  packageEntries(path.join(root, dir)).map((entry) => ({
    id: `entry ${entry.specifier}`,
    label: `every export of ${entry.specifier}`,
    code: `export * from '${entry.specifier}'`,
    forbid:
      entry.specifier.endsWith('/devtools') || entry.specifier === '@toolmark/react'
        ? []
        : [DEVTOOLS],
  })),
)

/** Peers, measured the same way (esbuild, min + gzip, the same externals). */
const PEERS = [
  ['assistant-ui provider + tools', 34.4 * 1024],
  ['MCP-B hook with its WebMCP runtime', 86.4 * 1024],
  ['CopilotKit provider + tools', 3.54 * 1024 * 1024],
]

const isExternal = (id) =>
  EXTERNAL.some((pattern) =>
    pattern.endsWith('/*') ? id.startsWith(pattern.slice(0, -1)) : id === pattern,
  )

/** An esbuild plugin that loads each module matching `pattern` as its exports and nothing else. */
const stubbing = (pattern) => ({
  name: 'stub',
  setup(build) {
    build.onLoad({ filter: pattern }, ({ path: file }) => {
      const names = [...readFileSync(file, 'utf8').matchAll(/^export \{([^}]*)\}/gm)].flatMap(
        ([, list]) =>
          list.split(',').map((name) =>
            name
              .trim()
              .split(/\s+as\s+/)
              .at(-1),
          ),
      )
      if (names.length === 0) throw new Error(`stub: no export list in ${file}`)
      return { contents: names.map((name) => `export const ${name} = () => {}`).join('\n') }
    })
  },
})

/** The modules of a bundle whose path matches `pattern`. */
const matching = (modules, pattern) =>
  modules.filter(([file]) => pattern.test(file.replaceAll('\\', '/'))).map(([file]) => file)

/** Bundles `code` with esbuild from the consumer; returns sizes and the modules that stayed. */
async function measureEsbuild(code, consumer, stub) {
  const result = await esbuild({
    plugins: stub ? [stubbing(stub)] : [],
    stdin: { contents: code, resolveDir: consumer, sourcefile: 'size-entry.js', loader: 'js' },
    absWorkingDir: consumer,
    ...BUNDLE_OPTIONS,
    metafile: true,
    outfile: path.join(consumer, 'size-entry.out.js'),
  })
  const output = result.outputFiles[0].contents
  const [bundle] = Object.values(result.metafile.outputs)
  const modules = Object.entries(bundle.inputs)
    .map(([file, { bytesInOutput }]) => [file, bytesInOutput])
    .filter(([, bytes]) => bytes > 0)
  return { min: output.length, gzip: gzipSync(output, { level: 9 }).length, modules }
}

/** Builds `code` as an app with Vite (Rolldown), keeping the entry's exports. */
async function measureVite(code, consumer) {
  const entry = path.join(consumer, 'size-entry.js')
  writeFileSync(entry, code)
  const output = await viteBuild({
    root: consumer,
    configFile: false,
    logLevel: 'silent',
    mode: 'production',
    build: {
      write: false,
      minify: true,
      target: 'es2022',
      modulePreload: false,
      rolldownOptions: {
        input: entry,
        external: isExternal,
        preserveEntrySignatures: 'exports-only',
        output: { format: 'es' },
      },
    },
  })
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) => o.output)
  const js = chunks.filter((chunk) => chunk.type === 'chunk')
  if (js.length !== 1) throw new Error(`vite: expected one chunk, got ${js.length}`)
  const modules = Object.entries(js[0].modules)
    .map(([file, info]) => [path.relative(consumer, file), info.renderedLength])
    .filter(([, bytes]) => bytes > 0)
  const bytes = Buffer.from(js[0].code)
  return { min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, modules }
}

const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`
const mB = (bytes) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MB` : kB(bytes))

const update = process.argv.includes('--update')
const why = process.argv.includes('--why')
const WHY_TOP = 12
const readRecord = () => {
  try {
    return JSON.parse(readFileSync(recordFile, 'utf8'))
  } catch {
    return {}
  }
}
const recorded = readRecord()

const work = mkdtempSync(path.join(tmpdir(), 'toolmark-size-'))
try {
  if (!process.argv.includes('--no-build')) buildPackages()
  const tarballs = packPackages(path.join(work, 'packed'))
  const consumer = path.join(work, 'app')
  createConsumer(consumer, Object.values(tarballs), { peers: false })

  const figures = {}
  const problems = []
  const notYet = []
  const rows = []
  const whyRows = []
  const runs = SCENARIOS.flatMap((scenario) => [
    { ...scenario, bundler: 'esbuild' },
    ...(scenario.vite ? [{ ...scenario, bundler: 'vite' }] : []),
  ]).concat(ENTRY_SCENARIOS.map((scenario) => ({ ...scenario, bundler: 'esbuild', entry: true })))
  for (const run of runs) {
    const id = run.bundler === 'esbuild' ? run.id : `${run.id} (${run.bundler})`
    const label = run.bundler === 'esbuild' ? run.label : `${run.label} (Vite)`
    const measure = run.bundler === 'vite' ? measureVite : measureEsbuild
    const { min, gzip, modules } = await measure(run.code, consumer)
    modules.sort((a, b) => b[1] - a[1])
    if (why) {
      whyRows.push(`${label} (${kB(gzip)} gzip, ${modules.length} modules):`)
      for (const [file, bytes] of modules.slice(0, WHY_TOP))
        whyRows.push(`  ${String(bytes).padStart(6)} B  ${file}`)
    }
    const reaching = ([pattern]) => matching(modules, pattern)
    for (const rule of run.forbid) {
      const found = reaching(rule)
      if (found.length > 0) problems.push(`${label} brings ${rule[1]}: ${found.join(', ')}`)
    }
    for (const rule of run.require ?? []) {
      if (reaching(rule).length === 0) problems.push(`${label} does not bring ${rule[1]}`)
    }
    for (const rule of run.pending ?? []) {
      const found = reaching(rule)
      if (found.length > 0) notYet.push(`${label} still brings ${rule[1]}: ${found.join(', ')}`)
    }
    figures[id] = gzip
    const before = recorded[id]
    let verdict
    if (before === undefined) {
      verdict = 'not recorded'
      if (!update && !run.entry)
        problems.push(`${label}: no recorded figure (run npm run size -- --update)`)
    } else if (gzip > before * (1 + TOLERANCE)) {
      const growth = (((gzip - before) / before) * 100).toFixed(1)
      verdict = `GREW ${growth} % over ${kB(before)}`
      if (!update)
        problems.push(`${label}: ${kB(gzip)}, ${growth} % over the recorded ${kB(before)}`)
    } else {
      const delta = gzip - before
      verdict = delta === 0 ? 'as recorded' : `${delta > 0 ? '+' : ''}${delta} B vs recorded`
    }
    let goal = ''
    if (run.goal !== undefined) {
      const met = gzip <= run.goal * 1024
      goal = `goal ≤ ${run.goal} kB (${met ? 'met' : 'not met'})`
      if (!met) notYet.push(`${label}: ${kB(gzip)}, over its goal of ${run.goal} kB`)
    }
    rows.push([label, kB(gzip), `min ${kB(min)}`, goal, verdict])
  }

  const floorRows = []
  for (const floor of FLOORS) {
    const scenario = SCENARIOS.find(({ id }) => id === floor.of)
    const code = floor.drop
      ? scenario.code.replace(new RegExp(`,\\s*${floor.drop}\\b`), '')
      : scenario.code
    const { gzip, modules } = await measureEsbuild(code, consumer, floor.stub)
    // A floor that takes nothing away would print the whole figure as a floor.
    if (code === scenario.code && !(floor.stub && matching(modules, floor.stub).length > 0))
      problems.push(`the floor of ${scenario.label} takes nothing away`)
    const part = figures[floor.of] - gzip
    floorRows.push(
      `${scenario.label} without ${floor.without}: ${kB(gzip)} (goal ${scenario.goal} kB; ` +
        (gzip > scenario.goal * 1024
          ? `over it by ${kB(gzip - scenario.goal * 1024)} without the part)`
          : `the part has ${kB(scenario.goal * 1024 - gzip)} to fit in, and weighs ${kB(part)})`),
    )
  }

  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)))
  console.log(
    'Bundle sizes from the packed tarballs (minified + gzip level 9, NODE_ENV=production; peers external)\n',
  )
  for (const row of rows)
    console.log('  ' + row.map((cell, i) => cell.padEnd(widths[i])).join('   '))
  if (why) console.log(`\nHeaviest modules (minified bytes in the bundle):\n${whyRows.join('\n')}`)
  console.log('\nPeers, measured with esbuild the same way:')
  for (const [label, bytes] of PEERS) console.log(`  ${label.padEnd(widths[0])}   ${mB(bytes)}`)

  if (notYet.length > 0) {
    console.log('\nNot there yet (reported, not failed):')
    for (const line of notYet) console.log(`  - ${line}`)
  }
  console.log("\nFloors: each goal's import without the part it would have to lose (esbuild):")
  for (const line of floorRows) console.log(`  - ${line}`)
  if (update) {
    writeFileSync(recordFile, JSON.stringify(figures, null, 2) + '\n')
    console.log(`\nRecorded in ${path.relative(root, recordFile)}.`)
  }
  if (problems.length > 0) {
    console.error('\nThe bundle gate failed:')
    for (const problem of problems) console.error(`  - ${problem}`)
    console.error(
      'A growth on purpose is recorded with npm run size -- --update; a goal or a forbidden module is fixed in the code.',
    )
    process.exitCode = 1
  } else if (!update) {
    const within = `every figure is within ${TOLERANCE * 100} % of bench/size.json`
    console.log(
      notYet.length > 0
        ? `\nThe gate passed: ${within} and no import reaches a forbidden module or misses a required one; goals not met are listed above.`
        : `\nEvery goal is met and ${within}.`,
    )
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
