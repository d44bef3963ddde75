import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { LRUCache } from 'lru-cache';
import { Strategy } from 'passport-jwt';
import { bearerCredentials } from '../common/bearer-credentials';
import { InvalidTokenError } from '../common/common.errors';
import { asTenantId } from '../common/tenant-id';
import { AppConfig } from '../config/app-config';
import { AsOf } from '../database/read-scope';
import { ApiTokensService } from './api-tokens.service';
import { UnverifiedTokenError } from './auth.errors';
import { jwtSecretKey } from './jwt-secret';
import { BearerClaims, Principal } from './principal';

/** The request's bearer token (bearerCredentials), for passport-jwt. */
export function bearerToken(request: { headers: Record<string, string | string[] | undefined> }): string | null {
  return bearerCredentials(request.headers.authorization);
}

type HeaderBearer = Parameters<typeof bearerToken>[0] & { arrivedAt?: number };
type VerifiedClaims = BearerClaims & { exp: number };

/** The most verified bearer tokens remembered (a few hundred bytes each); longer ones are verified every time. */
const VERIFIED_KEPT = 10_000;
const LONGEST_KEPT = 2_048;

/** Verifies bearer tokens: pinned algorithm, issuer and audience, then the API token behind it still stands. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  /**
   * Tokens passport-jwt has verified (signature, pinned algorithm, issuer, audience, expiry), with their claims.
   * Those checks depend on nothing but the token's bytes, this process's secret and the clock, so a token seen
   * again needs only its expiry checked (verifiedClaims). Whether its API token and tenant still stand is asked
   * on every request (principalOf).
   */
  private readonly verified = new LRUCache<string, VerifiedClaims>({ max: VERIFIED_KEPT });

  constructor(
    config: AppConfig,
    private readonly apiTokens: ApiTokensService,
  ) {
    super({
      jwtFromRequest: bearerToken,
      secretOrKey: jwtSecretKey(config) as unknown as string,
      algorithms: [config.jwt.algorithm],
      issuer: config.jwt.issuer,
      audience: config.jwt.audience,
      ignoreExpiration: false,
      passReqToCallback: true,
    });
  }

  /** passport-jwt's call, once it has verified the token of `request`. */
  async validate(request: HeaderBearer, claims: BearerClaims): Promise<Principal> {
    if (typeof claims.sub !== 'string' || typeof claims.tenant_id !== 'string' || typeof claims.exp !== 'number') {
      throw new UnverifiedTokenError('claims');
    }
    const token = bearerToken(request);
    if (token !== null && token.length <= LONGEST_KEPT) this.verified.set(token, claims as VerifiedClaims);
    return this.principalOf(claims as VerifiedClaims, request.arrivedAt);
  }

  /** The claims of `token` if passport-jwt verified it before and it has not expired since (jsonwebtoken's rule). */
  verifiedClaims(token: string): VerifiedClaims | undefined {
    const claims = this.verified.get(token);
    if (claims && Math.floor(Date.now() / 1000) < claims.exp) return claims;
    if (claims) this.verified.delete(token);
    return undefined;
  }

  /** Who a verified token speaks for, if its API token and its tenant still stand (as of `asOf`, see AsOf). */
  async principalOf(claims: VerifiedClaims, asOf?: AsOf): Promise<Principal> {
    if (!(await this.apiTokens.isUsable(claims.sub, claims.tenant_id, asOf))) throw new InvalidTokenError();
    return { tenantId: asTenantId(claims.tenant_id), apiTokenId: claims.sub };
  }
}
