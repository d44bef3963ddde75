import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { AppConfig } from '../config/app-config';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { TenancyModule } from '../tenancy/tenancy.module';
import { ApiTokensRepository } from './api-tokens.repository';
import { ApiTokensService } from './api-tokens.service';
import { BearerAuthGuard } from './bearer-auth.guard';
import { jwtSecretKey } from './jwt-secret';
import { JwtStrategy } from './jwt.strategy';
import { TokenExchangeController } from './token-exchange.controller';
import { TokenExchangeService } from './token-exchange.service';

@Module({
  imports: [
    PassportModule,
    RateLimitModule,
    TenancyModule,
    JwtModule.registerAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        secret: jwtSecretKey(config),
        signOptions: { algorithm: config.jwt.algorithm, issuer: config.jwt.issuer, audience: config.jwt.audience },
        verifyOptions: { algorithms: [config.jwt.algorithm], issuer: config.jwt.issuer, audience: config.jwt.audience },
      }),
    }),
  ],
  controllers: [TokenExchangeController],
  providers: [ApiTokensRepository, ApiTokensService, JwtStrategy, BearerAuthGuard, TokenExchangeService],
  exports: [ApiTokensService, JwtStrategy, BearerAuthGuard, TokenExchangeService],
})
export class AuthModule {}
