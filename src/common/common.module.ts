import { Global, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { Clock } from './clock';
import { HttpErrorFilter } from './http-error.filter';
import { RouteTable } from './route-table';

@Global()
@Module({
  providers: [Clock, RouteTable, { provide: APP_FILTER, useClass: HttpErrorFilter }],
  exports: [Clock, RouteTable],
})
export class CommonModule {}
