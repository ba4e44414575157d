#!/usr/bin/env node
/**
 * Writes the JSON Schema of every bridge protocol v1 message as `.json` files.
 *
 *   node scripts/emit-protocol-schemas.mjs [outDir]
 *
 * Run from packages/core after `vite build`: it reads the built `dist/protocol/index.js` and writes
 * `dist/schemas/<type>.json` (one per message), `to-page.json` and `to-agent.json` (one per
 * direction). The schemas themselves live in `src/protocol/schemas.ts`.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * Writes each schema to `outDir` and returns the written file paths, sorted.
 * @param {{ messageSchemas: Record<string, object>, directionSchemas: { toPage: object, toAgent: object } }} schemas
 * @param {string} outDir
 */
export async function emitProtocolSchemas(schemas, outDir) {
  const files = {
    ...Object.fromEntries(
      Object.entries(schemas.messageSchemas).map(([type, schema]) => [`${type}.json`, schema]),
    ),
    'to-page.json': schemas.directionSchemas.toPage,
    'to-agent.json': schemas.directionSchemas.toAgent,
  }
  await mkdir(outDir, { recursive: true })
  const written = []
  for (const [name, schema] of Object.entries(files)) {
    const file = path.join(outDir, name)
    await writeFile(file, `${JSON.stringify(schema, null, 2)}\n`)
    written.push(file)
  }
  return written.sort()
}

const isMain =
  process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href
if (isMain) {
  const dist = fileURLToPath(new URL('../dist/', import.meta.url))
  const built = path.join(dist, 'protocol/index.js')
  let schemas
  try {
    schemas = await import(pathToFileURL(built).href)
  } catch (cause) {
    console.error(`emit-protocol-schemas: cannot load ${built}; run "vite build" first.`)
    console.error(cause)
    process.exit(1)
  }
  const outDir = path.resolve(process.argv[2] ?? path.join(dist, 'schemas'))
  const written = await emitProtocolSchemas(schemas, outDir)
  console.log(`emit-protocol-schemas: wrote ${written.length} schemas to ${outDir}`)
}
