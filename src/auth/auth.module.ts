import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantTablesModule } from '../tenancy/tenant-tables';
import { AppConfig } from '../config/app-config';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { TracingModule } from '../tracing/tracing.module';
import { ApiToken } from './api-token.entity';
import { ApiTokensRepository } from './api-tokens.repository';
import { ApiTokensService } from './api-tokens.service';
import { BearerAuthGuard } from './bearer-auth.guard';
import { jwtSecretKey } from './jwt-secret';
import { JwtStrategy } from './jwt.strategy';
import { TokenExchangeService } from './token-exchange.service';

/**
 * API tokens, the token exchange and bearer-token verification, without routes. `BearerAuthGuard` (and
 * `TenantAuthenticated`) need this module imported where the guarded controller is declared.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([ApiToken]),
    TenantTablesModule,
    PassportModule,
    RateLimitModule,
    TenancyModule,
    TracingModule,
    JwtModule.registerAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        secret: jwtSecretKey(config),
        signOptions: { algorithm: config.jwt.algorithm, issuer: config.jwt.issuer, audience: config.jwt.audience },
        verifyOptions: { algorithms: [config.jwt.algorithm], issuer: config.jwt.issuer, audience: config.jwt.audience },
      }),
    }),
  ],
  providers: [ApiTokensRepository, ApiTokensService, JwtStrategy, BearerAuthGuard, TokenExchangeService],
  exports: [ApiTokensService, JwtStrategy, BearerAuthGuard, TokenExchangeService],
})
export class AuthModule {}
