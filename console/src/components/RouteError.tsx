import { Button, Stack, Text } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorAlert } from './ErrorAlert';

/**
 * What a page that failed to render shows instead, inside the layout around it (the header and Sign out stay):
 * a schema the form generator cannot draw, or a part of the console that a newer deployment replaced.
 */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : String(error);
  return (
    <Stack maw={720} py="md">
      <ErrorAlert error={new Error(message)} title="This page could not be shown" />
      <Text size="sm">If the service was updated since this page was opened, reloading it may help.</Text>
      <div>
        <Button variant="default" onClick={() => window.location.reload()}>
          Reload the page
        </Button>
      </div>
    </Stack>
  );
}
