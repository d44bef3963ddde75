import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { buildWebhookBody, standardWebhookHeaders } from './webhook-signer';

const key = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const other = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';

describe('webhook signing', () => {
  it('signs the compact JSON in the spec key order and appends the signature last', () => {
    const body = buildWebhookBody({ parameters: { city: 'Zürich' }, timestamp: 1_700_000_000, action_name: 'get_weather' } as never, { primary: key, all: [key] });
    const signed = '{"action_name":"get_weather","parameters":{"city":"Z\\u00fcrich"},"timestamp":1700000000}';
    expect(body).toBe(`${signed.slice(0, -1)},"signature":"${createHmac('sha256', Buffer.from(key, 'utf8')).update(signed).digest('hex')}"}`);
  });

  it('includes test: true before the signature in the registration test, and no signature without a key', () => {
    expect(buildWebhookBody({ action_name: 'a', parameters: {}, timestamp: 1, test: true }, undefined)).toBe(
      '{"action_name":"a","parameters":{},"timestamp":1,"test":true}',
    );
  });

  it('produces Standard Webhooks headers that the standardwebhooks library verifies, one signature per key', () => {
    const body = buildWebhookBody({ action_name: 'a', parameters: { n: 1 }, timestamp: Math.floor(Date.now() / 1000) }, { primary: key, all: [key, other] });
    const headers = standardWebhookHeaders('msg_1', Math.floor(Date.now() / 1000), body, { primary: key, all: [key, other] });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(key).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(other).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook('whsec_' + Buffer.alloc(24, 1).toString('base64')).verify(body, headers)).toThrow();
    expect(() => new Webhook(key).verify(body.replace('"n":1', '"n":2'), headers)).toThrow();
  });

  it('sends id and timestamp headers but no signature header without a key', () => {
    expect(standardWebhookHeaders('msg_2', 5, '{}', undefined)).toEqual({ 'webhook-id': 'msg_2', 'webhook-timestamp': '5' });
  });
});
