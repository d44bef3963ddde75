import type { RJSFSchema } from '@rjsf/utils';
import { FormValidator } from './form-validator';

const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, units: { type: 'string', enum: ['metric', 'imperial'] }, days: { type: 'integer', minimum: 1 } },
  required: ['city'],
} as RJSFSchema;

describe('FormValidator (rjsf over @cfworker/json-schema, no eval)', () => {
  const validator = new FormValidator('2020-12');

  it('passes valid data', () => {
    expect(validator.validateFormData({ city: 'Oslo', units: 'metric', days: 2 }, schema)).toEqual({ errors: [], errorSchema: {} });
  });

  it('puts each problem on its field, in Ajv\'s words', () => {
    const { errors, errorSchema } = validator.validateFormData({ units: 'kelvin', days: 0 }, schema);
    expect(errorSchema).toEqual({
      city: { __errors: ["must have required property 'city'"] },
      units: { __errors: ['must be one of "metric", "imperial"'] },
      days: { __errors: [expect.stringMatching(/minimum|1/)] },
    });
    expect(errors.map((error) => error.property).sort()).toEqual(['.city', '.days', '.units']);
  });

  it('answers isValid for a part of the schema whose references point into the root', () => {
    const root = { $defs: { unit: { enum: ['c', 'f'] } }, type: 'object', properties: { u: { $ref: '#/$defs/unit' } } } as RJSFSchema;
    expect(validator.isValid({ $ref: '#/$defs/unit' }, 'c' as never, root)).toBe(true);
    expect(validator.isValid({ $ref: '#/$defs/unit' }, 'k' as never, root)).toBe(false);
  });

  it('reports a schema it cannot use instead of throwing', () => {
    const { errors } = validator.validateFormData({}, { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } });
    expect(Array.isArray(errors)).toBe(true);
  });
});
