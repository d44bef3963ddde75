import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyBodySignature, verifyStandardWebhook, verifyWebhook } from '@action-gateway/receiver-kit';
import { Webhook } from 'standardwebhooks';
import { recordNumberLiterals } from '../common/json-numbers';
import { buildWebhookBody, standardWebhookHeaders, WebhookPayload } from './webhook-signer';

/**
 * The receiver kit (packages/receiver-kit) against what this service really sends. The kit has tests of its own
 * (node:test for the JavaScript, unittest for the Python module); both run the test vectors this spec checks:
 * calls built with the service's signer, and the verdicts the kit gives them.
 */
const VECTORS_FILE = join(__dirname, '..', '..', 'packages', 'receiver-kit', 'test', 'vectors.json');

// Keys in the shape the service generates: whsec_ + base64 of 32 bytes.
const key = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const newKey = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const strangerKey = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;

const NOW = 1_700_000_000;
const at = (seconds: number) => ({ now: () => seconds });

interface Delivery {
  body: string;
  headers: Record<string, string>;
}

/** Exactly what the service puts on the wire, built with its own signer. */
function deliver(payload: Partial<WebhookPayload> & { parameters?: Record<string, unknown> }, keys: string[] | undefined, id = 'exec_1'): Delivery {
  const full: WebhookPayload = { action_name: 'get_weather', parameters: {}, timestamp: NOW, ...payload };
  const signing = keys && { primary: keys[0], all: keys };
  const body = buildWebhookBody(full, signing);
  return { body, headers: standardWebhookHeaders(id, full.timestamp, body, signing) };
}

function without(headers: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([header]) => header !== name));
}

