// The kit's own tests, on Node's built-in runner (no dependencies): `npm test` in this folder. They import the
// package by its name, so they go through `exports` as a receiver's code does.
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { traceContext, verifyBodySignature, verifyStandardWebhook, verifyWebhook } from '@action-gateway/receiver-kit';

// Calls built by the gateway's own signer, and the verdicts expected (kept current by the gateway's tests).
const vectors = JSON.parse(readFileSync(new URL('./vectors.json', import.meta.url), 'utf8'));

const optionsOf = (vector) => ({ now: () => vector.now, ...(vector.toleranceSeconds === undefined ? {} : { toleranceSeconds: vector.toleranceSeconds }) });

/** What verifyWebhook returns for a call that verifies: the body without its signature. */
function payloadOf(body) {
  const { signature: _signature, ...payload } = JSON.parse(body);
  return payload;
}

describe('the test vectors', () => {
  for (const vector of vectors) {
    it(vector.name, () => {
      const options = optionsOf(vector);
      const expected = vector.expect.verifyWebhook.ok ? { ok: true, payload: payloadOf(vector.body) } : vector.expect.verifyWebhook;
      assert.deepEqual(verifyWebhook(vector.body, vector.headers, vector.keys, options), expected);
      assert.equal(verifyStandardWebhook(vector.body, vector.headers, vector.keys, options), vector.expect.verifyStandardWebhook);
      assert.equal(verifyBodySignature(vector.body, vector.keys), vector.expect.verifyBodySignature);
      // A single key works the same as a list of one.
      if (vector.keys.length === 1) assert.deepEqual(verifyWebhook(vector.body, vector.headers, vector.keys[0], options), expected);
    });
  }

  it('cover both verdicts', () => {
    assert.ok(vectors.some((vector) => vector.expect.verifyWebhook.ok));
    assert.ok(vectors.filter((vector) => !vector.expect.verifyWebhook.ok).length >= 20);
  });
});

describe('inputs as frameworks give them', () => {
  const signed = vectors.find((vector) => vector.name === 'a signed execution');
  const options = optionsOf(signed);

  it('takes the raw body as bytes (a Buffer from express.raw, a Uint8Array)', () => {
    assert.equal(verifyWebhook(Buffer.from(signed.body), signed.headers, signed.keys, options).ok, true);
    assert.equal(verifyWebhook(new TextEncoder().encode(signed.body), signed.headers, signed.keys, options).ok, true);
    assert.equal(verifyBodySignature(Buffer.from(signed.body), signed.keys), true);
    assert.equal(verifyStandardWebhook(Buffer.from(signed.body), signed.headers, signed.keys, options), true);
  });

  it('refuses bytes that are not UTF-8 (the gateway sends ASCII only), without throwing', () => {
    const bytes = Buffer.concat([Buffer.from(signed.body.slice(0, -1)), Buffer.from([0xff, 0x7d])]);
    assert.deepEqual(verifyWebhook(bytes, signed.headers, signed.keys, options), { ok: false, reason: 'body is not UTF-8' });
    assert.equal(verifyBodySignature(bytes, signed.keys), false);
    assert.equal(verifyStandardWebhook(bytes, signed.headers, signed.keys, options), false);
  });

  it('takes a fetch Headers object (Hono, Next.js route handlers, Deno, Bun)', () => {
    const headers = new Headers(signed.headers);
    assert.equal(verifyWebhook(signed.body, headers, signed.keys, options).ok, true);
    assert.equal(verifyWebhook(signed.body, new Headers(), signed.keys, options).ok, false);
  });

  it('uses the real clock by default', () => {
    assert.equal(verifyStandardWebhook(signed.body, signed.headers, signed.keys), false); // signed in 2023
    const id = 'msg_now';
    const timestamp = String(Math.floor(Date.now() / 1000));
    const secret = Buffer.from(signed.keys[0].slice('whsec_'.length), 'base64');
    const signature = createHmac('sha256', secret).update(`${id}.${timestamp}.${signed.body}`).digest('base64');
    const headers = { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
    assert.equal(verifyStandardWebhook(signed.body, headers, signed.keys), true);
    assert.equal(verifyWebhook(signed.body, headers, signed.keys).ok, true);
  });

  it('never throws, whatever it is given', () => {
    for (let round = 0; round < 500; round++) {
      const junk = randomBytes(round % 64);
      const text = junk.toString('latin1');
      const headers = { 'webhook-id': text, 'webhook-timestamp': String(round), 'webhook-signature': `v1,${junk.toString('base64')} ${text}` };
      for (const body of [junk, text, `{"signature":"${text}"}`]) {
        assert.equal(typeof verifyWebhook(body, headers, [text, signed.keys[0]], { now: () => round }).ok, 'boolean');
        assert.equal(typeof verifyBodySignature(body, text), 'boolean');
      }
    }
  });
});

describe('traceContext', () => {
  const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

  it('reads the gateway\'s traceparent and the caller\'s tracestate, from any header object', () => {
    const expected = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentId: '00f067aa0ba902b7', sampled: true, traceparent, tracestate: 'platform=abc' };
    assert.deepEqual(traceContext({ traceparent, tracestate: 'platform=abc' }), expected);
    assert.deepEqual(traceContext(new Headers({ TraceParent: traceparent, tracestate: 'platform=abc' })), expected);
    assert.equal(traceContext({ traceparent: traceparent.replace(/01$/, '00') }).sampled, false);
    assert.equal('tracestate' in traceContext({ traceparent }), false);
  });

  it('gives undefined for an absent, malformed, repeated or all-zero traceparent', () => {
    for (const headers of [{}, { traceparent: 'nonsense' }, { traceparent: [traceparent, traceparent] }, { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` }, { traceparent: traceparent.toUpperCase() }]) {
      assert.equal(traceContext(headers), undefined);
    }
  });
});
