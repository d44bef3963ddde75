import { Injectable } from '@nestjs/common';

/** Whether the process has been asked to stop: readiness answers 503 from then on. */
@Injectable()
export class ShutdownState {
  private draining = false;

  begin(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }
}
