import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { ActionsController } from './actions.controller';
import { ActionsRepository } from './actions.repository';
import { ActionsService } from './actions.service';
import { JsonSchemaCompiler } from './json-schema-compiler';
import { SchemaSandbox } from './schema/schema-sandbox';

@Module({
  imports: [AuthModule, RateLimitModule, WebhooksModule],
  controllers: [ActionsController],
  providers: [ActionsRepository, ActionsService, JsonSchemaCompiler, SchemaSandbox],
  exports: [ActionsService, JsonSchemaCompiler],
})
export class ActionsModule {}