describe('receiver kit', () => {
  describe('a signed execution', () => {
    const { body, headers } = deliver({ parameters: { city: 'Paris', days: 3, metric: true } }, [key]);

    it('verifies, with the parsed call and without its signature', () => {
      expect(verifyBodySignature(body, key)).toBe(true);
      expect(verifyStandardWebhook(body, headers, key, at(NOW))).toBe(true);
      expect(verifyWebhook(body, headers, key, at(NOW))).toEqual({
        ok: true,
        payload: { action_name: 'get_weather', parameters: { city: 'Paris', days: 3, metric: true }, timestamp: NOW },
      });
    });

    it('fails on a tampered body, whichever part changed', () => {
      const tampered = body.replace('Paris', 'Lyon');
      expect(verifyBodySignature(tampered, key)).toBe(false);
      expect(verifyStandardWebhook(tampered, headers, key, at(NOW))).toBe(false);
      expect(verifyWebhook(tampered, headers, key, at(NOW))).toEqual({ ok: false, reason: 'webhook-signature does not match' });
      // Whitespace a proxy might add is a change too: both signatures cover bytes, not meaning.
      expect(verifyBodySignature(body.replace(':', ': '), key)).toBe(false);
      expect(verifyStandardWebhook(`${body}\n`, headers, key, at(NOW))).toBe(false);
    });

    it('fails on a changed webhook-id or webhook-timestamp, which the header signature covers', () => {
      expect(verifyStandardWebhook(body, { ...headers, 'webhook-id': 'exec_2' }, key, at(NOW))).toBe(false);
      expect(verifyStandardWebhook(body, { ...headers, 'webhook-timestamp': String(NOW + 1) }, key, at(NOW))).toBe(false);
    });

    it('fails with the wrong key', () => {
      expect(verifyBodySignature(body, strangerKey)).toBe(false);
      expect(verifyStandardWebhook(body, headers, strangerKey, at(NOW))).toBe(false);
      expect(verifyWebhook(body, headers, strangerKey, at(NOW))).toEqual({ ok: false, reason: 'webhook-signature does not match' });
    });

    it('reads header names case-insensitively and accepts a repeated signature header', () => {
      const shouting = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
      expect(verifyWebhook(body, shouting, key, at(NOW)).ok).toBe(true);
      const repeated = { ...headers, 'webhook-signature': ['v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', headers['webhook-signature']] };
      expect(verifyStandardWebhook(body, repeated, key, at(NOW))).toBe(true);
    });

    it('refuses a repeated webhook-id: which one was signed is ambiguous', () => {
      expect(verifyWebhook(body, { ...headers, 'webhook-id': ['exec_1', 'exec_1'] }, key, at(NOW))).toEqual({
        ok: false,
        reason: 'missing or repeated webhook-id header',
      });
    });
  });

  describe('key rotation', () => {
    // While two keys are active the service signs the headers with both and the body with the newest.
    const { body, headers } = deliver({ parameters: { city: 'Oslo' } }, [newKey, key]);

    it('sends one v1 signature per active key, and either key verifies the headers', () => {
      expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
      expect(verifyStandardWebhook(body, headers, key, at(NOW))).toBe(true);
      expect(verifyStandardWebhook(body, headers, newKey, at(NOW))).toBe(true);
      expect(verifyStandardWebhook(body, headers, strangerKey, at(NOW))).toBe(false);
    });

    it('signs the body with the newest key only, so a receiver mid-rotation passes every key it holds', () => {
      expect(verifyBodySignature(body, newKey)).toBe(true);
      expect(verifyBodySignature(body, key)).toBe(false);
      expect(verifyWebhook(body, headers, key, at(NOW))).toEqual({ ok: false, reason: 'body signature does not match' });
      expect(verifyWebhook(body, headers, newKey, at(NOW)).ok).toBe(true);
      expect(verifyWebhook(body, headers, [key, newKey], at(NOW)).ok).toBe(true);
      expect(verifyWebhook(body, headers, [strangerKey, newKey], at(NOW)).ok).toBe(true);
    });
  });

  describe('timestamp tolerance', () => {
    const { body, headers } = deliver({}, [key]);

    it('accepts up to five minutes either way by default', () => {
      expect(verifyStandardWebhook(body, headers, key, at(NOW + 300))).toBe(true);
      expect(verifyStandardWebhook(body, headers, key, at(NOW - 300))).toBe(true);
    });

    it('refuses an expired or future timestamp beyond the tolerance', () => {
      expect(verifyWebhook(body, headers, key, at(NOW + 301))).toEqual({ ok: false, reason: 'webhook-timestamp outside the tolerance' });
      expect(verifyWebhook(body, headers, key, at(NOW - 301))).toEqual({ ok: false, reason: 'webhook-timestamp outside the tolerance' });
    });

    it('takes a custom tolerance', () => {
      expect(verifyStandardWebhook(body, headers, key, { ...at(NOW + 31), toleranceSeconds: 30 })).toBe(false);
      expect(verifyStandardWebhook(body, headers, key, { ...at(NOW + 30), toleranceSeconds: 30 })).toBe(true);
    });

    it('uses the real clock by default', () => {
      expect(verifyStandardWebhook(body, headers, key)).toBe(false);
      const fresh = deliver({ timestamp: Math.floor(Date.now() / 1000) }, [key]);
      expect(verifyStandardWebhook(fresh.body, fresh.headers, key)).toBe(true);
    });
  });

  describe('missing and malformed parts', () => {
    const { body, headers } = deliver({ parameters: { q: 1 } }, [key]);

    it.each([
      ['webhook-id', 'missing or repeated webhook-id header'],
      ['webhook-timestamp', 'missing or repeated webhook-timestamp header'],
    ])('refuses a call without %s', (name, reason) => {
      expect(verifyStandardWebhook(body, without(headers, name), key, at(NOW))).toBe(false);
      expect(verifyWebhook(body, without(headers, name), key, at(NOW))).toEqual({ ok: false, reason });
    });

    it('refuses a signed body whose webhook-signature header is gone', () => {
      expect(verifyStandardWebhook(body, without(headers, 'webhook-signature'), key, at(NOW))).toBe(false);
      expect(verifyWebhook(body, without(headers, 'webhook-signature'), key, at(NOW))).toEqual({ ok: false, reason: 'missing webhook-signature header' });
      expect(verifyWebhook(body, {}, key, at(NOW))).toEqual({ ok: false, reason: 'missing webhook-signature header' });
    });

    it.each([
      '',
      'v1,',
      'v1',
      'v1,not base64!',
      `v1,${headers['webhook-signature'].slice(3, -2)}`,
      `v1a,${headers['webhook-signature'].slice(3)}`,
      `v2,${headers['webhook-signature'].slice(3)}`,
      `V1,${headers['webhook-signature'].slice(3)}`,
      `v1,${Buffer.alloc(31).toString('base64')}`,
      `v1,${Buffer.alloc(33).toString('base64')}`,
    ])('refuses the header signature %j without throwing', (signature) => {
      expect(verifyStandardWebhook(body, { ...headers, 'webhook-signature': signature }, key, at(NOW))).toBe(false);
      expect(verifyWebhook(body, { ...headers, 'webhook-signature': signature }, key, at(NOW)).ok).toBe(false);
    });

    it.each(['', 'soon', '1.7e9', '-1700000000', `${NOW} `, '17000000000000000000'])('refuses the timestamp header %j', (timestamp) => {
      expect(verifyStandardWebhook(body, { ...headers, 'webhook-timestamp': timestamp }, key, at(NOW))).toBe(false);
    });

    it('refuses a missing or malformed body signature without throwing', () => {
      const signature = (JSON.parse(body) as { signature: string }).signature;
      const signed = body.replace(`,"signature":"${signature}"`, '');
      expect(verifyBodySignature(signed, key)).toBe(false);
      expect(verifyBodySignature(body.replace(signature, signature.toUpperCase()), key)).toBe(false);
      expect(verifyBodySignature(body.replace(signature, signature.slice(2)), key)).toBe(false);
      expect(verifyBodySignature(body.replace(signature, `${signature.slice(1)}g`), key)).toBe(false);
      expect(verifyBodySignature(body.replace(`"signature":"${signature}"`, `"signature":"${signature}","extra":1`), key)).toBe(false);
      expect(verifyBodySignature('', key)).toBe(false);
      expect(verifyBodySignature(body, '')).toBe(false);
      expect(verifyBodySignature(body, [])).toBe(false);
    });

    it('refuses a header-verified body that is not a call, without throwing', () => {
      for (const raw of ['not json', '[1,2]', 'null', '{"action_name":"a"}']) {
        const signedHeaders = standardWebhookHeaders('exec_9', NOW, raw, { primary: key, all: [key] });
        expect(verifyWebhook(raw, signedHeaders, key, at(NOW)).ok).toBe(false);
      }
    });
  });

  describe('non-ASCII parameters', () => {
    const parameters = { city: 'Zürich', greeting: 'こんにちは', mood: '😀👍🏽', lone: '\ud800', quote: 'say "hi"\n', tiny: 1e-7, big: 2 ** 60 };
    const { body, headers } = deliver({ parameters }, [key]);

    it('arrive escaped as \\uXXXX, so the body is pure ASCII', () => {
      expect(body).toMatch(/^[\x20-\x7e]+$/);
      expect(body).toContain('"mood":"\\ud83d\\ude00\\ud83d\\udc4d\\ud83c\\udffd"');
      expect(body).toContain('"tiny":1e-07');
    });

    it('verify both ways and come back intact', () => {
      expect(verifyBodySignature(body, key)).toBe(true);
      expect(verifyStandardWebhook(body, headers, key, at(NOW))).toBe(true);
      const result = verifyWebhook(body, headers, key, at(NOW));
      expect(result.ok && result.payload.parameters).toEqual(parameters);
    });

    it('cannot be re-signed from JSON.stringify, which is why the kit works on the raw body', () => {
      const { signature, ...payload } = JSON.parse(body) as Record<string, unknown>;
      const signed = body.replace(`,"signature":"${String(signature)}"`, '');
      expect(JSON.stringify(payload)).not.toBe(signed);
      expect(verifyBodySignature(`${JSON.stringify(payload).slice(0, -1)},"signature":"${String(signature)}"}`, key)).toBe(false);
    });
  });

  describe('the registration test', () => {
    it('passes unsigned when the tenant has no key yet: no body signature, no webhook-signature header', () => {
      const { body, headers } = deliver({ test: true }, undefined);
      expect(headers).not.toHaveProperty('webhook-signature');
      expect(verifyWebhook(body, headers, key, at(NOW))).toEqual({
        ok: true,
        payload: { action_name: 'get_weather', parameters: {}, timestamp: NOW, test: true },
      });
    });

    it('passes signed when the tenant has a key, and fails signed with another key', () => {
      const { body, headers } = deliver({ test: true }, [key]);
      expect(body).toMatch(/"test":true,"signature":"[0-9a-f]{64}"}$/);
      expect(verifyWebhook(body, headers, key, at(NOW)).ok).toBe(true);
      expect(verifyWebhook(body, headers, strangerKey, at(NOW)).ok).toBe(false);
    });

    it('fails unsigned when a webhook-signature header is present but does not verify', () => {
      const { body, headers } = deliver({ test: true }, undefined);
      const forged = { ...headers, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` };
      expect(verifyWebhook(body, forged, key, at(NOW))).toEqual({ ok: false, reason: 'webhook-signature does not match' });
    });

    it('passes unsigned with a verifying header, the one case where the header alone suffices', () => {
      const body = buildWebhookBody({ action_name: 'a', parameters: {}, timestamp: NOW, test: true }, undefined);
      const headers = standardWebhookHeaders('test_1', NOW, body, { primary: key, all: [key] });
      expect(verifyWebhook(body, headers, key, at(NOW)).ok).toBe(true);
    });

    it('does not let an unsigned execution through, with or without headers', () => {
      const { body, headers } = deliver({ parameters: { city: 'Rome' } }, undefined);
      expect(verifyWebhook(body, headers, key, at(NOW))).toEqual({ ok: false, reason: 'missing body signature' });
      const signedHeaders = standardWebhookHeaders('exec_3', NOW, body, { primary: key, all: [key] });
      expect(verifyWebhook(body, signedHeaders, key, at(NOW))).toEqual({ ok: false, reason: 'missing body signature' });
      const fakeTest = `${body.slice(0, -1)},"test":false}`;
      expect(verifyWebhook(fakeTest, {}, key, at(NOW)).ok).toBe(false);
    });
  });

  describe('agreement with the standardwebhooks library', () => {
    const now = () => Math.floor(Date.now() / 1000);
    const libraryVerifies = (body: string, headers: Record<string, string>, secret: string): boolean => {
      try {
        new Webhook(secret).verify(body, headers);
        return true;
      } catch {
        return false;
      }
    };

    it('gives the same verdict on what the service sends, tampered or not, for every key', () => {
      const cases: Delivery[] = [];
      for (const parameters of [{}, { city: 'Zürich' }, { mood: '😀', n: [1, 2.5, null] }]) {
        const sent = deliver({ parameters, timestamp: now() }, [newKey, key], `exec_${cases.length}`);
        cases.push(sent, { ...sent, body: sent.body.replace('get_weather', 'get_weathe') });
        cases.push({ ...sent, headers: { ...sent.headers, 'webhook-timestamp': String(now() - 600) } });
        cases.push({ ...sent, headers: { ...sent.headers, 'webhook-timestamp': String(now() + 600) } });
      }
      for (const { body, headers } of cases) {
        for (const secret of [key, newKey, strangerKey]) {
          expect(verifyStandardWebhook(body, headers, secret)).toBe(libraryVerifies(body, headers, secret));
        }
      }
      expect(cases.filter(({ body, headers }) => verifyStandardWebhook(body, headers, key))).toHaveLength(3);
    });

    it('verifies headers the library signs', () => {
      const body = deliver({ parameters: { city: 'Zürich' } }, [key]).body;
      const timestamp = now();
      const headers = {
        'webhook-id': 'msg_lib',
        'webhook-timestamp': String(timestamp),
        'webhook-signature': new Webhook(key).sign('msg_lib', new Date(timestamp * 1000), body),
      };
      expect(verifyStandardWebhook(body, headers, key)).toBe(true);
      expect(verifyWebhook(body, headers, key).ok).toBe(true);
      expect(verifyStandardWebhook(body, headers, newKey)).toBe(false);
    });
  });

  describe('test vectors shared with the kit\'s own tests (JavaScript and Python)', () => {
    interface Vector {
      name: string;
      body: string;
      headers: Record<string, string | string[]>;
      keys: string[];
      now: number;
      toleranceSeconds?: number;
      expect: { verifyWebhook: { ok: true } | { ok: false; reason: string }; verifyStandardWebhook: boolean; verifyBodySignature: boolean };
    }

    /** What the service sends in each situation the kit must judge, and the kit's verdicts. */
    function buildVectors(): Vector[] {
      const signed = deliver({ parameters: { city: 'Paris', days: 3, metric: true } }, [key]);
      const rotating = deliver({ parameters: { city: 'Oslo' } }, [newKey, key]);
      const unicode = deliver({ parameters: { city: 'Zürich', greeting: 'こんにちは', mood: '😀👍🏽', lone: '\ud800', quote: 'say "hi"\n', tiny: 1e-7 } }, [key]);
      // Integers beyond 2^53 as the service forwards them: the caller's digits, recorded when the body was read.
      const bigText = '{"id":9007199254740993,"big":-123456789012345678901234567890,"list":[18446744073709551617,0.1]}';
      const bigParameters = JSON.parse(bigText) as Record<string, unknown>;
      recordNumberLiterals(bigText, bigParameters);
      const big = deliver({ parameters: bigParameters }, [key]);
      const test = deliver({ test: true }, undefined);
      const signedTest = deliver({ test: true }, [key]);
      const unsignedExecution = deliver({ parameters: { city: 'Rome' } }, undefined);
      const headerOnly = (body: string) => standardWebhookHeaders('exec_9', NOW, body, { primary: key, all: [key] });
      const signature = (JSON.parse(signed.body) as { signature: string }).signature;

      const cases: Array<Omit<Vector, 'expect'>> = [
        { name: 'a signed execution', ...signed, keys: [key], now: NOW },
        { name: 'a tampered body', body: signed.body.replace('Paris', 'Lyon'), headers: signed.headers, keys: [key], now: NOW },
        { name: 'whitespace added to the body', body: signed.body.replace(':', ': '), headers: signed.headers, keys: [key], now: NOW },
        { name: 'a changed webhook-id', body: signed.body, headers: { ...signed.headers, 'webhook-id': 'exec_2' }, keys: [key], now: NOW },
        { name: 'a changed webhook-timestamp', body: signed.body, headers: { ...signed.headers, 'webhook-timestamp': String(NOW + 1) }, keys: [key], now: NOW },
        { name: 'another key', ...signed, keys: [strangerKey], now: NOW },
        {
          name: 'header names in capitals',
          body: signed.body,
          headers: Object.fromEntries(Object.entries(signed.headers).map(([name, value]) => [name.toUpperCase(), value])),
          keys: [key],
          now: NOW,
        },
        {
          name: 'the signature header repeated',
          body: signed.body,
          headers: { ...signed.headers, 'webhook-signature': ['v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', signed.headers['webhook-signature']] },
          keys: [key],
          now: NOW,
        },
        { name: 'webhook-id repeated', body: signed.body, headers: { ...signed.headers, 'webhook-id': ['exec_1', 'exec_1'] }, keys: [key], now: NOW },
        { name: 'rotation: the old key only', ...rotating, keys: [key], now: NOW },
        { name: 'rotation: the new key', ...rotating, keys: [newKey], now: NOW },
        { name: 'rotation: both keys held', ...rotating, keys: [key, newKey], now: NOW },
        { name: 'five minutes late', ...signed, keys: [key], now: NOW + 300 },
        { name: 'five minutes early', ...signed, keys: [key], now: NOW - 300 },
        { name: 'too late', ...signed, keys: [key], now: NOW + 301 },
        { name: 'too early', ...signed, keys: [key], now: NOW - 301 },
        { name: 'a custom tolerance passed', ...signed, keys: [key], now: NOW + 31, toleranceSeconds: 30 },
        { name: 'a custom tolerance kept', ...signed, keys: [key], now: NOW + 30, toleranceSeconds: 30 },
        { name: 'no webhook-id', body: signed.body, headers: without(signed.headers, 'webhook-id'), keys: [key], now: NOW },
        { name: 'no webhook-timestamp', body: signed.body, headers: without(signed.headers, 'webhook-timestamp'), keys: [key], now: NOW },
        { name: 'a signed body without its webhook-signature header', body: signed.body, headers: without(signed.headers, 'webhook-signature'), keys: [key], now: NOW },
        { name: 'no headers at all', body: signed.body, headers: {}, keys: [key], now: NOW },
        ...['', 'v1,', 'v1', 'v1,not base64!', `v2,${signed.headers['webhook-signature'].slice(3)}`, `V1,${signed.headers['webhook-signature'].slice(3)}`, `v1,${Buffer.alloc(31).toString('base64')}`].map(
          (value, index) => ({ name: `malformed webhook-signature ${index + 1}`, body: signed.body, headers: { ...signed.headers, 'webhook-signature': value }, keys: [key], now: NOW }),
        ),
        ...['soon', '1.7e9', '-1700000000', `${NOW} `, '17000000000000000000'].map((value, index) => ({
          name: `malformed webhook-timestamp ${index + 1}`,
          body: signed.body,
          headers: { ...signed.headers, 'webhook-timestamp': value },
          keys: [key],
          now: NOW,
        })),
        { name: 'an upper-case body signature', body: signed.body.replace(signature, signature.toUpperCase()), headers: signed.headers, keys: [key], now: NOW },
        { name: 'a key after the body signature', body: signed.body.replace(`"signature":"${signature}"`, `"signature":"${signature}","extra":1`), headers: signed.headers, keys: [key], now: NOW },
        { name: 'no keys held', ...signed, keys: [], now: NOW },
        { name: 'non-ASCII parameters, escaped', ...unicode, keys: [key], now: NOW },
        { name: 'integers beyond 2^53', ...big, keys: [key], now: NOW },
        { name: 'the registration test of a tenant without a key', ...test, keys: [key], now: NOW },
        { name: 'the signed registration test', ...signedTest, keys: [key], now: NOW },
        { name: 'the signed registration test, another key', ...signedTest, keys: [strangerKey], now: NOW },
        { name: 'an unsigned registration test with a forged header', body: test.body, headers: { ...test.headers, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` }, keys: [key], now: NOW },
        { name: 'an unsigned execution', ...unsignedExecution, keys: [key], now: NOW },
        { name: 'an unsigned execution with valid headers', body: unsignedExecution.body, headers: headerOnly(unsignedExecution.body), keys: [key], now: NOW },
        ...['not json', '[1,2]', 'null', '{"action_name":"a"}', '{"action_name":"a","parameters":[],"timestamp":1}'].map((body, index) => ({
          name: `a header-verified body that is not a call ${index + 1}`,
          body,
          headers: headerOnly(body),
          keys: [key],
          now: NOW,
        })),
      ];
      return cases.map((vector) => {
        const options = { now: () => vector.now, ...(vector.toleranceSeconds === undefined ? {} : { toleranceSeconds: vector.toleranceSeconds }) };
        const verdict = verifyWebhook(vector.body, vector.headers, vector.keys, options);
        return {
          ...vector,
          expect: {
            verifyWebhook: verdict.ok ? { ok: true } : verdict,
            verifyStandardWebhook: verifyStandardWebhook(vector.body, vector.headers, vector.keys, options),
            verifyBodySignature: verifyBodySignature(vector.body, vector.keys),
          },
        };
      });
    }

    it('are what the service sends and what the kit decides (UPDATE_RECEIVER_KIT_VECTORS=1 rewrites them)', () => {
      const vectors = buildVectors();
      const text = `${JSON.stringify(vectors, null, 2)}\n`;
      if (process.env.UPDATE_RECEIVER_KIT_VECTORS === '1') writeFileSync(VECTORS_FILE, text);
      expect(readFileSync(VECTORS_FILE, 'utf8')).toBe(text);
      // Not vacuous: both verdicts occur, and every reason the kit gives is among them.
      const reasons = new Set(vectors.map(({ expect: { verifyWebhook: verdict } }) => (verdict.ok ? 'ok' : verdict.reason)));
      expect([...reasons].sort()).toEqual([
        'body is not JSON',
        'body is not a JSON object',
        'body is not a webhook call',
        'body signature does not match',
        'malformed webhook-timestamp header',
        'missing body signature',
        'missing or repeated webhook-id header',
        'missing or repeated webhook-timestamp header',
        'missing webhook-signature header',
        'no v1 signature in webhook-signature header',
        'ok',
        'webhook-signature does not match',
        'webhook-timestamp outside the tolerance',
      ]);
    });
  });
});
