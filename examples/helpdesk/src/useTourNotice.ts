import { useEffect } from 'react'
import { useTour } from '@toolmark/react/tour'
import { useNotify } from './toast.tsx'

/**
 * Says so when a tour ends done, with how many steps the person did and skipped. A stopped tour
 * says nothing: the person ended it themselves.
 */
export function useTourNotice() {
  const { tour } = useTour()
  const notify = useNotify()
  useEffect(() => {
    if (!tour) return
    let live = true
    void tour.finished.then((result) => {
      if (!live || result.status !== 'ok') return
      const { completed, skipped } = result.data as { completed: number; skipped: number }
      const steps = `${completed} step${completed === 1 ? '' : 's'} done`
      notify(
        skipped > 0 ? `Tour finished: ${steps}, ${skipped} skipped` : `Tour finished: ${steps}`,
      )
    })
    return () => {
      live = false
    }
  }, [tour, notify])
}
