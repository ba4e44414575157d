// Bundlers replace `process.env.NODE_ENV` with a string literal; where nothing does and the
// runtime has no `process` (a browser loading the files unbundled), reading it throws.
declare const process: { env: Record<string, string | undefined> }

let readable: boolean
try {
  // The very expression bundlers replace: in a bundle this reads the bundle's own literal.
  void process.env.NODE_ENV
  readable = true
} catch {
  readable = false
}

/**
 * Whether `process.env.NODE_ENV` can be read here: a bundler replaced it, or the runtime has
 * `process`. Code that only development builds need is guarded at its site by
 *
 *     NODE_ENV_READABLE && process.env.NODE_ENV !== 'production'
 *
 * written out in full: esbuild, Rollup/Vite and rolldown fold that expression to `false` in a
 * production build and drop the code it guards, which no constant computed at run time (this one
 * included) allows; and the first operand keeps the read from throwing where nothing replaced it
 * (such a runtime gets the production texts; `tm.dev` still decides whether misconfigurations
 * throw).
 */
export const NODE_ENV_READABLE: boolean = readable
