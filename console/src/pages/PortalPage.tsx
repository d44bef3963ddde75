import { Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { ReactNode, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, ApiError } from '../api/client';
import type { PortalLinkPreview, Session } from '../api/types';
import { BackToPlatform, BrandMark, platformName } from '../branding';
import { ErrorAlert } from '../components/ErrorAlert';
import { Untrusted } from '../components/Untrusted';
import { useSession } from '../session';

// One redemption per token, attempt and page load, even if React runs the effect twice.
const redemptions = new Map<string, Promise<Session>>();

/** The service's answer when the browser holds another session: the link is still unused, and we ask first. */
const SESSION_HELD = 409;

/**
 * Where a portal link lands (`/console/portal#token=agwp_…`). The token is in the fragment, which the browser
 * never sends to a server; the page removes it from the address bar and from history at once, then redeems it
 * (POST, once) for a session cookie and moves on to the tenant.
 *
 * In a browser that already holds a session (an operator's, or another tenant's portal) the service refuses to
 * redeem unasked (409, the link unused): the page then names both and asks. Confirming redeems with
 * `replace_session`; cancelling goes back to the session held, and the link is never used (login CSRF).
 *
 * The service replaces a session only with its CSRF token, which this page has once the start-up check of the
 * session has answered (the API client sends it on every POST): so the link is redeemed after that check, never
 * beside it.
 */
export function PortalPage() {
  const { state, redeemPortalLink } = useSession();
  const checked = state.status !== 'loading';
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>();
  const [held, setHeld] = useState<PortalLinkPreview>();
  // Read once: the address loses its fragment right after.
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token'));
  // Another attempt: after a failure that left the link unused, or with the person's consent to replace a session.
  const [attempt, setAttempt] = useState<{ count: number; replace: boolean }>({ count: 0, replace: false });

  useEffect(() => {
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
    if (!token || !checked) return;
    const key = `${attempt.count}:${attempt.replace}:${token}`;
    let redemption = redemptions.get(key);
    if (!redemption) {
      redemption = redeemPortalLink(token, attempt.replace);
      redemptions.set(key, redemption);
    }
    let current = true;
    redemption
      .then((session) => navigate(`/tenants/${session.tenant_id}`, { replace: true }))
      .catch(async (caught: unknown) => {
        if (!(caught instanceof ApiError && caught.status === SESSION_HELD)) return current && setError(caught);
        // Whose portal the link opens and which session it would end, to ask about both by name.
        try {
          const preview = await api<PortalLinkPreview>('POST', '/portal-links/inspect', { token }, { signingIn: true });
          if (current) setHeld(preview);
        } catch (inspecting) {
          if (current) setError(inspecting);
        }
      });
    return () => {
      current = false;
    };
  }, [token, attempt, navigate, redeemPortalLink, checked]);

  if (held && !error) {
    const tenant = <Untrusted>{held.portal_link.tenant_name}</Untrusted>;
    const current = held.current_session;
    return (
      <Card title="You are already signed in">
        <Text data-testid="replace-session-question">
          {current?.kind === 'tenant' ? (
            <>
              You are signed in to the portal of tenant <Untrusted>{current.tenant_name}</Untrusted>.
            </>
          ) : (
            'You are signed in as the operator.'
          )}{' '}
          Open the portal of tenant {tenant} instead?{' '}
          {current?.kind === 'tenant' ? 'Your session in the other portal will end.' : 'Your operator session will end.'}
        </Text>
        <Text size="sm" c="dimmed">
          Open it only if you asked for this link yourself. Someone else&apos;s link would sign you in to their tenant.
        </Text>
        {/* The names are in the question: buttons of a fixed length stay on one line whatever a tenant is called. */}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => navigate('/', { replace: true })}>
            {current?.kind === 'tenant' ? 'Stay in the current portal' : 'Keep the operator session'}
          </Button>
          <Button
            onClick={() => {
              setHeld(undefined);
              setAttempt((previous) => ({ count: previous.count + 1, replace: true }));
            }}
          >
            Open that portal
          </Button>
        </Group>
      </Card>
    );
  }

  if (!token) {
    return (
      <Card title="This address holds no portal link">
        <Text size="sm">A portal link ends in <code>#token=…</code>. Open the link {platformName()} gave you, whole.</Text>
        <BackToPlatform variant="filled" />
      </Card>
    );
  }

  if (error === undefined) {
    return (
      <Card title="Opening your tenant portal">
        <Loader aria-label="Signing in" />
      </Card>
    );
  }

  // 401: used, expired, unknown or its tenant disabled; one answer, so the page cannot tell which.
  if (error instanceof ApiError && error.status === 401) {
    return (
      <Card title="This portal link cannot be used">
        <Text size="sm" data-testid="portal-link-unusable">
          It has been used already or has expired: a portal link opens the portal once, within a few minutes of being made. Go back to{' '}
          {platformName()} and open its page for custom actions again: it makes a new link each time.
        </Text>
        <BackToPlatform variant="filled" />
      </Card>
    );
  }

  // Anything else (the service unreachable, busy or rate-limiting) left the link unused.
  return (
    <Card title="The portal could not be opened">
      <ErrorAlert error={error} />
      <Text size="sm">The link has not been used yet: try again in a moment.</Text>
      <div>
        <Button
          onClick={() => {
            setError(undefined);
            setAttempt((previous) => ({ count: previous.count + 1, replace: previous.replace }));
          }}
        >
          Try again
        </Button>
      </div>
    </Card>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w={520} maw="100%">
        <Stack>
          <BrandMark size={32} />
          <Title order={1} size="h2">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
