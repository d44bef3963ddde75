import { Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
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

  useEffect(() => {
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
    if (!token) return;
    let redemption = redemptions.get(token);
    if (!redemption) {
      redemption = redeemPortalLink(token);
      redemptions.set(token, redemption);
    }
    redemption.then((session) => navigate(`/tenants/${session.tenant_id}`, { replace: true })).catch(setError);
  }, [token, navigate, redeemPortalLink]);

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w={520}>
        <Stack>
          <Title order={1} size="h2">
            Opening your tenant portal
          </Title>
          {error || !token ? (
            <>
              <ErrorAlert error={error ?? new Error('This address has no portal link token.')} title="This portal link cannot be used" />
              <Text size="sm">Portal links work once and only for a few minutes. Ask your platform for a new one.</Text>
            </>
          ) : (
            <Loader aria-label="Signing in" />
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
