/**
 * The attribute every `<ConfirmDialog>` root carries; the built-in styles are scoped under it. A
 * module of its own, so the unstyled dialog and the devtools reach it without the stylesheet.
 */
export const ROOT_ATTRIBUTE = 'data-toolmark-confirm'
