/** One public entry of a package: its subpath, the source it is built from and what it ships. */
export interface PackageEntry {
  subpath: string
  specifier: string
  name: string
  source: string
  output: string
  types: string
}

/** Every subpath of `packageDir/package.json` `exports` that maps to JavaScript. */
export function packageEntries(packageDir: string): PackageEntry[]
