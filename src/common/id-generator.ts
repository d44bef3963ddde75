import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';

/** New record ids (UUID v4), behind a provider like the clock, so tests can pin them. */
@Injectable()
export class IdGenerator {
  next(): string {
    return randomUUID();
  }
}
