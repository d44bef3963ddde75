import { ChangeEvent, useState } from 'react';
import { ApiError } from './client';

/** A refusal of the service, split between the fields of a form and what concerns none of them. */
export interface SplitError<F extends string> {
  /** Each field's problems, in the service's words without the field's name (`must be at most 500 characters`). */
  fields: Partial<Record<F, string>>;
  /** Problems that name no field of the form (`body: must be a JSON object`), as the service wrote them. */
  rest: string[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Splits the service's answer by the field it concerns. A validation 400 names its fields in `details`
 * (`<field>: <problem>; <field>: <problem>`, CONTRACT.md; a nested one as `json_schema.properties.city: …`); two
 * refusals name theirs only in the error text: the registration test (`action validation failed: …`, the webhook
 * URL) and a taken name (`action with name '…' already exists`). Anything else concerns the whole request.
 */
export function splitError<F extends string>(error: unknown, fields: readonly F[]): SplitError<F> {
  const split: SplitError<F> = { fields: {}, rest: [] };
  if (!(error instanceof ApiError)) return split;
  const add = (field: F, problem: string) => {
    split.fields[field] = split.fields[field] ? `${split.fields[field]}; ${problem}` : problem;
  };
  const has = (field: string): field is F => (fields as readonly string[]).includes(field);

  if (has('webhook_url') && error.error.startsWith('action validation failed: ')) add('webhook_url' as F, error.error);
  else if (has('name') && error.status === 409 && /^action with name '.*' already exists$/s.test(error.error)) add('name' as F, 'an action with this name already exists');
  else if (error.status === 400 && error.details && fields.length > 0) {
    // A part starts with a field's name, maybe a path into it, then `: `; the text of a part may hold `; ` itself.
    const names = fields.map(escape).join('|');
    const parts = error.details.split(/; (?=[A-Za-z_$][\w$]*(?:[.[/][^:;]*)?: )/);
    for (const part of parts) {
      const match = new RegExp(`^(${names})(?:: |([.[/ ][^:]*): )([\\s\\S]*)$`).exec(part);
      if (match) add(match[1] as F, match[2] ? `${match[2].replace(/^\./, '')}: ${match[3]}` : match[3]);
      else split.rest.push(part);
    }
  }
  return split;
}

/**
 * What a form shows of the last refusal: the problem under each field it concerns (gone once that field is
 * edited: it may no longer hold), and whether anything is left for a summary below the form.
 */
export function useFieldErrors<F extends string>(error: unknown, fields: readonly F[]) {
  // The refusal each field was edited after: its message is no longer shown.
  const [edited, setEdited] = useState<Partial<Record<F, unknown>>>({});
  const split = splitError(error, fields);
  const fieldError = (field: F): string | undefined => (edited[field] === error ? undefined : split.fields[field]);
  const edit = (field: F) => setEdited((previous) => (previous[field] === error ? previous : { ...previous, [field]: error }));
  return {
    /** The problem to show under `field`, if any. */
    fieldError,
    /** Call when `field` changes. */
    edit,
    /** A text input's value, change handler and error for `field`, whose state is `value` and `set`. */
    input: (field: F, value: string, set: (value: string) => void) => ({
      value,
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
        edit(field);
        set(event.currentTarget.value);
      },
      error: fieldError(field),
    }),
    /** The fields the refusal named, in the form's order. */
    named: fields.filter((field) => split.fields[field] !== undefined),
    /** Problems that concern no field of the form. */
    rest: split.rest,
  };
}
