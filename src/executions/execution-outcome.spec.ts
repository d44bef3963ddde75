import { CUT_MARKER, judge, loggedText, MAX_STORED_TEXT } from './execution-outcome';

const answered = (status: number, body: string) => ({ kind: 'answered' as const, status, body: Buffer.from(body), durationMs: 1 });

describe('judge', () => {
  it('calls a 2xx with an empty error a success and keeps the result', () => {
    expect(judge(answered(200, '{"result":"done","error":""}'))).toEqual({ status: 'succeeded', httpStatus: 200, result: 'done', error: '' });
    expect(judge(answered(201, '{"result":"done"}'))).toEqual({ status: 'succeeded', httpStatus: 201, result: 'done', error: '' });
    expect(judge(answered(200, '{}'))).toEqual({ status: 'succeeded', httpStatus: 200, result: null, error: '' });
  });

  it('reports the receiver\'s own error text', () => {
    expect(judge(answered(200, '{"result":"","error":"no such city"}'))).toEqual({ status: 'failed', httpStatus: 200, result: '', error: 'no such city' });
  });

  it.each(['', 'nope', '[]', '"text"', 'null', '{"result":1}', '{"error":false}'])('calls %j an invalid response body', (body) => {
    expect(judge(answered(200, body))).toEqual({ status: 'failed', httpStatus: 200, result: null, error: 'invalid response body' });
  });

  it('reads an answer nested as deep as a request body may be, and calls a deeper one invalid without parsing it', () => {
    const nested = (depth: number) => `{"result":"ok","error":"","extra":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expect(judge(answered(200, nested(128))).status).toBe('succeeded');
    expect(judge(answered(200, nested(129)))).toEqual({ status: 'failed', httpStatus: 200, result: null, error: 'invalid response body' });
    // Brackets inside strings do not count.
    expect(judge(answered(200, `{"result":"${'['.repeat(1000)}","error":""}`)).status).toBe('succeeded');
  });

  it('names the status of a non-2xx answer', () => {
    expect(judge(answered(503, '{"error":"down"}'))).toEqual({ status: 'failed', httpStatus: 503, result: null, error: 'webhook endpoint returned status 503' });
  });

  it('names timeouts, unreachable receivers and oversized answers', () => {
    expect(judge({ kind: 'timed_out', timeoutMs: 30_000, durationMs: 30_001 }).error).toBe('webhook timed out after 30000 ms');
    expect(judge({ kind: 'unreachable', reason: 'connection refused', retryable: true, durationMs: 1 }).error).toBe('webhook endpoint unreachable (connection refused)');
    expect(judge({ kind: 'body_too_large', status: 200, durationMs: 1 })).toEqual({ status: 'failed', httpStatus: 200, result: null, error: 'invalid response body' });
  });

  it('replaces what PostgreSQL and UTF-8 cannot hold, and keeps long texts whole, in result and error alike', () => {
    expect(judge(answered(200, '{"result":"a\\u0000b\\ud800c","error":"\\udc00"}'))).toEqual({ status: 'failed', httpStatus: 200, result: 'a\uFFFDb\uFFFDc', error: '\uFFFD' });
    const long = judge(answered(200, JSON.stringify({ result: 'r'.repeat(1_000_000), error: 'e'.repeat(MAX_STORED_TEXT + 1) })));
    expect(long.result).toBe('r'.repeat(1_000_000));
    expect(long.error).toBe('e'.repeat(MAX_STORED_TEXT + 1));
  });

  it('calls a body that is not UTF-8 an invalid response body, and reads one behind a byte order mark', () => {
    const latin1 = { kind: 'answered' as const, status: 200, body: Buffer.from([...Buffer.from('{"result":"caf'), 0xe9, ...Buffer.from('","error":""}')]), durationMs: 1 };
    expect(judge(latin1)).toEqual({ status: 'failed', httpStatus: 200, result: null, error: 'invalid response body' });
    const bom = { kind: 'answered' as const, status: 200, body: Buffer.from('\uFEFF{"result":"café"}'), durationMs: 1 };
    expect(judge(bom)).toEqual({ status: 'succeeded', httpStatus: 200, result: 'café', error: '' });
  });
});

describe('loggedText', () => {
  it('cuts after MAX_STORED_TEXT characters, not UTF-16 units, and never splits a pair', () => {
    expect(loggedText('😀'.repeat(MAX_STORED_TEXT))).toBe('😀'.repeat(MAX_STORED_TEXT));
    expect(loggedText('😀'.repeat(MAX_STORED_TEXT + 1))).toBe(`${'😀'.repeat(MAX_STORED_TEXT)}${CUT_MARKER}`);
    expect(loggedText('x'.repeat(MAX_STORED_TEXT))).toBe('x'.repeat(MAX_STORED_TEXT));
    expect(loggedText('r'.repeat(1_000_000))).toBe(`${'r'.repeat(MAX_STORED_TEXT)}${CUT_MARKER}`);
  });
});
