/** The repository root. */
export const root: string

/** The published packages: directory and name, the kit last. */
export const PACKAGES: { dir: string; name: string }[]

/** Runs `npm run build` at the root (every workspace, then the kit). */
export function buildPackages(): void

/** Packs each package into `dest` (emptied first) and returns `{ name: tarball path }`. */
export function packPackages(dest: string): Record<string, string>
