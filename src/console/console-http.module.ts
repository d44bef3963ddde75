import { Module } from '@nestjs/common';
import { ConsolePageController } from './console-page.controller';

/** Serves the Gateway Management console's page under /console (its assets: serveConsoleAssets). */
@Module({ controllers: [ConsolePageController] })
export class ConsoleHttpModule {}
