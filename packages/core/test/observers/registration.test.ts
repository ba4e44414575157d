import { createRegistration } from '../../src/observers'

interface Declaration {
  name: string
  label: string
}

function setup(initial: Declaration) {
  const log: string[] = []
  const registration = createRegistration<Declaration>(initial, {
    changed: (a, b) => a.name !== b.name,
    register: (declaration, r) => {
      log.push(`register ${declaration.name}`)
      return { dispose: () => log.push(`dispose ${declaration.name} (latest ${r.current.label})`) }
    },
  })
  return { registration, log }
}

describe('createRegistration', () => {
  it('registers nothing until started and only keeps the latest declaration before', () => {
    const { registration, log } = setup({ name: 'a', label: '1' })
    expect(registration.update({ name: 'b', label: '2' })).toBe(false)
    expect(log).toEqual([])
    expect(registration.current).toEqual({ name: 'b', label: '2' })

    registration.start()

    expect(log).toEqual(['register b'])
    expect(registration.started).toBe(true)
  })

  it('registers again only when the rules say the change matters', () => {
    const { registration, log } = setup({ name: 'a', label: '1' })
    registration.start()
    expect(registration.update({ name: 'a', label: '2' })).toBe(false)
    expect(registration.update({ name: 'c', label: '3' })).toBe(true)
    expect(log).toEqual(['register a', 'dispose a (latest 3)', 'register c'])
  })

  it('counts starts: registered while any is open, and each stop works once', () => {
    const { registration, log } = setup({ name: 'a', label: '1' })
    const stop1 = registration.start()
    const stop2 = registration.start()
    stop1()
    stop1()
    expect(log).toEqual(['register a'])
    stop2()
    expect(log).toEqual(['register a', 'dispose a (latest 1)'])
    expect(registration.started).toBe(false)
  })

  it('ends a StrictMode cycle (start, stop, start) with one live registration', () => {
    const { registration, log } = setup({ name: 'a', label: '1' })
    registration.start()()
    registration.start()
    expect(log).toEqual(['register a', 'dispose a (latest 1)', 'register a'])
  })

  it('pairs acquire with release the same way, ignoring a release with nothing acquired', () => {
    const { registration, log } = setup({ name: 'a', label: '1' })
    registration.release()
    registration.acquire()
    registration.acquire()
    registration.release()
    expect(log).toEqual(['register a'])
    registration.release()
    registration.release()
    expect(log).toEqual(['register a', 'dispose a (latest 1)'])
  })
})
