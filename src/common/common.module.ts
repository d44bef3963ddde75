import { Global, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Clock } from './clock';
import { HttpErrorFilter } from './http-error.filter';
import { IdGenerator } from './id-generator';
import { RouteTable } from './route-table';

@Global()
@Module({
  providers: [Clock, IdGenerator, RouteTable, { provide: APP_FILTER, useClass: HttpErrorFilter }],
  exports: [Clock, IdGenerator, RouteTable],
})
export class CommonModule {}
