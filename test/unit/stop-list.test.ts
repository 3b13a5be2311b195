import { beforeAll, describe, expect, it } from 'bun:test'
import { createStopList } from '../../src/stop-list.ts'
import { setLogLevel } from '../../src/log.ts'

beforeAll(() => setLogLevel('silent'))

describe('createStopList', () => {
  it('stops the parts in reverse start order, each awaited before the next', async () => {
    const stops = createStopList()
    const order: string[] = []
    for (const part of ['db', 'workers', 'jobs', 'http'])
      stops.push(async () => {
        await Bun.sleep(part === 'jobs' ? 5 : 0)
        order.push(part)
      })
    await stops.stopAll()
    expect(order).toEqual(['http', 'jobs', 'workers', 'db'])
  })

  it('still stops the others when one fails, then rethrows the first failure', async () => {
    const stops = createStopList()
    const order: string[] = []
    stops.push(() => order.push('db'))
    stops.push(() => {
      throw new Error('workers would not stop')
    })
    stops.push(() => Promise.reject(new Error('jobs would not stop')))
    stops.push(() => order.push('http'))
    await expect(stops.stopAll()).rejects.toThrow('jobs would not stop')
    expect(order).toEqual(['http', 'db'])
  })

  it('stops each part once, however often it is asked', async () => {
    const stops = createStopList()
    let stopped = 0
    stops.push(() => stopped++)
    await Promise.all([stops.stopAll(), stops.stopAll()])
    await stops.stopAll()
    expect(stopped).toBe(1)
  })
})
