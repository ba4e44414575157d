import { unref } from './guards'

/** The longest delay a timer takes (about 24.8 days); a later expiry is looked at again then. */
const MAX_DELAY = 2_147_483_647

/** One timer for the earliest of a set of expiries. */
export interface ExpiryTimer {
  /** Sets the timer for the earliest expiry now (none when there is none). */
  schedule(): void
}

/**
 * One timer for the earliest expiry among what its owner holds: `earliest()` reads it
 * (`Infinity` for none), and `due(at)` runs when it comes, with the clock's time; `due` ends what
 * is over and schedules again (its owner's change does). The timer never keeps a process alive.
 */
export function createExpiryTimer(options: {
  clock: () => number
  earliest: () => number
  due: (at: number) => void
}): ExpiryTimer {
  let timer: ReturnType<typeof setTimeout> | undefined
  const fire = () => {
    timer = undefined
    options.due(options.clock())
  }
  return {
    schedule() {
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
      const earliest = options.earliest()
      if (earliest === Infinity) return
      timer = unref(setTimeout(fire, Math.max(0, Math.min(earliest - options.clock(), MAX_DELAY))))
    },
  }
}
