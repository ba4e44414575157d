import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { bodyOf } from '../src/base/registryBody'
import { anchorsOf } from '../src/anchors/anchors'
import { callSeamOf } from '../src/call/runWrappers'
import { reportError } from '../src/events/reportError'
import { createToolmark, ok } from '../src/index'
import type { Toolmark } from '../src/types'

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src')

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return /\.tsx?$/.test(entry.name) ? [full] : []
  })

const TABLES = new Set(['WeakMap', 'Map', 'WeakSet', 'Set'])

/**
 * Every table and symbol a core module makes once, when it loads, as `file name kind`: a
 * `new WeakMap` / `WeakSet` / `Map` (and an empty `new Set`, which only fills later), a
 * `Symbol(…)` or `Symbol.for(…)`, outside any function and any instance field.
 */
function moduleLevelTables(source: string, file: string): string[] {
  const found: string[] = []
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true)
  const visit = (node: ts.Node, name: string) => {
    // What a function or an instance field makes is made per call or per object.
    if (ts.isFunctionLike(node)) return
    const isStatic = (n: ts.PropertyDeclaration) =>
      n.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword) === true
    if (ts.isPropertyDeclaration(node) && !isStatic(node)) return
    if (
      (ts.isVariableDeclaration(node) ||
        ts.isPropertyDeclaration(node) ||
        ts.isPropertyAssignment(node)) &&
      ts.isIdentifier(node.name)
    ) {
      name = node.name.text
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) {
      const kind = node.expression.text
      const constant = kind === 'Set' && (node.arguments?.length ?? 0) > 0
      if (TABLES.has(kind) && !constant) found.push(`${file} ${name} ${kind}`)
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(sf)
      if (callee === 'Symbol' || callee === 'Symbol.for') found.push(`${file} ${name} ${callee}`)
    }
    ts.forEachChild(node, (child) => visit(child, name))
  }
  for (const statement of sf.statements) visit(statement, '(anonymous)')
  return found
}

/**
 * The module-level tables and symbols of core, none keyed by a registry or its confirmation
 * store: what a registry carries lives in its body (base/registryBody.ts). Each with its reason.
 */
const ALLOWED: Record<string, string> = {
  'base/results.ts NOT_PLAIN Symbol': 'a sentinel value, never a key of anything',
  'base/verifierFlows.ts verifierFlows WeakMap':
    'keyed by a verifier object (passkey/): the verification it brings',
  'confirmations/feature.ts installers WeakMap':
    'keyed by a feature object (grants(), questions()): tells a genuine one from a copy',
  'forms/files/filePreviews.ts previews Map':
    'keyed by a file description: images for previews, shared by the page, not per registry',
  'forms/fill/formMemory.ts memoryVersions WeakMap': 'keyed by a form memory (one per form tool)',
  'forms/fill/formProvenance.ts stores WeakMap': 'keyed by a form memory (one per form tool)',
  'forms/fill/formProvenance.ts EMPTY Map': 'the shared empty provenance, never written',
  'forms/values/formCode.ts FORM_CODE Symbol.for':
    'a key on the values formSteps(), optionLookups() and fileFields() return',
  'lint/consequentialWords.ts THIRD_PERSON Map': 'a constant word list',
  'observers/stableSchema.ts fingerprints WeakMap': 'keyed by a schema object: a memo',
  'schema/jsonSchema.ts fromOverride WeakMap': 'keyed by a schema object: a memo',
  'schema/jsonSchema.ts fromStandard WeakMap': 'keyed by a schema object: a memo',
  'schema/jsonSchema.ts fromStandardMethods WeakMap': 'keyed by a schema object: a memo',
  'schema/jsonSchema.ts fromConverter WeakMap': 'keyed by a schema object: a memo',
  'schema/jsonSchema.ts fromOutput WeakMap': 'keyed by a schema object: a memo',
  'schema/jsonSchema.ts fromOutputMethods WeakMap': 'keyed by a schema object: a memo',
  'schema/jsonSchema.ts signatures WeakMap': 'keyed by a schema object: a memo',
  'schema/jsonSchema.ts titles WeakMap': 'keyed by a schema object: a memo',
  'webmcp/declarativeForms.ts warned WeakSet': 'keyed by a form element: warned once per form',
  'webmcp/webmcp.ts jsonTexts WeakMap': 'keyed by a schema object: a memo',
  'webmcp/webmcp.ts hostSchemas WeakMap': 'keyed by a schema object: a memo',
}

