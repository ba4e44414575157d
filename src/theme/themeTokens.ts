/**
 * The theme shared by `<ConfirmDialog>` and `<ToolmarkDevtools>`: one set of public CSS variables
 * (`--toolmark-dialog-*`) with light and dark defaults, so one theme covers both.
 */

/** Public variable → light default, dark default. */
const tokens: Record<string, [light: string, dark: string]> = {
  bg: ['#ffffff', '#1b1e24'],
  fg: ['#16181d', '#eceef2'],
  muted: ['#4d5461', '#a9b0bd'],
  border: ['#d3d7de', '#3c414c'],
  surface: ['#f3f4f6', '#262a33'],
  accent: ['#1d4ed8', '#8ab4ff'],
  'accent-fg': ['#ffffff', '#0b1428'],
  danger: ['#b42318', '#ff9b90'],
  'danger-fg': ['#ffffff', '#1f0906'],
  focus: ['#1d4ed8', '#8ab4ff'],
}

/** Declarations of the private `--_name` variables, from the public ones or the light/dark default. */
export const themeDeclarations = (index: 0 | 1): string =>
  Object.entries(tokens)
    .map(([name, values]) => `--_${name}: var(--toolmark-dialog-${name}, ${values[index]});`)
    .join(' ')
