import { Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { Clock } from './clock';
import { HttpErrorFilter } from './http-error.filter';
import { IdGenerator } from './id-generator';
import { JsonBodyInterceptor } from './json-body.interceptor';
import { PageCursors } from './page-cursors';
import { RouteTable } from './route-table';

@Global()
@Module({
  providers: [
    Clock,
    IdGenerator,
    RouteTable,
    PageCursors,
    { provide: APP_FILTER, useClass: HttpErrorFilter },
    { provide: APP_INTERCEPTOR, useClass: JsonBodyInterceptor },
  ],
  exports: [Clock, IdGenerator, RouteTable, PageCursors],
})
export class CommonModule {}
