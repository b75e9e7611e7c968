// Shared by the shadow tests: a trial whose results can be awaited one by one.
import { shadowTrial, type ShadowResult, type ShadowTrialOptions } from '../../src/index.js'

export function recordedTrial(options: Omit<ShadowTrialOptions, 'onResult'>) {
  const results: ShadowResult[] = []
  const waiters: Array<() => void> = []
  const trial = shadowTrial({
    ...options,
    onResult: (result) => {
      results.push(result)
      waiters.splice(0).forEach((wake) => wake())
    },
  })
  /** Resolves with the results once there are `n` of them (they come after the response, off its path). */
  const until = async (n: number, ms = 5000): Promise<ShadowResult[]> => {
    const deadline = Date.now() + ms
    while (results.length < n) {
      if (Date.now() > deadline) throw new Error(`only ${results.length} of ${n} shadow results after ${ms} ms`)
      await new Promise<void>((resolve) => {
        waiters.push(resolve)
        setTimeout(resolve, 50)
      })
    }
    return results
  }
  return { trial, results, until }
}
