// A jest reporter (jest.config.js): after the run, the title of every skipped test, so `npm test` shows what it
// did not run and why (describeIf/itIf put the reason in the title) instead of counting it among the passes.
// .ci/run's summary (scripts/test-summary.js) lists the same and fails on a skip that gives no reason.
const { relative } = require('node:path');

const SKIPPED = new Set(['pending', 'skipped', 'todo', 'disabled']);

class SkippedTestsReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const skipped = [];
    for (const suite of results.testResults) {
      for (const test of suite.testResults) {
        if (SKIPPED.has(test.status)) skipped.push(`${relative(this.rootDir, suite.testFilePath)}: ${[...test.ancestorTitles, test.title].join(' > ')}`);
      }
    }
    if (skipped.length === 0) return;
    process.stdout.write(`\nSkipped tests (${skipped.length}):\n${skipped.map((title) => `  ${title}\n`).join('')}`);
  }
}

module.exports = SkippedTestsReporter;
