import { ValidateBy, ValidationOptions } from 'class-validator';

/** PostgreSQL text cannot hold U+0000; refusing it up front keeps a bad string a 400, not a 500. */
export function HasNoNulCharacter(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'hasNoNulCharacter',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || !value.includes('\u0000'),
        defaultMessage: () => 'must not contain NUL characters',
      },
    },
    options,
  );
}
