// Prints jest's JSON results (files given as arguments) as one closing line, "tests: N passed, N failed,
// N skipped", after the title of every skipped test, so a skip is never mistaken for a pass.
const { readFileSync } = require('node:fs');

let passed = 0;
let failed = 0;
const skipped = [];
for (const file of process.argv.slice(2)) {
  const results = JSON.parse(readFileSync(file, 'utf8'));
  passed += results.numPassedTests;
  failed += results.numFailedTests + results.numRuntimeErrorTestSuites;
  for (const suite of results.testResults) {
    for (const test of suite.assertionResults) {
      if (test.status === 'pending' || test.status === 'skipped' || test.status === 'todo') {
        skipped.push(`${file}: ${[...test.ancestorTitles, test.title].join(' > ')}`);
      }
    }
  }
}
for (const title of skipped) console.log(`skipped: ${title}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped.length} skipped`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
