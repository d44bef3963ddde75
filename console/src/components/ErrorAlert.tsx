import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ApiError } from '../api/client';

/** The service's own error text (and details), as the API gave it. */
export function ErrorAlert({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const apiError = error instanceof ApiError ? error : undefined;
  return (
    <Alert color="red" variant="light" title={title ?? apiError?.error ?? 'Something went wrong'} icon={<IconAlertTriangle aria-hidden />} role="alert">
      {title && apiError && <Text size="sm" fw={600}>{apiError.error}</Text>}
      {apiError?.details && <Text size="sm">{apiError.details}</Text>}
      {!apiError && <Text size="sm">{error instanceof Error ? error.message : String(error)}</Text>}
    </Alert>
  );
}
