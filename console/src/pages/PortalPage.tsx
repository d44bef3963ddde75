import { Button, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../api/client';
import type { Session } from '../api/types';
import { ErrorAlert } from '../components/ErrorAlert';
import { useSession } from '../session';

// One redemption per token and page load, even if React runs the effect twice.
const redemptions = new Map<string, Promise<Session>>();

/**
 * Where a portal link lands (`/console/portal#token=agwp_…`). The token is in the fragment, which the browser
 * never sends to a server; the page removes it from the address bar and from history at once, then redeems it
 * (POST, once) for a session cookie and moves on to the tenant.
 */
export function PortalPage() {
  const { redeemPortalLink } = useSession();
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>();
  // Read once: the address loses its fragment right after.
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token'));
  // Another attempt after a failure that left the link unused (the service unreachable, busy or rate-limiting).
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
    if (!token) return;
    const key = `${attempt}:${token}`;
    let redemption = redemptions.get(key);
    if (!redemption) {
      redemption = redeemPortalLink(token);
      redemptions.set(key, redemption);
    }
    redemption.then((session) => navigate(`/tenants/${session.tenant_id}`, { replace: true })).catch(setError);
  }, [token, attempt, navigate, redeemPortalLink]);

  // 401: used, expired, unknown or its tenant disabled. Anything else did not use the link up.
  const unused = token && error !== undefined && !(error instanceof ApiError && error.status === 401);

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w={520}>
        <Stack>
          <Title order={1} size="h2">
            Opening your tenant portal
          </Title>
          {error || !token ? (
            <>
              <ErrorAlert error={error ?? new Error('This address has no portal link token.')} title={unused ? 'The portal could not be opened' : 'This portal link cannot be used'} />
              {unused ? (
                <>
                  <Text size="sm">The link has not been used yet: try again in a moment.</Text>
                  <div>
                    <Button
                      onClick={() => {
                        setError(undefined);
                        setAttempt((previous) => previous + 1);
                      }}
                    >
                      Try again
                    </Button>
                  </div>
                </>
              ) : (
                <Text size="sm">Portal links work once and only for a few minutes. Ask your platform for a new one.</Text>
              )}
            </>
          ) : (
            <Loader aria-label="Signing in" />
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
