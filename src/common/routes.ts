/** Path prefixes: the versioned gateway interface (spec section 9) and the management API. */
export const GATEWAY_PREFIX = 'api/v1/gateway';
export const ADMIN_PREFIX = 'api/v1/admin';
