/**
 * A story's column width: `px` where there is room for it, and never wider than the room there
 * is, so a story fits a 390 px phone without scrolling sideways or being cut off. The room is
 * the canvas less its padding (1rem each side in the centered layout), or on a docs page the
 * preview box the story is shown in (`--story-room`, .storybook/preview-head.html).
 * `scripts/checkStorybookStatic.mjs` checks that every story fits.
 */
export const fitWidth = (px: number): string => `min(${px}px, var(--story-room, 100vw - 2rem))`
