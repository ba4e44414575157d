/** The version this repository pins for a dependency, as `name@version`. */
export function pinned(name: string): string

/** Creates `dir` as an ESM app and installs `specs` with npm, preferring the local cache. */
export function createConsumer(
  dir: string,
  specs: string[],
  options?: { peers?: boolean; manifest?: object },
): void
