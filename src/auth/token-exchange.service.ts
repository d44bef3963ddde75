import { Injectable } from '@nestjs/common';
import { IdGenerator } from '../common/id-generator';
import { JwtService } from '@nestjs/jwt';
import { AppConfig } from '../config/app-config';
import { ApiTokensService } from './api-tokens.service';
import { TokenExchangeResponse } from './dto/token-exchange.response';
import { BearerClaims } from './principal';

/** Trades a long-lived API token for a 24-hour bearer token (spec 5.1). */
@Injectable()
export class TokenExchangeService {
  constructor(
    private readonly apiTokens: ApiTokensService,
    private readonly jwt: JwtService,
    private readonly config: AppConfig,
    private readonly ids: IdGenerator,
  ) {}

  async exchange(apiToken: string): Promise<TokenExchangeResponse> {
    const principal = await this.apiTokens.verify(apiToken);
    const claims: BearerClaims = { sub: principal.apiTokenId, tenant_id: principal.tenantId, jti: this.ids.next() };
    const lifetime = this.config.jwt.lifetimeSeconds;
    const jwtToken = await this.jwt.signAsync(claims, { expiresIn: lifetime });
    return { jwt_token: jwtToken, token_type: 'Bearer', expires_in: lifetime };
  }
}
