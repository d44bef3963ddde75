import { ValidateBy, ValidationOptions } from 'class-validator';

// A lone UTF-16 surrogate: with the u flag, paired surrogates are one code point and never match.
const LONE_SURROGATE = /\p{Surrogate}/u;

/** Whether PostgreSQL stores `value` exactly as sent (see IsStorableText). */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/**
 * Text that PostgreSQL stores exactly as sent: no U+0000 (text cannot hold it) and no lone surrogate (it would
 * come back as U+FFFD). Refusing both up front keeps a bad string a 400, and what is read back what was written.
 */
export function IsStorableText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStorableText',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || isStorableText(value),
        defaultMessage: () => 'must not contain NUL characters or unpaired surrogates',
      },
    },
    options,
  );
}

/**
 * Length in Unicode code points, which is what a PostgreSQL varchar(n) counts. (class-validator's Length leaves
 * out variation selectors, so a string it allows can still overflow the column.)
 */
export function CodePointLength(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'codePointLength',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return true;
          let length = 0;
          for (let i = 0; i < value.length; i++) {
            const code = value.charCodeAt(i);
            // A high surrogate followed by a low one is one code point.
            if (code >= 0xd800 && code <= 0xdbff && i + 1 < value.length) {
              const next = value.charCodeAt(i + 1);
              if (next >= 0xdc00 && next <= 0xdfff) i++;
            }
            if (++length > max) return false;
          }
          return length >= min;
        },
        defaultMessage: () => `must be ${min} to ${max} characters`,
      },
    },
    options,
  );
}

/**
 * Not only white space (JavaScript's `trim`: spaces, tabs, line breaks, no-break and other Unicode spaces). An
 * empty string is left to the length check, so it gets one message. Other invisible characters (a zero-width
 * space) are not looked for.
 */
export function IsNotBlank(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isNotBlank',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || value === '' || value.trim() !== '',
        defaultMessage: () => 'must not be blank',
      },
    },
    options,
  );
}
