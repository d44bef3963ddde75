import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ApiError } from '../api/client';
import { ErrorAlert } from './ErrorAlert';

/**
 * The summary below a form the service refused. Problems it tied to fields are shown under those fields; this
 * names them (a long form's first field may be out of sight) and gives in full whatever concerns no field.
 */
export function FormError({ error, title, named, rest }: { error: unknown; title: string; named: string[]; rest: string[] }) {
  if (!error) return null;
  if (!(error instanceof ApiError) || named.length === 0) return <ErrorAlert error={error} title={title} />;
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertTriangle aria-hidden />} role="alert" data-testid="form-error">
      <Text size="sm">
        {named.length === 1 ? `Check the field ${named[0]}` : `Check the fields ${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`}: the
        service&apos;s reason is written under {named.length === 1 ? 'it' : 'each'}.
      </Text>
      {rest.map((problem) => (
        <Text size="sm" key={problem}>
          {problem}
        </Text>
      ))}
    </Alert>
  );
}
