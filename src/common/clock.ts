import { Injectable } from '@nestjs/common';

/** The time, behind a provider so tests can pin it. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }

  nowSeconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }
}
