/** Flags every launch uses: headless, and kept off the network. */
export declare const CHROMIUM_ARGS: readonly string[]
/** The Chromium to launch: TOOLMARK_CHROMIUM, /usr/bin/chromium, or Playwright's; else throws naming the three. */
export declare function chromiumPath(
  env?: Record<string, string | undefined>,
  debian?: string,
  playwright?: () => string | undefined,
): string
/** Playwright launch options for that Chromium, with the common flags and `extraArgs`. */
export declare function chromiumLaunchOptions(extraArgs?: readonly string[]): {
  executablePath: string
  args: string[]
}
/** Vitest globalSetup: fails a browser project at its start when no Chromium is found. */
export declare function setup(): void
