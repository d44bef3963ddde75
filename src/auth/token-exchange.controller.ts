import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrors, invalid } from '../common/api-errors.decorator';
import { ErrorBody } from '../common/error-body';
import { GATEWAY_PREFIX } from '../common/routes';
import { ExchangeRateLimited } from '../rate-limit/rate-limit.decorators';
import { TokenExchangeRequest } from './dto/token-exchange.request';
import { TokenExchangeResponse } from './dto/token-exchange.response';
import { RequestTrace } from '../tracing/request-trace';
import { TraceParent } from '../tracing/trace-context';
import { TokenExchangeService } from './token-exchange.service';

@ApiTags('auth')
@Controller(`${GATEWAY_PREFIX}/token`)
export class TokenExchangeController {
  constructor(private readonly tokenExchange: TokenExchangeService) {}

  @Post('exchange')
  @HttpCode(200)
  @ExchangeRateLimited()
  @ApiOperation({ operationId: 'exchangeToken', summary: 'Exchange an API token for a 24-hour bearer token', security: [] })
  @ApiOkResponse({ type: TokenExchangeResponse })
  @ApiErrors(invalid('api_token: is required'), 413, 429)
  @ApiResponse({ status: 401, type: ErrorBody, description: 'Unknown, revoked or expired API token, or disabled tenant', example: { error: 'Invalid API token' } })
  exchange(@Body() body: TokenExchangeRequest, @RequestTrace() trace: TraceParent): Promise<TokenExchangeResponse> {
    return this.tokenExchange.exchange(body.api_token, trace);
  }
}
