// Type-checks every TypeScript code block (```ts, ```tsx, ```typescript) of README.md and
// docs/**/*.md against the sources, each block as a module of its own, and names the file and
// line of every failure. The example app the blocks are written against (its `tm`, `api`,
// components) is declared in docs/snippets.d.ts; everything else a block imports. Used by test/docSnippets.test.ts (in `npm test`) and runnable alone:
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
 * The TypeScript blocks of one markdown text: `{ line, lang, code }` where `line` is the 1-based
 * line of the block's first code line. Fences may be indented (inside a list) and use ``` or ~~~.
 */
export function snippetsOf(markdown) {
  const lines = markdown.split(/\r?\n/)
  const out = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]+)?/.exec(lines[i])
    if (!open) continue
    const [, indent, fence, info = ''] = open
    const body = []
    let j = i + 1
    for (; j < lines.length; j++) {
      const close = new RegExp(`^\\s*${fence[0]}{${fence.length},}\\s*$`)
      if (close.test(lines[j])) break
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart())
    }
    const lang = LANGS[info.toLowerCase()]
    if (lang) out.push({ line: i + 2, lang, code: body.join('\n') })
    i = j
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
 * Checks every block; returns the failures as `{ file, line, message }` (line in the markdown
 * file), in file order. Each block is compiled as its own module, in memory, under the root so
 * it resolves packages the way the docs' readers' apps do (through the tsconfig paths).
 */
export function checkDocSnippets({ files = docFiles() } = {}) {
  const virtual = new Map()
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8')
    for (const snippet of snippetsOf(text)) {
      // A block that starts with its file name (`// toolmark.ts`) is that file, so the other
      // blocks of the same page can import it (`from './toolmark'`).
      const named = /^\/\/ ([\w-]+\.(?:ts|tsx|mts))\s*$/.exec(snippet.code.split('\n')[0])
      const name = path.join(
        root,
        '.doc-snippets',
        file.replace(/[\\/]/g, '__'),
        named ? named[1] : `L${snippet.line}.${snippet.lang}`,
      )
      // Each block is a module: names in one never collide with another's.
      virtual.set(name, { file, line: snippet.line, code: `${snippet.code}\nexport {}\n` })
    }
  }
  const options = compilerOptions()
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
    return own
      ? ts.createSourceFile(name, own.code, languageVersion, true)
      : getSourceFile(name, languageVersion, ...rest)
  }
  const env = path.join(root, 'docs', 'snippets.d.ts')
  const program = ts.createProgram({ rootNames: [env, ...virtual.keys()], options, host })
  const failures = []
  const envSource = program.getSourceFile(env)
  for (const diagnostic of [
    ...program.getSyntacticDiagnostics(envSource),
    ...program.getSemanticDiagnostics(envSource),
  ]) {
    const at = envSource.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
    failures.push({ file: 'docs/snippets.d.ts', line: at, message })
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
  return { blocks: virtual.size, failures }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { blocks, failures } = checkDocSnippets()
  for (const f of failures) console.error(`${f.file}:${f.line}: ${f.message}`)
  console.log(`${blocks} TypeScript blocks checked, ${failures.length} errors`)
  process.exit(failures.length > 0 ? 1 : 0)
}
