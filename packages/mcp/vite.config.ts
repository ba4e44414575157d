import { builtinModules } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { aliases } from '../../aliases.ts'
import { packageEntries } from '../../scripts/packageEntries.mjs'

const dir = path.dirname(fileURLToPath(import.meta.url))
const nodeBuiltins = [/^node:/, ...builtinModules]

/**
 * Two builds into `dist/`:
 * - default: the `toolmark-mcp` and `toolmark-lint` CLIs for Node 20, `@toolmark/core` bundled from its sources
 *   (so the CLI runs without a core build), the MCP SDK and `ws` left as dependencies;
 * - `--mode client`: the entries of package.json `exports` (`@toolmark/mcp/client`) for browsers,
 *   one file per source module, `@toolmark/core` left external.
 */
export default defineConfig(({ mode }) =>
  mode === 'client'
    ? {
        resolve: { alias: aliases },
        build: {
          outDir: path.join(dir, 'dist'),
          emptyOutDir: false,
          sourcemap: true,
          target: 'es2022',
          minify: false,
          lib: {
            entry: Object.fromEntries(packageEntries(dir).map((e) => [e.name, e.source])),
            formats: ['es'],
          },
          rolldownOptions: {
            external: [/^@toolmark\/core($|\/)/],
            output: {
              preserveModules: true,
              preserveModulesRoot: path.join(dir, 'src'),
              entryFileNames: '[name].js',
            },
          },
        },
      }
    : {
        resolve: { alias: aliases },
        build: {
          outDir: path.join(dir, 'dist'),
          emptyOutDir: false,
          sourcemap: true,
          target: 'node20',
          ssr: true,
          minify: false,
          rolldownOptions: {
            input: {
              cli: path.join(dir, 'src/cli.ts'),
              lint: path.join(dir, 'src/lint/cli.ts'),
            },
            external: [/^@modelcontextprotocol\/sdk($|\/)/, /^ws$/, ...nodeBuiltins],
            output: { format: 'es', entryFileNames: '[name].js' },
          },
        },
      },
)
