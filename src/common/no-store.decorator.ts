import { Header } from '@nestjs/common';

/**
 * For answers that carry a secret (a bearer token, an API token, an HMAC key): no cache on the way, shared or
 * private, may keep a copy (RFC 9111 `no-store`).
 */
export const NoStore = (): MethodDecorator => Header('Cache-Control', 'no-store');
