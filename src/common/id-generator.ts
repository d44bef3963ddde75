import { Injectable } from '@nestjs/common';
import { v7 } from 'uuid';

/**
 * New record ids, behind a provider like the clock, so tests can pin them. UUID v7 (RFC 9562): the time in
 * milliseconds, then a counter that keeps ids made in the same millisecond in the order they were made, then
 * random bits. Lists ordered by `created_at` (milliseconds) break ties by id, so "newest" and "in order" hold
 * for records one process made within one millisecond too. Ids are not secrets: every secret the service makes
 * is random bytes of its own.
 */
@Injectable()
export class IdGenerator {
  next(): string {
    return v7();
  }
}
