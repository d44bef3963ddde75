// Prints jest's JSON results (files given as arguments) as one closing line, "tests: N passed, N failed,
// N skipped", after the title of every skipped test, so a skip is never mistaken for a pass. A skip must come
// from describeIf/itIf (test/support/requirements), whose title says why; any other skip fails the run.
const { readFileSync } = require('node:fs');

/** What describeIf/itIf put in a skipped test's title (SKIP_MARK in test/support/requirements/index.ts). */
const SKIP_MARK = '[skipped: ';

let passed = 0;
let failed = 0;
const skipped = [];
const unexplained = [];
for (const file of process.argv.slice(2)) {
  const results = JSON.parse(readFileSync(file, 'utf8'));
  passed += results.numPassedTests;
  failed += results.numFailedTests + results.numRuntimeErrorTestSuites;
  for (const suite of results.testResults) {
    for (const test of suite.assertionResults) {
      if (test.status === 'pending' || test.status === 'skipped' || test.status === 'todo') {
        const title = [...test.ancestorTitles, test.title].join(' > ');
        skipped.push(`${file}: ${title}`);
        if (!title.includes(SKIP_MARK)) unexplained.push(`${file}: ${title}`);
      }
    }
  }
}
for (const title of skipped) console.log(`skipped: ${title}`);
for (const title of unexplained) console.log(`skipped without a reason (not through describeIf/itIf): ${title}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped.length} skipped`);
process.exit(failed === 0 && passed > 0 && unexplained.length === 0 ? 0 : 1);
