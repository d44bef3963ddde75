import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-jwt';
import { InvalidTokenError } from '../common/common.errors';
import { asTenantId } from '../common/tenant-id';
import { AppConfig } from '../config/app-config';
import { ApiTokensService } from './api-tokens.service';
import { jwtSecretKey } from './jwt-secret';
import { BearerClaims, Principal } from './principal';

/**
 * The token of `Authorization: Bearer <token>`, the whole header or nothing: passport-jwt's own extractor reads
 * up to the first space and ignores whatever follows.
 */
export function bearerToken(request: { headers: Record<string, string | string[] | undefined> }): string | null {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer ([^\s]+)$/i.exec(header) : null;
  return match ? match[1] : null;
}

/** Verifies bearer tokens: pinned algorithm, issuer and audience, then the API token behind it still stands. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
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
    });
  }

  async validate(claims: BearerClaims): Promise<Principal> {
    if (typeof claims.sub !== 'string' || typeof claims.tenant_id !== 'string' || typeof claims.exp !== 'number') {
      throw new InvalidTokenError();
    }
    if (!(await this.apiTokens.isUsable(claims.sub, claims.tenant_id))) throw new InvalidTokenError();
    return { tenantId: asTenantId(claims.tenant_id), apiTokenId: claims.sub };
  }
}
