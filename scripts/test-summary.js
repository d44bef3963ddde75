// Prints jest's JSON results (files given as arguments) as one closing line: "tests: N passed, N failed".
const { readFileSync } = require('node:fs');

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  const results = JSON.parse(readFileSync(file, 'utf8'));
  passed += results.numPassedTests;
  failed += results.numFailedTests + results.numRuntimeErrorTestSuites;
}
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
