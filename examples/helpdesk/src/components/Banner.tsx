/** Opens the Toolmark devtools panel (its toggle sits in the corner of the page). */
function openDevtools() {
  const toggle = document.querySelector<HTMLButtonElement>(
    'aside[aria-label="Toolmark devtools"] [data-part="toggle"]',
  )
  if (!toggle) return
  if (toggle.getAttribute('aria-expanded') !== 'true') toggle.click()
  else toggle.focus()
}

/**
 * The showcase's one-line introduction: what this page is, what to try first, and where to watch
 * the tool calls happen.
 */
export function Banner() {
  return (
    <p className="banner">
      <strong>Toolmark showcase</strong>
      <span className="banner__hint">
        Ask the assistant to “close ticket 3” and approve it in the dialog; every tool call shows in
        the{' '}
        <button type="button" className="banner__link" onClick={openDevtools}>
          devtools
        </button>
        .
      </span>
    </p>
  )
}
