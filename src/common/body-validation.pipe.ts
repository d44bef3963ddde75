import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { getMetadataStorage, validateSync } from 'class-validator';
import { InvalidRequestError } from './common.errors';

const BODY_OPTIONAL = Symbol('body optional');
const UNKNOWN_FIELDS = Symbol('unknown fields refused');
const UNKNOWN_NOTED = Symbol('unknown fields noted');
const ONE_OF = Symbol('one of required');

/** How a DTO marked `@RefusesUnknownFields` explains the fields it does not take, given their names and the body. */
type UnknownFieldsHint = (unknown: string[], body: Record<string, unknown>) => string;

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
 * On a DTO whose body has a side effect that a misplaced field would silently change (execute: `{"city":"Oslo"}`
 * would run the action with parameters {}): a field the DTO does not declare is 400 `Invalid request` naming it,
 * followed by `hint`'s advice, instead of being dropped. Every other body ignores unknown fields (the contract's
 * rule for action bodies); docs/decisions.md says why execute differs.
 */
export function RefusesUnknownFields(hint: UnknownFieldsHint): ClassDecorator {
  return (target) => {
    Object.defineProperty(target, UNKNOWN_FIELDS, { value: hint });
  };
}

/** How a DTO marked `@NotesUnknownFields` advises on one field it does not take: the field likely meant. */
type UnknownFieldAdvice = (name: string) => string;

/**
 * On a DTO whose unknown fields are ignored (the contract's rule for action bodies): when the body is refused for
 * another reason, its unknown fields are named after the problems, each with `advice` (`webhook: unknown field (did
 * you mean "webhook_url"?)`), since a misspelt field is the likely reason a required one is missing. A body that
 * passes keeps its unknown fields ignored: they never turn a valid request into a 400. `ignored` names the fields
 * the contract ignores by name (read-only ones), which are not unknown.
 */
export function NotesUnknownFields(advice: UnknownFieldAdvice, ignored: readonly string[] = []): ClassDecorator {
  return (target) => {
    Object.defineProperty(target, UNKNOWN_NOTED, { value: { advice, ignored: new Set(ignored) } });
  };
}

/** On a DTO whose fields are each optional but not all: at least one of `fields` must be present. */
export function RequiresOneOf(...fields: string[]): ClassDecorator {
  return (target) => {
    Object.defineProperty(target, ONE_OF, { value: fields });
  };
}

/** Names listed in a refusal; the rest are counted. Each is cut too: both are the caller's text, echoed. */
const NAMES_LISTED = 10;
const NAME_SHOWN = 64;

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
    const body = value as Record<string, unknown>;
    refuseUnknownFields(metadata.metatype, body);
    const dto = Object.assign(new (metadata.metatype as new () => object)(), value);
    const errors = validateSync(dto, { whitelist: true, forbidUnknownValues: false, stopAtFirstError: true });
    const problems = errors.map((error) => `${error.property}: ${Object.values(error.constraints ?? {}).join(', ') || 'is invalid'}`);
    const oneOf = ownSymbol<string[]>(metadata.metatype, ONE_OF);
    if (oneOf && !oneOf.some((field) => body[field] !== undefined)) problems.push(`body: at least one of ${oneOf.join(', ')} is required`);
    if (problems.length > 0) throw new InvalidRequestError([...problems, ...unknownFieldNotes(metadata.metatype, body)].join('; '));
    return dto;
  }
}

function ownSymbol<T>(metatype: NonNullable<ArgumentMetadata['metatype']>, symbol: symbol): T | undefined {
  return Object.hasOwn(metatype, symbol) ? (metatype as unknown as Record<symbol, T>)[symbol] : undefined;
}

/** The fields a DTO declares (its validation rules' properties). */
function declaredFields(metatype: NonNullable<ArgumentMetadata['metatype']>): Set<string> {
  return new Set(getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false).map((rule) => rule.propertyName));
}

/** `webhook: unknown field (did you mean "webhook_url"?)` for each field of `body` the DTO neither takes nor ignores. */
function unknownFieldNotes(metatype: NonNullable<ArgumentMetadata['metatype']>, body: Record<string, unknown>): string[] {
  const noted = ownSymbol<{ advice: UnknownFieldAdvice; ignored: Set<string> }>(metatype, UNKNOWN_NOTED);
  if (!noted) return [];
  const known = declaredFields(metatype);
  const unknown = Object.keys(body).filter((field) => !known.has(field) && !noted.ignored.has(field));
  const notes = unknown.slice(0, NAMES_LISTED).map((field) => `${fieldName(field)}: unknown field (${noted.advice(shownName(field))})`);
  if (unknown.length > NAMES_LISTED) notes.push(`and ${unknown.length - NAMES_LISTED} more unknown fields`);
  return notes;
}

function refuseUnknownFields(metatype: NonNullable<ArgumentMetadata['metatype']>, body: Record<string, unknown>): void {
  const hint = ownSymbol<UnknownFieldsHint>(metatype, UNKNOWN_FIELDS);
  if (!hint) return;
  const known = declaredFields(metatype);
  const unknown = Object.keys(body).filter((field) => !known.has(field));
  if (unknown.length === 0) return;
  const listed = unknown.slice(0, NAMES_LISTED).map(fieldName);
  const more = unknown.length > NAMES_LISTED ? ` and ${unknown.length - NAMES_LISTED} more` : '';
  const noun = unknown.length === 1 ? 'unknown field' : 'unknown fields';
  throw new InvalidRequestError(`${listed.join(', ')}${more}: ${noun} (${hint(unknown, body)})`);
}

/** A field name cut to a length fit to echo. */
export function shownName(name: string): string {
  const characters = [...name];
  return characters.length > NAME_SHOWN ? `${characters.slice(0, NAME_SHOWN).join('')}…` : name;
}

/** A field name as a refusal lists it: as is when it reads as a name, else JSON-quoted. */
function fieldName(name: string): string {
  const shown = shownName(name);
  return /^[A-Za-z_$][\w$-]*$/.test(shown) ? shown : JSON.stringify(shown);
}
