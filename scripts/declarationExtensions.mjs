#!/usr/bin/env node
// Gives every relative import in emitted declarations the extension Node's ESM resolution needs.
//
//   node scripts/declarationExtensions.mjs dist/types [more dirs]
//
// The sources import './x' (the bundler resolution the repository develops with); tsc copies those
// specifiers into the `.d.ts` files as they are. A consumer type-checking under `moduleResolution`
// `node16` or `nodenext` resolves declarations like Node resolves files: './x' is not found, and
// with `skipLibCheck` every export silently becomes `any`. This rewrites './x' to './x.js' or
// './x/index.js', whichever declaration exists, and fails on a specifier that matches neither.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}(?:\/[^'"]*)?)\2/g

/** Rewrites one declaration file's text; `file` is its path, for resolving and for errors. */
export function withExtensions(text, file) {
  return text.replace(SPECIFIER, (match, lead, quote, specifier) => {
    if (/\.(js|mjs|cjs|json)$/.test(specifier)) return match
    const base = path.resolve(path.dirname(file), specifier)
    let resolved
    if (existsSync(`${base}.d.ts`)) resolved = `${specifier}.js`
    else if (existsSync(path.join(base, 'index.d.ts')))
      resolved = `${specifier.replace(/\/$/, '')}/index.js`
    else throw new Error(`${file}: cannot resolve "${specifier}" to a declaration file`)
    return `${lead}${quote}${resolved}${quote}`
  })
}

/** Rewrites every `.d.ts` under `dir`; returns how many files changed. */
export function addDeclarationExtensions(dir) {
  let changed = 0
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name)
    if (statSync(file).isDirectory()) changed += addDeclarationExtensions(file)
    else if (name.endsWith('.d.ts')) {
      const text = readFileSync(file, 'utf8')
      const next = withExtensions(text, file)
      if (next !== text) {
        writeFileSync(file, next)
        changed++
      }
    }
  }
  return changed
}

const isMain =
  process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href
if (isMain) {
  const dirs = process.argv.slice(2)
  if (dirs.length === 0) {
    console.error('usage: node scripts/declarationExtensions.mjs <dir> [dir…]')
    process.exit(2)
  }
  for (const dir of dirs) {
    const changed = addDeclarationExtensions(path.resolve(dir))
    console.log(
      `declarationExtensions: ${changed} files in ${path.relative(process.cwd(), dir) || dir}`,
    )
  }
}
