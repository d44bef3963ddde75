import { request as httpRequest } from 'node:http';
/** A response as the tests look at it: status, headers, parsed JSON body (or undefined) and raw text. */
export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, instead of JSON-encoding `body`. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

/** One HTTP request to the app over a real socket. */
export async function call<T = any>(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Buffer | undefined = options.raw;
  if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(baseUrl + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/**
 * One HTTP request with exactly the headers given, over node:http: no Accept or Content-Type added (fetch adds
 * both), and a body on any method (fetch refuses one on a GET).
 */
export function bareCall(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string; setCookie?: string[] }> {
  return new Promise((resolve, reject) => {
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const request = httpRequest(url, { method, headers: { ...length, ...headers } }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text, setCookie: response.headers['set-cookie'] }));
    });
    request.on('error', reject);
    request.end(body);
  });
}
