import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantTablesModule } from '../tenancy/tenant-tables';
import { Tenant } from '../tenancy/tenant.entity';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { Action } from './action.entity';
import { ActionsRepository } from './actions.repository';
import { ActionsService } from './actions.service';
import { JsonSchemaCompiler } from './json-schema-compiler';
import { SchemaSandbox } from './schema/schema-sandbox';

/** Actions as services, without routes: the gateway's HTTP module and an admin backend both import this. */
@Module({
  // Creating an action locks its tenant's row: the Tenant entity is needed here too.
  imports: [TypeOrmModule.forFeature([Action, Tenant]), TenantTablesModule, WebhooksModule],
  providers: [ActionsRepository, ActionsService, JsonSchemaCompiler, SchemaSandbox],
  exports: [ActionsService, JsonSchemaCompiler],
})
export class ActionsModule {}
