import { describe, expect, it } from 'vitest'
import { checkPairingMove, type McpPairingState } from '../src/client/pairingObserver'

const STATES: McpPairingState[] = [
  'idle',
  'connecting',
  'paired',
  'disconnected',
  'rejected',
  'superseded',
  'unverified',
  'unreachable',
]

/** What each state may become beyond stopping (`idle`) and starting again (`connecting`, `rejected`). */
const NEXT: Partial<Record<McpPairingState, McpPairingState[]>> = {
  connecting: ['paired', 'disconnected', 'superseded', 'unverified', 'unreachable'],
  paired: ['disconnected', 'superseded'],
  disconnected: ['unverified', 'unreachable'],
}

describe('the status table of an MCP pairing', () => {
  it('throws on every move it does not allow, naming it, and allows the rest', () => {
    let refused = 0
    for (const from of STATES) {
      for (const to of STATES) {
        const allowed =
          from === to ||
          ['idle', 'connecting', 'rejected'].includes(to) ||
          (NEXT[from] ?? []).includes(to)
        if (allowed) expect(() => checkPairingMove(from, to)).not.toThrow()
        else {
          refused++
          expect(() => checkPairingMove(from, to)).toThrow(
            `[toolmark] An MCP pairing cannot move from ${from} to ${to}`,
          )
        }
      }
    }
    // idle → paired, a final rejected → paired, and the like: never.
    expect(refused).toBeGreaterThan(20)
  })
})
