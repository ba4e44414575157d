/**
 * The default look of `<ConfirmDialog>`. Every rule is scoped under the dialog's data attribute,
 * so nothing leaks into the app. Colors come from public CSS variables with light and dark
 * fallbacks; logical properties keep the layout right in right-to-left pages.
 */

import { themeDeclarations } from '../theme/themeTokens'
import { ROOT_ATTRIBUTE } from './rootAttribute'

const root = `[${ROOT_ATTRIBUTE}]`

/** The stylesheet injected by `<ConfirmDialog>` unless `unstyled`. */
export const confirmDialogCss = /* @__PURE__ */ (() => {
  const light = themeDeclarations(0)
  const dark = themeDeclarations(1)
  // One rule a line, written compactly: the text ships as it is (no CSS minifier sees it).
  return `${root}{${light}--_radius:var(--toolmark-dialog-radius,12px);--_font:var(--toolmark-dialog-font,system-ui,-apple-system,'Segoe UI',Roboto,sans-serif);color-scheme:light;box-sizing:border-box;inline-size:min(34rem,calc(100vw - 2rem));max-block-size:calc(100dvh - 2rem);overflow:auto;margin:auto;padding-block:1.25rem;padding-inline:1.5rem;border:1px solid var(--_border);border-radius:var(--_radius);background:var(--_bg);color:var(--_fg);font:400 .9375rem/1.5 var(--_font);text-align:start;box-shadow:0 24px 48px rgb(0 0 0/.28)}
@media (prefers-color-scheme: dark){${root}:not([data-color-scheme=light]):not([data-app-color-scheme=light]){${dark}color-scheme:dark}}
${root}[data-color-scheme=dark],${root}[data-app-color-scheme=dark]{${dark}color-scheme:dark}
${root}[data-tone=danger]{border-block-start:4px solid var(--_danger)}
${root}::backdrop{background:rgb(10 12 16/.55)}
${root}:focus{outline:none}
${root} *,${root} *::before,${root} *::after{box-sizing:inherit}
${root} [data-part=meta]{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem;margin:0 0 .25rem;color:var(--_muted);font-size:.8125rem}
${root} [data-part=meta] p{margin:0}
${root} [data-part=title]{margin:0 0 .5rem;font-size:1.125rem;font-weight:600;line-height:1.35}
${root} [data-part=summary]{margin:0 0 1rem;overflow-wrap:anywhere}
${root} [data-part=changes],${root} [data-part=values]{inline-size:100%;border-collapse:collapse;margin:0 0 1rem;font-size:.875rem}
${root} [data-part=changes] th,${root} [data-part=changes] td,${root} [data-part=values] th,${root} [data-part=values] td{padding-block:.375rem;padding-inline:.5rem;text-align:start;vertical-align:top;border-block-end:1px solid var(--_border);overflow-wrap:anywhere}
${root} [data-part=changes] thead th,${root} [data-part=values] thead th{color:var(--_muted);font-weight:500}
${root} [data-part=changes] tbody th{font-weight:500;font-family:ui-monospace,monospace}
${root} [data-part=values] tbody th{font-weight:500;inline-size:38%}
${root} [data-part=values] td{white-space:pre-wrap}
${root} [data-part=values] tr[data-changed]>th{border-inline-start:3px solid var(--_accent)}
${root} [data-part=agent-filled]{display:inline-block;padding-inline:.375rem;border-radius:999px;border:1px dashed currentColor;color:var(--_muted);font-size:.75rem;font-weight:600}
${root} [data-part=changed]{display:inline-block;padding-inline:.375rem;border-radius:999px;background:var(--_surface);color:var(--_accent);font-size:.75rem;font-weight:600}
${root} [data-part=values]+[data-part=more]{margin-block:-.5rem 1rem}
${root} [data-part=before]{color:var(--_muted)}
${root} [data-part=after]::before{content:'→ '/'';color:var(--_muted)}
${root} [data-part=after]:dir(rtl)::before{content:'← '/''}
${root} [data-part=masked]{letter-spacing:.1em}
${root} [data-part=review]{list-style:none;margin:0 0 1rem;padding:0;max-block-size:max(12rem,calc(100dvh - 17rem));overflow:auto;border:1px solid var(--_border);border-radius:8px}
${root} [data-part=review]>li{padding-block:.75rem;padding-inline:.875rem;border-block-end:1px solid var(--_border)}
${root} [data-part=review]>li:last-child{border-block-end:0}
${root} [data-part=review]>li[data-tone=danger]{border-inline-start:4px solid var(--_danger)}
${root} [data-part=review]>li[data-ended]{background:var(--_surface)}
${root} [data-part=review] [data-part=changes],${root} [data-part=review] [data-part=values]{margin-block:.5rem 0}
${root} [data-part=review] [data-part=more]{margin-block-start:.5rem}
${root} [data-part=row-label]{display:flex;align-items:flex-start;gap:.625rem;cursor:pointer;overflow-wrap:anywhere}
${root} [data-part=row-label] input{flex:none;inline-size:1.125rem;block-size:1.125rem;margin:.1875rem 0 0;accent-color:var(--_accent)}
${root} [data-part=row-title]{font-weight:600}
${root} [data-part=row-summary]{display:block}
${root} [data-part=row-ended],${root} [data-part=review] [data-part=verify]{margin:.25rem 0 0;padding-inline-start:1.75rem;font-size:.8125rem;font-weight:600}
${root} [data-part=timer]{margin:0 0 1rem;color:var(--_muted);font-size:.8125rem;font-variant-numeric:tabular-nums}
${root} [data-part=outcome]{margin:0 0 1rem;padding-block:.625rem;padding-inline:.875rem;border-inline-start:3px solid var(--_danger);border-radius:6px;background:var(--_surface)}
${root} [data-part=outcome] p{margin:0}
${root} [data-part=outcome] p+p,${root} [data-part=outcome] ul{margin-block-start:.25rem}
${root} [data-part=outcome] ul{margin-block-end:0;padding-inline-start:1.25rem}
${root} [data-part=outcome-title]{font-weight:600}
${root} [data-part=actions]{display:flex;flex-wrap:wrap;justify-content:flex-end;gap:.5rem}
${root} [data-part=stop]{display:flex;justify-content:flex-start;margin-block-start:.75rem;padding-block-start:.75rem;border-block-start:1px solid var(--_border)}
${root} button{font:inherit;font-weight:500;min-block-size:2.25rem;padding-block:.4375rem;padding-inline:1rem;border:1px solid var(--_border);border-radius:8px;background:var(--_bg);color:var(--_fg);cursor:pointer}
${root} button[data-part=more]{min-block-size:1.75rem;padding-block:.125rem;padding-inline:.625rem}
${root} button[data-part=more]{font-size:.8125rem;white-space:normal}
${root} button[data-variant=primary]{background:var(--_accent);border-color:var(--_accent);color:var(--_accent-fg)}
${root} button[data-variant=danger]{background:var(--_danger);border-color:var(--_danger);color:var(--_danger-fg)}
${root} button:hover:not(:disabled){filter:brightness(.96)}
${root} button:focus-visible{outline:2px solid var(--_focus);outline-offset:2px}
${root} button:disabled{opacity:.6;cursor:not-allowed}
${root} [data-part=question]{display:grid;gap:.75rem;margin:0 0 1rem}
${root} [data-part=field]{display:grid;gap:.25rem}
${root} [data-part=field][data-control=checkbox]{grid-template-columns:auto 1fr;align-items:center;column-gap:.5rem}
${root} [data-part=field][data-control=checkbox]>label{grid-column:2;grid-row:1}
${root} [data-part=field][data-control=checkbox]>input{grid-column:1;grid-row:1;inline-size:1.125rem;block-size:1.125rem;margin:0}
${root} [data-part=field]>label{font-weight:500}
${root} [data-part=optional],${root} [data-part=hint]{color:var(--_muted);font-weight:400;font-size:.8125rem}
${root} [data-part=hint],${root} [data-part=issue]{grid-column:1/-1;margin:0}
${root} [data-part=issue]{color:var(--_danger);font-size:.8125rem}
${root} [data-part=field] input:not([type=checkbox]),${root} [data-part=field] select{font:inherit;min-block-size:2.25rem;padding-block:.375rem;padding-inline:.625rem;border:1px solid var(--_border);border-radius:8px;background:var(--_bg);color:var(--_fg)}
${root} [data-part=field] [aria-invalid=true]{border-color:var(--_danger)}
${root} [data-part=field] input:focus-visible,${root} [data-part=field] select:focus-visible{outline:2px solid var(--_focus);outline-offset:1px}`
})()
