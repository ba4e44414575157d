/**
 * `@toolmark/core/tour` — guided tours of the page's own tools: `startTour` shows, guides or does
 * each step, anchored on tools and fields (never on CSS selectors), and `registerTourTool` lets
 * the in-app assistant answer "show me how" with one.
 */
export { startTour } from './startTour'
export { currentTour, subscribeCurrentTour } from './currentTour'
export { registerTourTool } from './tourTool'
export type { TourToolOptions } from './tourTool'
export type {
  TourStarter,
  Tour,
  TourEvent,
  TourMode,
  TourOptions,
  TourPlanner,
  TourSnapshot,
  TourStatus,
  TourStep,
} from './tourTypes'
