import { Module } from '@nestjs/common';
import { RootRedirectController } from './root-redirect.controller';

/** `GET /` redirected to the console: AppModule imports it outside production only. */
@Module({ controllers: [RootRedirectController] })
export class RootRedirectHttpModule {}
