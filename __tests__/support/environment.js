// Jest's test sandbox has its own copy of `process`, so listeners added from a test file never see the
// real process's `unhandledRejection` / `uncaughtException`. This environment listens on the real
// process (after jest-circus installs its own handlers at run_start) and hands what it saw to the
// sandbox as `globalThis.__strayErrors`; __tests__/support/no-stray-errors.ts fails the test file.
const { TestEnvironment } = require('jest-environment-node')

class StrayErrorsEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context)
    const stray = (this.strayErrors = [])
    this.global.__strayErrors = stray
    this.onRejection = (reason) => stray.push({ kind: 'unhandledRejection', error: reason })
    this.onException = (error) => stray.push({ kind: 'uncaughtException', error })
  }

  handleTestEvent(event) {
    if (event.name === 'run_start') {
      process.on('unhandledRejection', this.onRejection)
      process.on('uncaughtException', this.onException)
    } else if (event.name === 'run_finish') {
      process.off('unhandledRejection', this.onRejection)
      process.off('uncaughtException', this.onException)
    }
  }
}

module.exports = StrayErrorsEnvironment
