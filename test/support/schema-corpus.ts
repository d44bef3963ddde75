/**
 * Realistic action schemas for the tool-definition tests (unit and e2e): nested objects, arrays, enums,
 * `$defs`/`$ref`, draft-07, formats, and the constructs strict mode cannot take. `strict` is what OpenAI's strict
 * mode should make of each: true (converted), false (sent non-strict) or 'omitted' (left out of openai and
 * anthropic: a combinator at the root).
 */
export interface CorpusEntry {
  name: string;
  description: string;
  json_schema: Record<string, unknown>;
  strict: boolean | 'omitted';
}

const address = {
  type: 'object',
  properties: { street: { type: 'string' }, city: { type: 'string' }, postcode: { type: 'string', pattern: '^[0-9]{4,5}$' } },
  required: ['street', 'city', 'postcode'],
  additionalProperties: false,
};

export const SCHEMA_CORPUS: CorpusEntry[] = [
  {
    name: 'get_weather',
    description: 'Current weather for a city',
    json_schema: {
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' }, units: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
      required: ['city'],
    },
    strict: false, // units is optional and does not accept null
  },
  {
    name: 'get_forecast',
    description: 'Forecast for the next days',
    json_schema: {
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { type: 'integer', minimum: 1, maximum: 14 },
        units: { type: ['string', 'null'], enum: ['celsius', 'fahrenheit', null], default: null },
      },
      required: ['city', 'days'],
    },
    strict: true, // units accepts null: required in strict mode, the model sends null to leave it out
  },
  {
    name: 'create_order',
    description: 'Places an order for a customer',
    json_schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        customer: {
          type: 'object',
          properties: { email: { type: 'string', format: 'email' }, name: { type: 'string' }, vip: { type: 'boolean' } },
          required: ['email', 'name', 'vip'],
        },
        lines: {
          type: 'array',
          minItems: 1,
          maxItems: 20,
          items: {
            type: 'object',
            properties: { sku: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' }, quantity: { type: 'integer', minimum: 1 }, price: { type: 'number', exclusiveMinimum: 0 }, pack: { type: 'integer', multipleOf: 6 } },
            required: ['sku', 'quantity', 'price', 'pack'],
            additionalProperties: false,
          },
        },
        currency: { enum: ['EUR', 'USD', 'NOK'] },
        deliver_on: { type: 'string', format: 'date' },
        reference: { type: 'string', format: 'uuid' },
      },
      required: ['customer', 'lines', 'currency', 'deliver_on', 'reference'],
      additionalProperties: false,
    },
    strict: true,
  },
  {
    name: 'ship_parcel',
    description: 'Books a parcel between two addresses',
    json_schema: {
      type: 'object',
      $defs: { address },
      properties: {
        from: { $ref: '#/$defs/address', description: 'Sender' },
        to: { $ref: '#/$defs/address' },
        weight_kg: { type: 'number', minimum: 0.1, maximum: 30 },
        insured: { anyOf: [{ type: 'number', minimum: 0 }, { type: 'null' }] },
      },
      required: ['from', 'to', 'weight_kg'],
    },
    strict: true,
  },
  {
    name: 'file_tree',
    description: 'Creates folders and files from a tree',
    json_schema: {
      type: 'object',
      properties: { root: { $ref: '#/$defs/node' } },
      required: ['root'],
      $defs: {
        node: {
          type: 'object',
          properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' }, maxItems: 3 } },
          required: ['name', 'children'],
          additionalProperties: false,
        },
      },
    },
    strict: true,
  },
  {
    name: 'legacy_booking',
    description: 'A draft-07 schema with definitions, a tuple and dependencies',
    json_schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: { slot: { type: 'string', format: 'date-time' } },
      properties: {
        slot: { $ref: '#/definitions/slot' },
        coordinates: { type: 'array', items: [{ type: 'number' }, { type: 'number' }], additionalItems: false },
        card: { type: 'string' },
        cvc: { type: 'string' },
      },
      required: ['slot'],
      dependencies: { card: ['cvc'] },
    },
    strict: false, // optional properties, a tuple, dependencies
  },
  {
    name: 'send_email',
    description: 'Sends an email',
    json_schema: {
      type: 'object',
      properties: {
        to: { type: 'array', items: { type: 'string', format: 'email' }, minItems: 1, uniqueItems: true },
        subject: { type: 'string', minLength: 1, maxLength: 200 },
        body: { type: 'string' },
        link: { type: 'string', format: 'uri' },
        budget: { type: 'number', multipleOf: 0.01 },
      },
      required: ['to', 'subject', 'body', 'link', 'budget'],
    },
    strict: false, // uniqueItems, minLength, maxLength, format uri, a fractional multipleOf
  },
  {
    name: 'tag_record',
    description: 'Adds free-form metadata to a record',
    json_schema: {
      type: 'object',
      properties: { id: { type: 'string' }, metadata: { type: 'object', additionalProperties: { type: 'string' } }, tags: { type: 'array' } },
      required: ['id', 'metadata', 'tags'],
    },
    strict: false, // an open object, an array without items
  },
  {
    name: 'pay_invoice',
    description: 'Pays an invoice by card or by transfer',
    json_schema: {
      type: 'object',
      properties: {
        invoice: { type: 'string' },
        method: {
          oneOf: [
            { type: 'object', properties: { card: { type: 'string' } }, required: ['card'] },
            { type: 'object', properties: { iban: { type: 'string' } }, required: ['iban'] },
          ],
        },
      },
      required: ['invoice', 'method'],
    },
    strict: false, // oneOf
  },
  {
    name: 'lookup_either',
    description: 'Looks a person up by email or by phone',
    json_schema: {
      type: 'object',
      properties: { email: { type: 'string' }, phone: { type: 'string' } },
      anyOf: [{ required: ['email'] }, { required: ['phone'] }],
    },
    strict: 'omitted', // anyOf at the root
  },
  {
    name: 'ping',
    description: 'Checks that the service answers (no parameters)',
    json_schema: {},
    strict: true, // no parameters: strict mode closes the root object
  },
  {
    name: 'set_alert_level',
    description: 'An enum of type string that lists null (a nullable enum written by mistake)',
    json_schema: { type: 'object', properties: { level: { type: 'string', enum: ['low', 'high', null] } } },
    strict: false, // null never passes `type: string`: level is optional and cannot be left out with null
  },
  {
    name: 'set_priority',
    description: 'Enums with values their type excludes, which can never pass',
    json_schema: {
      type: 'object',
      properties: { priority: { type: 'integer', enum: [1, 2, 3, '4'] }, channel: { type: ['string', 'null'], enum: ['email', 'sms', null] } },
      required: ['priority'],
    },
    strict: true, // '4' is left out of the enum (exact); channel accepts null
  },
  {
    name: 'set_flags',
    description: 'Unknown keywords, boolean subschemas and OpenAPI nullable',
    json_schema: {
      properties: {
        flag: { type: 'boolean', 'x-ui': 'checkbox' },
        comment: { type: 'string', nullable: true },
        anything: true,
        level: { enum: [1, 2, 3] },
      },
      required: ['flag', 'anything', 'level'],
      'x-owner': 'team-a',
    },
    strict: false, // `anything` takes any value
  },
  {
    name: 'set_mode',
    description: 'OpenAPI nullable, enum without type, no root type',
    json_schema: {
      properties: { mode: { enum: ['fast', 'safe'] }, note: { type: 'string', nullable: true } },
      required: ['mode'],
      'x-owner': 'team-b',
    },
    strict: true,
  },
  {
    name: 'pick_country',
    description: 'An enum too long for strict mode',
    json_schema: {
      type: 'object',
      properties: { code: { type: 'string', enum: Array.from({ length: 1_001 }, (_, index) => `c${index}`) } },
      required: ['code'],
    },
    strict: false, // more than 1,000 enum values
  },
  {
    name: `long_${'x'.repeat(90)}`,
    description: 'An action name longer than OpenAI and Anthropic take',
    json_schema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    strict: true,
  },
];
