import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { validateSync, ValidationError } from 'class-validator';
import { InvalidRequestError } from './common.errors';

const BODY_OPTIONAL = Symbol('body optional');

/**
 * On a DTO whose fields are all optional: a request with no body (none at all, or an empty one) is taken as `{}`,
 * so a client need not send one. Without it, a route that declares a body needs a JSON object.
 */
export function BodyOptional(): ClassDecorator {
  return (target) => {
    Object.defineProperty(target, BODY_OPTIONAL, { value: true });
  };
}

/**
 * Validates JSON bodies (parsed by `JsonBodyInterceptor` after the guards) against their DTO class. The DTO is
 * filled shallowly (no deep copy of nested objects, so a hostile, deeply nested body costs nothing here), unknown
 * and read-only fields are dropped, and every failure becomes 400 `Invalid request` with details
 * `field: problem; ...`.
 */
@Injectable()
export class BodyValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body') return value;
    if (!metadata.metatype || metadata.metatype === Object) return value;
    if (value === undefined && Object.hasOwn(metadata.metatype, BODY_OPTIONAL)) value = {};
    if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value)) {
      throw new InvalidRequestError('body: must be a JSON object');
    }
    const dto = Object.assign(new (metadata.metatype as new () => object)(), value);
    const errors = validateSync(dto, { whitelist: true, forbidUnknownValues: false, stopAtFirstError: true });
    if (errors.length > 0) throw new InvalidRequestError(formatErrors(errors));
    return dto;
  }
}

export function formatErrors(errors: ValidationError[]): string {
  return errors
    .map((error) => `${error.property}: ${Object.values(error.constraints ?? {}).join(', ') || 'is invalid'}`)
    .join('; ');
}
