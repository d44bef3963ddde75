import { createSecretKey, KeyObject } from 'node:crypto';
import { AppConfig } from '../config/app-config';

/**
 * The JWT secret as a KeyObject. Given a plain string, jsonwebtoken first tries to read it as a public key on
 * every verify, which throws internally and costs ~50x the time of the HMAC itself.
 */
export function jwtSecretKey(config: AppConfig): KeyObject {
  return createSecretKey(Buffer.from(config.jwt.secret, 'utf8'));
}
