// Type-checks every TypeScript code block (```ts, ```tsx, ```typescript) of README.md and
// docs/**/*.md against the sources, each block as a module of its own, and names the file and
// line of every failure. The example app the blocks are written against (its `tm`, `api`,
// components) is declared in docs/snippets.d.ts; everything else a block imports. The pages of
// SELF_CONTAINED (docs/getting-started.md) get no such declarations: their blocks are the whole
// files of an app, and scripts/check-getting-started.mjs builds that app from them. Used by
// test/docSnippets.test.ts (in `npm test`) and runnable alone:
// `node scripts/docSnippets.mjs` (exit 1 when a block fails).
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const LANGS = { ts: 'ts', typescript: 'ts', mts: 'ts', tsx: 'tsx' }

/** The markdown files whose snippets are checked, relative to the root, sorted. */
export function docFiles(dir = root) {
  const out = [path.join(dir, 'README.md')]
  const walk = (folder) => {
    for (const name of readdirSync(folder).sort()) {
      const full = path.join(folder, name)
      if (statSync(full).isDirectory()) walk(full)
      else if (name.endsWith('.md')) out.push(full)
    }
  }
  walk(path.join(dir, 'docs'))
  return out.map((file) => path.relative(dir, file))
}

/**
 * Every fenced block of one markdown text: `{ line, info, code }` where `line` is the 1-based line
 * of the block's first code line and `info` the fence's info string (`tsx`, `sh`, ``). Fences may
 * be indented (inside a list) and use ``` or ~~~.
 */
export function blocksOf(markdown) {
  const lines = markdown.split(/\r?\n/)
  const out = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(.*)$/.exec(lines[i])
    if (!open) continue
    const [, indent, fence, info] = open
    const body = []
    let j = i + 1
    for (; j < lines.length; j++) {
      const close = new RegExp(`^\\s*${fence[0]}{${fence.length},}\\s*$`)
      if (close.test(lines[j])) break
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart())
    }
    out.push({ line: i + 2, info: info.trim(), code: body.join('\n') })
    i = j
  }
  return out
}

/** The TypeScript blocks of one markdown text: `{ line, lang, code }` (see `blocksOf`). */
export function snippetsOf(markdown) {
  const out = []
  for (const { line, info, code } of blocksOf(markdown)) {
    const lang = LANGS[/^[\w-]*/.exec(info)[0].toLowerCase()]
    if (lang) out.push({ line, lang, code })
  }
  return out
}

/** Compiler options of the project's tsconfig, for snippets: no test globals leak in. */
function compilerOptions() {
  const configPath = path.join(root, 'tsconfig.json')
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root)
  return { ...parsed.options, types: ['node'], noEmit: true, noUnusedLocals: false }
}

/**
 * Pages whose blocks are whole files a reader pastes as they are: they are checked without
 * docs/snippets.d.ts, so a name that is neither defined on the page nor imported fails.
 */
export const SELF_CONTAINED = ['docs/getting-started.md']

/**
 * A block that starts with its file name (`// toolmark.ts`, `// src/main.tsx`) is that file, so
 * the other blocks of the same page can import it (`from './toolmark'`); undefined otherwise.
 */
export function fileNameOf(code) {
  const named = /^\/\/ ((?:[\w-]+\/)*[\w.-]+\.(?:ts|tsx|mts))\s*$/.exec(code.split('\n')[0])
  return named?.[1]
}

/**
 * Checks every block; returns the failures as `{ file, line, message }` (line in the markdown
 * file), in file order. Each block is compiled as its own module, in memory, under the root so
 * it resolves packages the way the docs' readers' apps do (through the tsconfig paths). The
 * pages of `SELF_CONTAINED` are compiled apart, without the example app's declarations.
 */
export function checkDocSnippets({ files = docFiles() } = {}) {
  const withEnv = new Map()
  const alone = new Map()
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8')
    const group = SELF_CONTAINED.includes(file.replace(/\\/g, '/')) ? alone : withEnv
    for (const snippet of snippetsOf(text)) {
      const name = path.join(
        root,
        '.doc-snippets',
        file.replace(/[\\/]/g, '__'),
        fileNameOf(snippet.code) ?? `L${snippet.line}.${snippet.lang}`,
      )
      // Each block is a module: names in one never collide with another's.
      group.set(name, { file, line: snippet.line, code: `${snippet.code}\nexport {}\n` })
    }
  }
  const options = compilerOptions()
  // Both programs read the same libraries and packages: parse each once.
  const parsed = new Map()
  const failures = []
  if (withEnv.size > 0 || alone.size === 0)
    failures.push(...compile(withEnv, options, parsed, path.join(root, 'docs', 'snippets.d.ts')))
  if (alone.size > 0) failures.push(...compile(alone, options, parsed))
  const order = new Map(files.map((file, i) => [file, i]))
  failures.sort((a, b) => (order.get(a.file) ?? -1) - (order.get(b.file) ?? -1))
  return { blocks: withEnv.size + alone.size, failures }
}

/** Type-checks the blocks of `virtual` (and the declarations file `env`, when given). */
function compile(virtual, options, parsed, env) {
  const host = ts.createCompilerHost(options)
  const readFile = host.readFile.bind(host)
  const fileExists = host.fileExists.bind(host)
  const getSourceFile = host.getSourceFile.bind(host)
  host.readFile = (name) => virtual.get(path.resolve(name))?.code ?? readFile(name)
  host.fileExists = (name) => virtual.has(path.resolve(name)) || fileExists(name)
  const directoryExists = host.directoryExists?.bind(host)
  const virtualDirs = new Set([...virtual.keys()].map((name) => path.dirname(name)))
  host.directoryExists = (dir) =>
    virtualDirs.has(path.resolve(dir)) || (directoryExists ? directoryExists(dir) : true)
  host.getSourceFile = (name, languageVersion, ...rest) => {
    const own = virtual.get(path.resolve(name))
    if (own) return ts.createSourceFile(name, own.code, languageVersion, true)
    const key = path.resolve(name)
    if (!parsed.has(key)) parsed.set(key, getSourceFile(name, languageVersion, ...rest))
    return parsed.get(key)
  }
  const rootNames = env ? [env, ...virtual.keys()] : [...virtual.keys()]
  const program = ts.createProgram({ rootNames, options, host })
  const failures = []
  if (env) {
    const envSource = program.getSourceFile(env)
    for (const diagnostic of [
      ...program.getSyntacticDiagnostics(envSource),
      ...program.getSemanticDiagnostics(envSource),
    ]) {
      const at = envSource.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
      failures.push({ file: 'docs/snippets.d.ts', line: at, message })
    }
  }
  for (const [name, snippet] of virtual) {
    const source = program.getSourceFile(name)
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ]
    for (const diagnostic of diagnostics) {
      const at =
        diagnostic.start === undefined
          ? 0
          : source.getLineAndCharacterOfPosition(diagnostic.start).line
      failures.push({
        file: snippet.file,
        line: snippet.line + at,
        message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
      })
    }
  }
  return failures
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { blocks, failures } = checkDocSnippets()
  for (const f of failures) console.error(`${f.file}:${f.line}: ${f.message}`)
  console.log(`${blocks} TypeScript blocks checked, ${failures.length} errors`)
  process.exit(failures.length > 0 ? 1 : 0)
}
