import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { GATEWAY_PREFIX } from '../common/routes';
import { ExchangeRateLimited } from '../rate-limit/rate-limit.decorators';
import { TokenExchangeRequest } from './dto/token-exchange.request';
import { TokenExchangeResponse } from './dto/token-exchange.response';
import { TokenExchangeService } from './token-exchange.service';

@Controller(`${GATEWAY_PREFIX}/token`)
export class TokenExchangeController {
  constructor(private readonly tokenExchange: TokenExchangeService) {}

  @Post('exchange')
  @HttpCode(200)
  @ExchangeRateLimited()
  exchange(@Body() body: TokenExchangeRequest): Promise<TokenExchangeResponse> {
    return this.tokenExchange.exchange(body.api_token);
  }
}
