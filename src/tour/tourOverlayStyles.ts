/**
 * The default look of `<TourOverlay>`. Every rule is scoped under the overlay's data attribute,
 * so nothing leaks into the app. Colors come from the same public `--toolmark-dialog-*` variables
 * as `<ConfirmDialog>`, so one theme covers both; where things sit comes from the
 * `--toolmark-tour-*` variables the overlay sets on its root.
 */

import { themeDeclarations } from '../theme/themeTokens'

/** The attribute every `<TourOverlay>` root carries; the built-in styles are scoped under it. */
export const TOUR_ROOT_ATTRIBUTE = 'data-toolmark-tour'

const root = `[${TOUR_ROOT_ATTRIBUTE}]`

/** The stylesheet injected by `<TourOverlay>` unless `unstyled`. */
export const tourOverlayCss = /* @__PURE__ */ (() => {
  const light = themeDeclarations(0)
  const dark = themeDeclarations(1)
  // One rule a line, written compactly: the text ships as it is (no CSS minifier sees it).
  // The z-index stays below the devtools', and `<ConfirmDialog>` opens in the top layer above
  // both: a `do` step's approval always shows on top of the tour.
  return `${root}{${light}--_radius:var(--toolmark-dialog-radius,12px);--_font:var(--toolmark-dialog-font,system-ui,-apple-system,'Segoe UI',Roboto,sans-serif);--_z:var(--toolmark-tour-z-index,2147482000);color-scheme:light}
@media (prefers-color-scheme: dark){${root}:not([data-color-scheme=light]):not([data-app-color-scheme=light]){${dark}color-scheme:dark}}
${root}[data-color-scheme=dark],${root}[data-app-color-scheme=dark]{${dark}color-scheme:dark}
${root} *,${root} *::before,${root} *::after{box-sizing:border-box}
${root} [data-part=highlight]{position:fixed;z-index:var(--_z);top:calc(var(--toolmark-tour-anchor-top) - 4px);left:calc(var(--toolmark-tour-anchor-left) - 4px);width:calc(var(--toolmark-tour-anchor-width) + 8px);height:calc(var(--toolmark-tour-anchor-height) + 8px);border:2px solid var(--_accent);border-radius:8px;box-shadow:0 0 0 4px color-mix(in srgb,var(--_accent) 22%,transparent);pointer-events:none;transition:top .2s ease,left .2s ease,width .2s ease,height .2s ease}
${root} [data-part=panel]{position:fixed;z-index:var(--_z);top:var(--toolmark-tour-panel-top,auto);left:var(--toolmark-tour-panel-left,auto);width:min(22rem,calc(100vw - 1rem));max-height:calc(100dvh - 1rem);overflow:auto;margin:0;padding-block:1rem;padding-inline:1.25rem;border:1px solid var(--_border);border-radius:var(--_radius);background:var(--_bg);color:var(--_fg);font:400 .9375rem/1.5 var(--_font);text-align:start;box-shadow:0 12px 32px rgb(0 0 0/.24);transition:top .2s ease,left .2s ease}
@media (max-width: 480px){${root} [data-part=panel]{top:auto;right:.5rem;bottom:.5rem;left:.5rem;width:auto;max-height:55dvh}}
@media (prefers-reduced-motion: reduce){${root} *,${root} *::before,${root} *::after{transition:none!important;animation:none!important}}
${root} [data-part=progress]{margin:0 0 .25rem;color:var(--_muted);font-size:.8125rem}
${root} [data-part=title]{margin:0 0 .375rem;font-size:1.0625rem;font-weight:600;line-height:1.35;overflow-wrap:anywhere}
${root} [data-part=text]{margin:0 0 .75rem;overflow-wrap:anywhere;white-space:pre-wrap}
${root} [data-part=text]:focus{outline:none}
${root} [data-part=text]:focus-visible{outline:2px solid var(--_focus);outline-offset:2px;border-radius:2px}
${root} [data-part=status]>p{margin:0 0 .75rem}
${root} [data-part=activity]{color:var(--_muted);font-weight:500}
${root} [data-part=message]{padding-block:.5rem;padding-inline:.75rem;border-inline-start:3px solid var(--_danger);border-radius:6px;background:var(--_surface);overflow-wrap:anywhere}
${root} [data-part=actions]{display:flex;flex-wrap:wrap;justify-content:flex-end;gap:.5rem}
${root} [data-part=actions] [data-action=stop]{margin-inline-end:auto}
${root} button{font:inherit;font-weight:500;min-block-size:2.25rem;padding-block:.4375rem;padding-inline:1rem;border:1px solid var(--_border);border-radius:8px;background:var(--_bg);color:var(--_fg);cursor:pointer}
${root} button[data-variant=primary]{background:var(--_accent);border-color:var(--_accent);color:var(--_accent-fg)}
${root} button:hover:not(:disabled){filter:brightness(.96)}
${root} button:focus-visible{outline:2px solid var(--_focus);outline-offset:2px}
${root} button:disabled{opacity:.6;cursor:not-allowed}`
})()
