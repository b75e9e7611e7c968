// Prints jest's own totals as one plain line, "N passed, N failed", for CI logs.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites
    process.stdout.write(`\n${results.numPassedTests} passed, ${failed} failed\n`)
  }
}
module.exports = SummaryReporter
