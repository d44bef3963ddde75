import { Global, Module } from '@nestjs/common';
import { ShutdownState } from './shutdown-state';

/** The shutdown state the probes and the HTTP layer read (`main.ts` flips it on SIGTERM). */
@Global()
@Module({
  providers: [ShutdownState],
  exports: [ShutdownState],
})
export class HealthModule {}
