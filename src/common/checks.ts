import { applyDecorators } from '@nestjs/common';

/**
 * Field checks run in the order written (stacked decorators would run bottom-up) and stop at the first failure,
 * so `details` names the most basic problem: missing, then wrong type, then bounds.
 */
export const Checks = (...decorators: PropertyDecorator[]) => applyDecorators(...decorators);
