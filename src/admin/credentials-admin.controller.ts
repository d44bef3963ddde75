import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiTokenDto } from '../auth/api-token.dto';
import { ApiBearerAuth, ApiCookieAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiErrors, forbidden, invalid, notFound } from '../common/api-errors.decorator';
import { ADMIN_PREFIX } from '../common/routes';
import { ManagementAuthGuard } from '../console-auth/management-auth.guard';
import { HmacKeyDto } from '../webhooks/hmac-key.dto';
import { AdminService } from './admin.service';
import { CreateApiTokenRequest } from './dto/create-api-token.request';

class ApiTokenResponse {
  @ApiProperty({ type: ApiTokenDto })
  api_token: ApiTokenDto;
}

class ApiTokenListResponse {
  @ApiProperty({ type: [ApiTokenDto] })
  api_tokens: ApiTokenDto[];
}

class HmacKeyResponse {
  @ApiProperty({ type: HmacKeyDto })
  hmac_key: HmacKeyDto;
}

class HmacKeyListResponse {
  @ApiProperty({ type: [HmacKeyDto] })
  hmac_keys: HmacKeyDto[];
}

/** A tenant's credentials: API tokens (for the token exchange) and HMAC keys (for webhook signatures). */
@ApiTags('admin')
@ApiBearerAuth('admin')
@ApiCookieAuth('console')
@ApiErrors(401, 429, notFound('Tenant not found', 'API token not found', 'HMAC key not found'))
@Controller(`${ADMIN_PREFIX}/tenants/:tenant_id`)
@UseGuards(ManagementAuthGuard)
export class CredentialsAdminController {
  constructor(private readonly admin: AdminService) {}

  @Post('api-tokens')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createApiToken', summary: 'Issue an API token (its value is in this response only)' })
  @ApiCreatedResponse({ type: ApiTokenResponse })
  @ApiErrors(invalid('name: is required'), forbidden('api token limit reached: a tenant may have at most 100 usable API tokens'), 413)
  async createApiToken(@Param('tenant_id') tenantId: string, @Body() body: CreateApiTokenRequest): Promise<{ api_token: ApiTokenDto }> {
    return { api_token: await this.admin.createApiToken(tenantId, body.name, body.expires_at) };
  }

  @Get('api-tokens')
  @ApiOperation({ operationId: 'listApiTokens', summary: 'List API tokens (without their values)' })
  @ApiOkResponse({ type: ApiTokenListResponse })
  async listApiTokens(@Param('tenant_id') tenantId: string): Promise<{ api_tokens: ApiTokenDto[] }> {
    return { api_tokens: await this.admin.listApiTokens(tenantId) };
  }

  @Delete('api-tokens/:token_id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'revokeApiToken', summary: 'Revoke an API token: its bearer tokens stop working at the next request, on every replica' })
  @ApiNoContentResponse({ description: 'Revoked' })
  async revokeApiToken(@Param('tenant_id') tenantId: string, @Param('token_id') tokenId: string): Promise<void> {
    await this.admin.revokeApiToken(tenantId, tokenId);
  }

  @Post('hmac-keys')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createHmacKey', summary: 'Create an HMAC key (shown in this response only); it becomes the primary key' })
  @ApiCreatedResponse({ type: HmacKeyResponse })
  @ApiErrors(invalid('body: must be a JSON object'), forbidden('hmac key limit reached: a tenant may have at most 10 active HMAC keys'), 413)
  async createHmacKey(@Param('tenant_id') tenantId: string): Promise<{ hmac_key: HmacKeyDto }> {
    return { hmac_key: await this.admin.createHmacKey(tenantId) };
  }

  @Get('hmac-keys')
  @ApiOperation({ operationId: 'listHmacKeys', summary: 'List HMAC keys (without their values)' })
  @ApiOkResponse({ type: HmacKeyListResponse })
  async listHmacKeys(@Param('tenant_id') tenantId: string): Promise<{ hmac_keys: HmacKeyDto[] }> {
    return { hmac_keys: await this.admin.listHmacKeys(tenantId) };
  }

  @Delete('hmac-keys/:key_id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'revokeHmacKey', summary: 'Revoke an HMAC key: it signs nothing from now on' })
  @ApiNoContentResponse({ description: 'Revoked' })
  async revokeHmacKey(@Param('tenant_id') tenantId: string, @Param('key_id') keyId: string): Promise<void> {
    await this.admin.revokeHmacKey(tenantId, keyId);
  }
}
