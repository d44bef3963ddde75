import { Global, Module } from '@nestjs/common';
import { APP_FILTER, DiscoveryModule } from '@nestjs/core';
import { Clock } from './clock';
import { HttpErrorFilter } from './http-error.filter';
import { IdGenerator } from './id-generator';
import { JsonBodyInterceptor } from './json-body.interceptor';
import { PageCursors } from './page-cursors';
import { RouteTable } from './route-table';

@Global()
@Module({
  // DiscoveryModule: bindJsonBodyInterceptor finds the routes through it.
  imports: [DiscoveryModule],
  providers: [
    Clock,
    IdGenerator,
    RouteTable,
    PageCursors,
    { provide: APP_FILTER, useClass: HttpErrorFilter },
    JsonBodyInterceptor,
  ],
  exports: [Clock, IdGenerator, RouteTable, PageCursors],
})
export class CommonModule {}
