import { Validator } from '@cfworker/json-schema';
import draft07 from 'ajv/dist/refs/json-schema-draft-07.json';
import applicator from 'ajv/dist/refs/json-schema-2020-12/meta/applicator.json';
import content from 'ajv/dist/refs/json-schema-2020-12/meta/content.json';
import core from 'ajv/dist/refs/json-schema-2020-12/meta/core.json';
import formatAnnotation from 'ajv/dist/refs/json-schema-2020-12/meta/format-annotation.json';
import metaData from 'ajv/dist/refs/json-schema-2020-12/meta/meta-data.json';
import unevaluated from 'ajv/dist/refs/json-schema-2020-12/meta/unevaluated.json';
import validation from 'ajv/dist/refs/json-schema-2020-12/meta/validation.json';
import draft2020 from 'ajv/dist/refs/json-schema-2020-12/schema.json';

export type Draft = '2020-12' | '7';

const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** The draft an action's schema is written in, as the service decides it: 2020-12 unless `$schema` says draft-07. */
export function draftOf(schema: Record<string, unknown>): Draft | undefined {
  const declared = schema.$schema;
  if (declared === undefined) return '2020-12';
  if (typeof declared !== 'string') return undefined;
  if (DRAFT_2020_12.test(declared)) return '2020-12';
  if (DRAFT_07.test(declared)) return '7';
  return undefined;
}

// The 2020-12 meta-schema extends itself through `$dynamicRef: "#meta"`; without extension vocabularies that always
// means the meta-schema itself, which is how it is given to the validator.
const DYNAMIC_META = /"\$dynamicRef":"#meta"/g;
const staticRefs = (schema: object) => JSON.parse(JSON.stringify(schema).replace(DYNAMIC_META, `"$ref":"${draft2020.$id}"`)) as Record<string, unknown>;

let metaValidators: Record<Draft, Validator> | undefined;

/**
 * Validators of schemas against their draft's meta-schema (Ajv's copies of them). @cfworker/json-schema interprets
 * schemas instead of generating code, so it runs under the console's Content-Security-Policy, which forbids eval.
 */
export function metaSchemaValidator(draft: Draft): Validator {
  if (!metaValidators) {
    const modern = new Validator(staticRefs(draft2020), '2020-12', false);
    for (const vocabulary of [core, applicator, unevaluated, validation, metaData, formatAnnotation, content]) modern.addSchema(staticRefs(vocabulary));
    metaValidators = { '2020-12': modern, '7': new Validator(draft07 as Record<string, unknown>, '7', false) };
  }
  return metaValidators[draft];
}
