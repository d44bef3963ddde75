import { Injectable } from '@nestjs/common';
import { IdGenerator } from '../common/id-generator';
import { JwtService } from '@nestjs/jwt';
import { AppConfig } from '../config/app-config';
import { ATTRIBUTE } from '../tracing/span-attributes';
import { TraceParent } from '../tracing/trace-context';
import { Tracing } from '../tracing/tracing';
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
    private readonly tracing: Tracing,
  ) {}

  /** In a span "exchange token" under `trace`, with the API token's lookup and the signing as its children. */
  exchange(apiToken: string, trace?: TraceParent): Promise<TokenExchangeResponse> {
    return this.tracing.span(trace, 'exchange token', { [ATTRIBUTE.authMethod]: 'api_token' }, async ({ trace: exchange, span }) => {
      const principal = await this.tracing.span(exchange, 'read api token', { [ATTRIBUTE.dbSystem]: 'postgresql' }, () => this.apiTokens.verify(apiToken));
      span?.setAttribute(ATTRIBUTE.tenantId, principal.tenantId);
      const claims: BearerClaims = { sub: principal.apiTokenId, tenant_id: principal.tenantId, jti: this.ids.next() };
      const lifetime = this.config.jwt.lifetimeSeconds;
      const jwtToken = await this.tracing.span(exchange, 'sign bearer token', {}, () => this.jwt.signAsync(claims, { expiresIn: lifetime }));
      return { jwt_token: jwtToken, token_type: 'Bearer', expires_in: lifetime };
    });
  }
}
