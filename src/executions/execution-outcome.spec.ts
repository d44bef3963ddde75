import { judge } from './execution-outcome';

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

  it('names the status of a non-2xx answer', () => {
    expect(judge(answered(503, '{"error":"down"}'))).toEqual({ status: 'failed', httpStatus: 503, result: null, error: 'webhook endpoint returned status 503' });
  });

  it('names timeouts, unreachable receivers and oversized answers', () => {
    expect(judge({ kind: 'timed_out', timeoutMs: 30_000, durationMs: 30_001 }).error).toBe('webhook timed out after 30000 ms');
    expect(judge({ kind: 'unreachable', reason: 'connection refused', retryable: true, durationMs: 1 }).error).toBe('webhook endpoint unreachable (connection refused)');
    expect(judge({ kind: 'body_too_large', status: 200, durationMs: 1 })).toEqual({ status: 'failed', httpStatus: 200, result: null, error: 'invalid response body' });
  });
});
