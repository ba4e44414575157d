import type { Plan } from './planner.ts'

/**
 * "open the printer ticket", "pull up the ticket about the VPN", "find the zoom ticket": one
 * ticket named by words instead of its number. `tickets.find` opens it, and asks the person
 * which one they mean when several match.
 */
export const FIND_ONE =
  /^(?:open|find|pull\s+up)\s+(?:me\s+)?the\s+(?:(?!new\b|next\b|last\b)(.+?)\s+ticket|ticket\s+(?:about|on|for|with)\s+(.+))$/i

/** The plan of a {@link FIND_ONE} match. */
export function findOne(match: RegExpExecArray): Plan {
  const query = (match[1] ?? match[2]).replace(/^the\s+/i, '').trim()
  return {
    kind: 'steps',
    turns: [
      [{ tool: 'tickets.find', input: { query }, intent: `Find the ticket about “${query}”` }],
    ],
  }
}
