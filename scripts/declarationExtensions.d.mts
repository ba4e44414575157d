/** Rewrites one declaration file's relative imports to `./x.js` or `./x/index.js`. */
export function withExtensions(text: string, file: string): string

/** Rewrites every `.d.ts` under `dir`; returns how many files changed. */
export function addDeclarationExtensions(dir: string): number