describe('one body per registry', () => {
  it('keeps no module-level table or symbol but the listed ones, none keyed by a registry', () => {
    const found = sourceFiles(srcDir).flatMap((file) =>
      moduleLevelTables(
        readFileSync(file, 'utf8'),
        path.relative(srcDir, file).split(path.sep).join('/'),
      ),
    )
    expect(found.length).toBeGreaterThan(10)
    expect([...found].sort()).toEqual(Object.keys(ALLOWED).sort())
    // It parses every source file of core: seconds on a busy machine.
  }, 30_000)

  it('finds a table keyed by a registry, inside an object or a static field, but not in a function', () => {
    const source = [
      'const hubs = new WeakMap<Toolmark, Hub>()',
      'const parts = { seen: new WeakSet<object>() }',
      "class Keys { static readonly KEY = Symbol.for('toolmark.x'); readonly own = new Map() }",
      'const LIST = new Set(["a", "b"])',
      'export function make() { return new WeakMap() }',
      'const made = () => new Map()',
    ].join('\n')
    expect(moduleLevelTables(source, 'x.ts')).toEqual([
      'x.ts hubs WeakMap',
      'x.ts seen WeakSet',
      'x.ts KEY Symbol.for',
    ])
  })

  it('reaches the body of a registry, and none of an object that only looks like one', () => {
    const tm = createToolmark()
    const body = bodyOf(tm)
    expect(body).toBeDefined()
    expect(bodyOf(tm)).toBe(body)
    expect(bodyOf(createToolmark())).not.toBe(body)
    expect(anchorsOf(tm)).toBe(body!.anchors)
    expect(callSeamOf(tm)).toBe(body)
    const lookalike = { ...tm } as Toolmark
    expect(bodyOf(lookalike)).toBeUndefined()
    expect(bodyOf(Object.create(tm))).toBeUndefined()
    for (const value of [undefined, null, 1, 'tm', () => {}]) expect(bodyOf(value)).toBeUndefined()
    expect(anchorsOf(lookalike)).toBeUndefined()
    expect(callSeamOf(lookalike)).toBeUndefined()
    expect(() => reportError(lookalike, { code: 'x', message: 'y' })).not.toThrow()
  })

  it('reports through the body: an error event on that registry only', () => {
    const tm = createToolmark()
    const other = createToolmark()
    const seen = vi.fn()
    const elsewhere = vi.fn()
    tm.events.on('error', seen)
    other.events.on('error', elsewhere)
    bodyOf(tm)!.report({ code: 'query_failed', message: 'The query failed' })
    expect(seen).toHaveBeenCalledWith({ code: 'query_failed', message: 'The query failed' })
    expect(elsewhere).not.toHaveBeenCalled()
  })

  it('shows nothing of the body on the public registry', async () => {
    const tm = createToolmark()
    tm.register({ name: 'ping', description: 'Pings', run: () => ok('pong') })
    const body = bodyOf(tm)!
    expect(Object.keys(tm)).toEqual([
      'clientId',
      'dev',
      'limits',
      'rev',
      'register',
      'scope',
      'manifest',
      'describe',
      'call',
      'confirmations',
      'undo',
      'canUndo',
      'verifies',
      'cancelAll',
      'setPolicy',
      'subscribe',
      'events',
      'anchor',
      'use',
    ])
    expect(Object.getOwnPropertyNames(tm)).toEqual(Object.keys(tm))
    expect(Object.getOwnPropertySymbols(tm)).toEqual([])
    expect(Object.values(tm)).not.toContain(body)
    expect(Object.values({ ...tm })).not.toContain(body)
    const json = JSON.stringify(tm)
    expect(json).not.toContain('runWrappers')
    expect(json).not.toContain('declarativeForms')
    expect(json).not.toContain('caches')
    // `rev` stays a live getter.
    await new Promise((resolve) => setTimeout(resolve))
    const before = tm.rev
    tm.register({ name: 'pong', description: 'Pongs', run: () => ok('ping') })
    expect(tm.rev).toBe(before + 1)
    expect(Object.getOwnPropertyDescriptor(tm, 'rev')?.get).toBeTypeOf('function')
    expect(await tm.call('ping')).toEqual({ status: 'ok', data: 'pong' })
  })
})
