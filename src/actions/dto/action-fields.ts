import { IsDefined, IsObject, IsString, Length, Matches, MaxLength, ValidateBy, ValidateIf } from 'class-validator';
import { ApiParam, ApiProperty } from '@nestjs/swagger';
import { Checks } from '../../common/checks';
import { CodePointLength, IsStorableText } from '../../common/text.validators';
import { MAX_WEBHOOK_URL_LENGTH, parseWebhookUrl } from '../../webhooks/webhook-url';
import { ACTION_NAME_MAX_LENGTH, ACTION_NAME_PATTERN } from '../action-name';

// The rules of spec 2.1, once, for the create and update bodies. `required` false: the field may be absent, but
// when present (even as null) it is checked like on create.
const presence = (required: boolean) =>
  required ? IsDefined({ message: 'is required' }) : ValidateIf((_, value) => value !== undefined);

export const ActionNameField = () =>
  Checks(
    ApiProperty({ example: 'get_weather', pattern: ACTION_NAME_PATTERN.source, minLength: 1, maxLength: ACTION_NAME_MAX_LENGTH }),
    presence(true),
    IsString({ message: 'must be a string' }),
    Length(1, ACTION_NAME_MAX_LENGTH, { message: `must be 1 to ${ACTION_NAME_MAX_LENGTH} characters` }),
    Matches(ACTION_NAME_PATTERN, { message: 'must match ^[a-z0-9_]+$ (lowercase letters, digits and underscores)' }),
  );

/** The `{action_name}` path parameter (spec 4): a name that does not match is an unknown action (404), not a 400. */
export const ActionNameParam = () =>
  ApiParam({
    name: 'action_name',
    description: 'The action\'s name; one that does not match the pattern is answered 404 Action not found',
    schema: { type: 'string', pattern: ACTION_NAME_PATTERN.source, minLength: 1, maxLength: ACTION_NAME_MAX_LENGTH, example: 'get_weather' },
  });

export const DescriptionField = (required: boolean) =>
  Checks(
    ApiProperty({ required, example: 'Current weather for a city', minLength: 1, maxLength: 500 }),
    presence(required),
    IsString({ message: 'must be a string' }),
    CodePointLength(1, 500),
    IsStorableText(),
  );

/**
 * The URL's syntax (parseWebhookUrl; whether https is required is the service's to say), checked with the other
 * fields so that one answer names every malformed field.
 */
const IsWebhookUri = () =>
  ValidateBy({
    name: 'isWebhookUri',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || typeof parseWebhookUrl(value, false) !== 'string',
      defaultMessage: (args) => String(parseWebhookUrl(String(args?.value), false)),
    },
  });

/**
 * What the OpenAPI description says of a webhook URL's syntax. Not `format: uri`: RFC 3986 is the rule, but `[`
 * and `]` in a query (`ids[]=1`) and a second `#` in a fragment are accepted too (docs/decisions.md), and a
 * validator that checks `format: uri` would call such an action, once stored, a malformed answer.
 */
export const WEBHOOK_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://';
export const WEBHOOK_URL_SYNTAX =
  'An absolute http(s) URL as RFC 3986 writes it, except that `[` and `]` may appear anywhere (a query such as `ids[]=1`) and a fragment may hold a second `#`; stored and returned exactly as sent.';

/**
 * On create, the URL's syntax is checked with the other fields. On update it is left to ActionsService, which
 * lets an action's own stored URL (perhaps accepted under older rules) be sent back unchanged.
 */
export const WebhookUrlField = (required: boolean) =>
  Checks(
    ApiProperty({
      required,
      pattern: WEBHOOK_URL_PATTERN,
      maxLength: MAX_WEBHOOK_URL_LENGTH,
      example: 'https://hooks.example.com/weather',
      description: `${WEBHOOK_URL_SYNTAX} https only and no private destinations in production. Gets a signed test POST.`,
    }),
    presence(required),
    IsString({ message: 'must be a string' }),
    MaxLength(MAX_WEBHOOK_URL_LENGTH, { message: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` }),
    IsStorableText(),
    ...(required ? [IsWebhookUri()] : []),
  );

export const JsonSchemaField = (required: boolean) =>
  Checks(
    ApiProperty({
      required,
      type: Object,
      additionalProperties: true,
      description: 'A JSON Schema (draft 2020-12, or draft-07 by $schema) whose type, if given, is "object"',
      example: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    }),
    presence(required),
    IsObject({ message: 'must be a JSON object' }),
  );
