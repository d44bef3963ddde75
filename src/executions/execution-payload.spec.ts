import { DEFAULT_MASKED_HEADER_WORDS } from '../config/load-config';
import { loggedBody, loggedHeaders, PAYLOAD_LIMITS, responseHeaderMask, withRequestHeaders } from './execution-payload';

describe('execution payloads as the log keeps them', () => {
  it('keeps a body whole within the limit, and cuts a longer one at a character boundary, marked', () => {
    expect(loggedBody(Buffer.from('{"a":1}'), 16)).toEqual({ body: '{"a":1}', body_encoding: 'utf8', body_bytes: 7, body_truncated: false });
    const euros = Buffer.from('€'.repeat(10)); // 3 bytes each
    expect(loggedBody(euros, 16)).toEqual({ body: '€'.repeat(5), body_encoding: 'utf8', body_bytes: 30, body_truncated: true });
    expect(loggedBody(undefined, 16)).toEqual({ body: null, body_encoding: 'utf8', body_bytes: 0, body_truncated: false });
  });

  it("shows the request with the last attempt's headers, unless the row kept its own", () => {
    const body = { body: '{}', body_encoding: 'utf8' as const, body_bytes: 2, body_truncated: false };
    const attempts = [1, 2].map((attempt) => ({ attempt, request_headers: { 'webhook-timestamp': String(attempt) }, response: null }));
    expect(withRequestHeaders({ request: body, attempts })).toEqual({ request: { ...body, headers: { 'webhook-timestamp': '2' } }, attempts });
    expect(withRequestHeaders({ request: { ...body, headers: { own: 'yes' } }, attempts }).request.headers).toEqual({ own: 'yes' });
    expect(withRequestHeaders({ request: body, attempts: [] }).request.headers).toEqual({});
  });

  it('keeps a body that is not text (or holds U+0000) as base64', () => {
    expect(loggedBody(Buffer.from([0xff, 0x00]), 16)).toEqual({ body: '/wA=', body_encoding: 'base64', body_bytes: 2, body_truncated: false });
    expect(loggedBody(Buffer.from('a\u0000b'), 16).body_encoding).toBe('base64');
  });

  it('redacts credentials, joins repeated headers, and bounds their number and size', () => {
    expect(loggedHeaders({ authorization: 'Bearer x', 'set-cookie': ['a=1', 'b=2'], vary: 'a, b' })).toEqual({
      authorization: '[redacted]',
      'set-cookie': '[redacted]',
      vary: 'a, b',
    });
    const long = loggedHeaders({ 'x-long': 'v'.repeat(5_000) });
    expect(long['x-long']).toBe(`${'v'.repeat(PAYLOAD_LIMITS.headerValueBytes)}…[truncated]`);
    // Past printable ASCII: made well-formed (no U+0000, no lone surrogate), counted and cut in UTF-8 bytes.
    expect(loggedHeaders({ 'x-a': 'caf\u00e9', 'x-b': 'a\u0000b', 'x-c': 'a\ud800', 'x-t': 'a\tb' })).toEqual({ 'x-a': 'caf\u00e9', 'x-b': 'a\uFFFDb', 'x-c': 'a\uFFFD', 'x-t': 'a\tb' });
    expect(loggedHeaders({ 'x-euros': '\u20ac'.repeat(500) })['x-euros']).toBe(`${'\u20ac'.repeat(341)}…[truncated]`);
    const many = loggedHeaders(Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`x-${index}`, 'v'])));
    expect(Object.keys(many)).toHaveLength(PAYLOAD_LIMITS.headerCount + 1);
    expect(many['…']).toBe('10 more headers not kept');
  });

  it('masks an answer header whose name holds a credential word, in any case, and the standard ones whatever the words', () => {
    const mask = responseHeaderMask(DEFAULT_MASKED_HEADER_WORDS);
    const headers = {
      'X-Auth-Token': '1',
      'x-amz-security-token': '2',
      'api-key': '3',
      'x-secret': '4',
      'x-session': '5',
      'x-signature': '6',
      'x-cookie-jar': '7',
      'x-password': '8',
      'www-authenticate': 'Bearer',
      'content-type': 'application/json',
      'keep-alive': 'timeout=5',
      'x-request-id': 'r',
    };
    expect(loggedHeaders(headers, mask)).toEqual({
      'x-auth-token': '[redacted]',
      'x-amz-security-token': '[redacted]',
      'api-key': '[redacted]',
      'x-secret': '[redacted]',
      'x-session': '[redacted]',
      'x-signature': '[redacted]',
      'x-cookie-jar': '[redacted]',
      'x-password': '[redacted]',
      'www-authenticate': '[redacted]',
      'content-type': 'application/json',
      'keep-alive': 'timeout=5',
      'x-request-id': 'r',
    });
    const none = responseHeaderMask([]);
    expect(loggedHeaders({ 'x-auth-token': '1', authorization: 'a', 'proxy-authorization': 'b', cookie: 'c', 'set-cookie': 'd', 'x-api-key': 'e' }, none)).toEqual({
      'x-auth-token': '1',
      authorization: '[redacted]',
      'proxy-authorization': '[redacted]',
      cookie: '[redacted]',
      'set-cookie': '[redacted]',
      'x-api-key': '[redacted]',
    });
  });
});
