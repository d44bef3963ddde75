// The CommonJS build, as `require` finds it through the package's `exports`.
const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { it } = require('node:test');
const kit = require('@action-gateway/receiver-kit');

it('is the CommonJS build, and verifies the vectors like the ES module', () => {
  assert.match(require.resolve('@action-gateway/receiver-kit'), /dist[\\/]cjs[\\/]index\.js$/);
  assert.deepEqual(Object.keys(kit).sort(), ['traceContext', 'verifyBodySignature', 'verifyStandardWebhook', 'verifyWebhook']);
  const vectors = JSON.parse(readFileSync(join(__dirname, 'vectors.json'), 'utf8'));
  for (const vector of vectors) {
    const options = { now: () => vector.now, ...(vector.toleranceSeconds === undefined ? {} : { toleranceSeconds: vector.toleranceSeconds }) };
    assert.equal(kit.verifyWebhook(vector.body, vector.headers, vector.keys, options).ok, vector.expect.verifyWebhook.ok, vector.name);
  }
});
