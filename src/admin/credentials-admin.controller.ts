import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiTokenDto } from '../auth/api-token.dto';
import { ADMIN_PREFIX } from '../common/routes';
import { HmacKeyDto } from '../webhooks/hmac-key.dto';
import { AdminKeyGuard } from './admin-key.guard';
import { AdminService } from './admin.service';
import { CreateApiTokenRequest } from './dto/create-api-token.request';

/** A tenant's credentials: API tokens (for the token exchange) and HMAC keys (for webhook signatures). */
@Controller(`${ADMIN_PREFIX}/tenants/:tenant_id`)
@UseGuards(AdminKeyGuard)
export class CredentialsAdminController {
  constructor(private readonly admin: AdminService) {}

  @Post('api-tokens')
  @HttpCode(201)
  async createApiToken(@Param('tenant_id') tenantId: string, @Body() body: CreateApiTokenRequest): Promise<{ api_token: ApiTokenDto }> {
    return { api_token: await this.admin.createApiToken(tenantId, body.name, body.expires_at) };
  }

  @Get('api-tokens')
  async listApiTokens(@Param('tenant_id') tenantId: string): Promise<{ api_tokens: ApiTokenDto[] }> {
    return { api_tokens: await this.admin.listApiTokens(tenantId) };
  }

  @Delete('api-tokens/:token_id')
  @HttpCode(204)
  async revokeApiToken(@Param('tenant_id') tenantId: string, @Param('token_id') tokenId: string): Promise<void> {
    await this.admin.revokeApiToken(tenantId, tokenId);
  }

  @Post('hmac-keys')
  @HttpCode(201)
  async createHmacKey(@Param('tenant_id') tenantId: string): Promise<{ hmac_key: HmacKeyDto }> {
    return { hmac_key: await this.admin.createHmacKey(tenantId) };
  }

  @Get('hmac-keys')
  async listHmacKeys(@Param('tenant_id') tenantId: string): Promise<{ hmac_keys: HmacKeyDto[] }> {
    return { hmac_keys: await this.admin.listHmacKeys(tenantId) };
  }

  @Delete('hmac-keys/:key_id')
  @HttpCode(204)
  async revokeHmacKey(@Param('tenant_id') tenantId: string, @Param('key_id') keyId: string): Promise<void> {
    await this.admin.revokeHmacKey(tenantId, keyId);
  }
}
