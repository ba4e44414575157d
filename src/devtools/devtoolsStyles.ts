/**
 * The look of `<ToolmarkDevtools>`. Every rule is scoped under the root's data attribute, so
 * nothing leaks into the app. It reads the same public CSS variables as `<ConfirmDialog>`
 * (`--toolmark-dialog-*`) with the same light and dark defaults, so one theme covers both.
 */

import { themeDeclarations } from '../theme/themeTokens'

/** The attribute the devtools root carries; the styles are scoped under it. */
export const DEVTOOLS_ATTRIBUTE = 'data-toolmark-devtools'

const root = `[${DEVTOOLS_ATTRIBUTE}]`

const theme = themeDeclarations

/** The stylesheet `<ToolmarkDevtools>` renders inside its root. */
export const devtoolsCss = `
${root} {
  ${theme(0)}
  --_radius: var(--toolmark-dialog-radius, 12px);
  --_font: var(--toolmark-dialog-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
  --_mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  color-scheme: light;
  position: fixed;
  z-index: 2147483000;
  display: flex;
  flex-direction: column;
  align-items: flex-end;
  gap: 0.5rem;
  max-inline-size: calc(100vw - 2rem);
  margin: 0;
  padding: 0;
  color: var(--_fg);
  font: 400 0.875rem/1.45 var(--_font);
  text-align: start;
}
@media (prefers-color-scheme: dark) {
  ${root}:not([data-color-scheme='light']):not([data-app-color-scheme='light']) {
    ${theme(1)} color-scheme: dark;
  }
}
${root}[data-color-scheme='dark'], ${root}[data-app-color-scheme='dark'] {
  ${theme(1)} color-scheme: dark;
}
${root}[data-position='bottom-right'] { inset-block-end: 1rem; inset-inline-end: 1rem; }
${root}[data-position='bottom-left'] { inset-block-end: 1rem; inset-inline-start: 1rem; align-items: flex-start; }
${root}[data-position='top-right'] { inset-block-start: 1rem; inset-inline-end: 1rem; flex-direction: column-reverse; }
${root}[data-position='top-left'] {
  inset-block-start: 1rem; inset-inline-start: 1rem; flex-direction: column-reverse; align-items: flex-start;
}
${root} *, ${root} *::before, ${root} *::after { box-sizing: border-box; }
${root} [data-part='panel'] {
  display: flex; flex-direction: column;
  inline-size: min(44rem, calc(100vw - 2rem));
  block-size: min(34rem, calc(100dvh - 5.5rem));
  border: 1px solid var(--_border); border-radius: var(--_radius);
  background: var(--_bg); color: var(--_fg);
  box-shadow: 0 18px 40px rgb(0 0 0 / 0.24);
  overflow: hidden;
}
${root} [data-part='header'] {
  display: flex; align-items: center; justify-content: space-between; gap: 0.5rem;
  padding-block: 0.5rem; padding-inline: 0.875rem 0.5rem;
  border-block-end: 1px solid var(--_border); background: var(--_surface);
}
${root} h2, ${root} h3, ${root} h4 { margin: 0; font-weight: 600; line-height: 1.3; }
${root} h2 { font-size: 0.9375rem; }
${root} h3 { font-size: 0.875rem; }
${root} h4 { font-size: 0.8125rem; }
${root} p { margin: 0; }
${root} code, ${root} pre, ${root} textarea { font-family: var(--_mono); font-size: 0.8125rem; }
${root} [role='tablist'] {
  display: flex; flex-wrap: wrap; gap: 0 0.25rem; padding-inline: 0.5rem;
  border-block-end: 1px solid var(--_border);
}
${root} [role='tab'] {
  border: 0; border-block-end: 2px solid transparent; border-radius: 0;
  background: none; min-block-size: 2.25rem; padding-inline: 0.75rem;
}
${root} [role='tab'][aria-selected='true'] { border-block-end-color: var(--_accent); font-weight: 600; }
${root} [role='tabpanel'] { flex: 1; min-inline-size: 0; overflow: auto; padding: 0.875rem; }
${root} [role='tabpanel']:focus-visible { outline: 2px solid var(--_focus); outline-offset: -2px; }
${root} [role='tabpanel'] > * + * { margin-block-start: 0.75rem; }
${root} button, ${root} select, ${root} textarea {
  font: inherit; color: var(--_fg); background: var(--_bg);
  border: 1px solid var(--_border); border-radius: 8px;
}
${root} button {
  font-weight: 500; min-block-size: 2rem; padding-block: 0.25rem; padding-inline: 0.75rem; cursor: pointer;
}
${root} select { min-block-size: 2rem; min-inline-size: 0; max-inline-size: 100%; padding-inline: 0.5rem; }
${root} [data-part='fields'] > label, ${root} [data-part='toolbar'] > label { max-inline-size: 100%; }
${root} textarea { inline-size: 100%; min-block-size: 9rem; padding: 0.5rem; resize: vertical; }
${root} textarea[aria-invalid='true'] { border-color: var(--_danger); }
${root} button[data-variant='primary'] {
  background: var(--_accent); border-color: var(--_accent); color: var(--_accent-fg);
}
${root} button:hover:not(:disabled) { filter: brightness(0.96); }
${root} button:focus-visible, ${root} select:focus-visible, ${root} textarea:focus-visible,
${root} summary:focus-visible {
  outline: 2px solid var(--_focus); outline-offset: 2px;
}
${root} button:disabled { opacity: 0.6; cursor: not-allowed; }
${root} [data-part='toggle'] {
  display: inline-flex; align-items: center; gap: 0.5rem;
  min-block-size: 2.5rem; padding-inline: 1rem; border-radius: 999px;
  box-shadow: 0 6px 18px rgb(0 0 0 / 0.2);
}
${root} [data-part='count'] {
  padding-inline: 0.4rem; border-radius: 999px; background: var(--_danger); color: var(--_bg);
  font-size: 0.75rem; font-weight: 600;
}
${root} form { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0.625rem; }
${root} [data-part='toolbar'], ${root} [data-part='fields'], ${root} [data-part='actions'] {
  display: flex; flex-wrap: wrap; align-items: center; justify-content: flex-start; gap: 0.5rem 0.75rem;
}
${root} label { display: inline-flex; align-items: center; gap: 0.375rem; color: var(--_muted); }
${root} label[data-block] { display: flex; flex-direction: column; align-items: stretch; }
${root} [data-part='muted'] { color: var(--_muted); }
${root} ul[data-part='list'], ${root} ol[data-part='list'] {
  list-style: none; margin: 0; padding: 0; display: grid; gap: 0.5rem;
  grid-template-columns: minmax(0, 1fr);
}
/* Grid and flex items may shrink below their longest word, and long names and one-line
   signatures break anywhere: the panel never scrolls sideways and every action stays in view. */
${root} [data-part='item'] {
  display: grid; gap: 0.375rem; padding: 0.625rem 0.75rem;
  grid-template-columns: minmax(0, 1fr); min-inline-size: 0;
  border: 1px solid var(--_border); border-radius: 8px;
}
${root} [role='tabpanel'] code, ${root} [role='tabpanel'] p, ${root} [data-part='item'] h3,
${root} [data-part='result'] > *, ${root} [data-part='toolbar'] > * {
  min-inline-size: 0; overflow-wrap: anywhere;
}
${root} [data-part='item-head'] { display: flex; flex-wrap: wrap; align-items: center; gap: 0.375rem 0.5rem; }
${root} [data-part='item-head'] [data-part='actions'] { margin-inline-start: auto; }
${root} ul[data-part='badges'] { display: inline-flex; flex-wrap: wrap; gap: 0.25rem; margin: 0; padding: 0; list-style: none; }
${root} [data-part='badge'] {
  display: inline-block; padding-inline: 0.4rem; border: 1px solid var(--_border); border-radius: 999px;
  background: var(--_surface); color: var(--_fg); font-size: 0.75rem; line-height: 1.5;
}
${root} [data-part='badge'][data-tone='danger'] { color: var(--_danger); border-color: currentColor; }
${root} [data-part='badge'][data-tone='accent'] { color: var(--_accent); border-color: currentColor; }
${root} pre[data-part='json'] {
  margin: 0; max-block-size: 16rem; overflow: auto; padding: 0.5rem;
  border-radius: 6px; background: var(--_surface); white-space: pre-wrap; overflow-wrap: anywhere;
}
${root} [data-part='result'] {
  display: grid; grid-template-columns: minmax(0, 1fr); gap: 0.5rem; padding: 0.625rem 0.75rem;
  border: 1px solid var(--_border); border-inline-start: 3px solid var(--_accent); border-radius: 8px;
}
${root} [data-part='result'][data-tone='danger'] { border-inline-start-color: var(--_danger); }
${root} [data-part='error'] { color: var(--_danger); }
${root} [data-part='issues'] { margin: 0; padding-inline-start: 1.25rem; }
${root} progress { inline-size: 100%; block-size: 0.5rem; accent-color: var(--_accent); }
${root} table { inline-size: 100%; border-collapse: collapse; font-size: 0.8125rem; }
${root} th, ${root} td {
  padding-block: 0.25rem; padding-inline: 0.375rem; text-align: start; vertical-align: top;
  border-block-end: 1px solid var(--_border); overflow-wrap: anywhere;
}
${root} thead th { color: var(--_muted); font-weight: 500; }
${root} summary { cursor: pointer; color: var(--_muted); }
${root} details > * + * { margin-block-start: 0.375rem; }
${root} [data-part='visually-hidden'] {
  position: absolute; inline-size: 1px; block-size: 1px; margin: -1px; padding: 0;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
`
