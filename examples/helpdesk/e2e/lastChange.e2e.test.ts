import { createToolmark, ok } from '@toolmark/core'
import { z } from 'zod'
import { createLastChange } from '../src/assistant/lastChange.ts'

// "undo that" in the scripted assistant: plain code, run in node without the app.

function setup() {
  const tm = createToolmark()
  let priority = 'normal'
  tm.register({
    name: 'tickets.prioritize',
    title: 'Change priority',
    description: 'Sets the priority of a ticket.',
    input: z.object({ priority: z.string() }),
    run: (input, ctx) => {
      const previous = priority
      priority = input.priority
      ctx.registerUndo(() => {
        priority = previous
        return ok({ priority })
      })
      return ok({ priority })
    },
  })
  const ids: string[] = []
  tm.events.on('result', (event) => ids.push(event.callId))
  return { tm, ids, priority: () => priority, last: createLastChange(tm) }
}

describe('the assistant\'s "undo that"', () => {
  it('takes back its last change and says so', async () => {
    const { tm, priority, last } = setup()
    await tm.call('tickets.prioritize', { priority: 'urgent' }, { caller: 'inapp' })

    const outcome = await last.undo()

    expect(outcome.text).toBe('Undone: “Change priority”.')
    expect(priority()).toBe('normal')
    expect((await last.undo()).text).toBe('There is nothing of mine to undo.')
  })

  it('says its last change was already undone when a person undid it elsewhere', async () => {
    const { tm, ids, priority, last } = setup()
    await tm.call('tickets.prioritize', { priority: 'urgent' }, { caller: 'inapp' })
    await tm.undo(ids[0]) // from the devtools' activity log

    const outcome = await last.undo()

    expect(outcome.text).toBe(
      'My last change (“Change priority”) was already undone, from the activity log or the devtools: nothing left to take back.',
    )
    expect(priority()).toBe('normal')
  })
})
