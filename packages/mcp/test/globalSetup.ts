import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'

const dir = path.dirname(fileURLToPath(import.meta.url))

/** Builds `dist/cli.js` from the current sources once, before the tests spawn it. */
export default async function setup(): Promise<void> {
  process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING ??= 'true'
  await build({
    configFile: path.join(dir, '../vite.config.ts'),
    root: path.join(dir, '..'),
    logLevel: 'warn',
  })
}
