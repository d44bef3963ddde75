import { ActionIcon, Anchor, AppShell, Badge, Button, Center, Container, Group, Loader, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconLogout } from '@tabler/icons-react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { useSend } from './api/use-send';
import { BackToPlatform, branding, BrandMark, platformName } from './branding';
import { useSession } from './session';
import { ErrorAlert } from './components/ErrorAlert';
import { Logo } from './components/Logo';

/** Every signed-in page: the header (who is signed in, sign out) and the page below it. */
export function Layout() {
  const { state, signOut, check } = useSession();
  const location = useLocation();
  const leave = useSend(signOut);

  if (state.status === 'loading') {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (state.status === 'unavailable') {
    return (
      <Center mih="100vh" p="md" component="main">
        <Stack maw={520}>
          <ErrorAlert error={state.error} title="The console cannot reach the service" />
          <Text size="sm">You may still be signed in: nothing was changed. Try again in a moment.</Text>
          <div>
            <Button onClick={check}>Try again</Button>
          </div>
        </Stack>
      </Center>
    );
  }
  if (state.status === 'signed-out') return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;

  const { session } = state;
  const home = session.kind === 'operator' ? '/tenants' : `/tenants/${session.tenant_id}`;
  return (
    <AppShell header={{ height: 60 }} padding="md">
      <AppShell.Header>
        <Container size="xl" h="100%">
          {/* The bar has a fixed height: on a phone its words give way (the logo keeps the link) rather than wrap onto the page. */}
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Anchor component={Link} to={home} underline="never" c="inherit" aria-label="Gateway Management: home">
              <Group gap="xs" wrap="nowrap">
                {/* A tenant's developers see their platform's logo and name (PORTAL_*), operators the gateway's. */}
                {session.kind === 'tenant' ? (
                  <BrandMark nameVisibleFrom="xs" />
                ) : (
                  <>
                    <Logo />
                    <Text fw={700} visibleFrom="xs">
                      Action Gateway
                    </Text>
                  </>
                )}
                <Text c="dimmed" visibleFrom="sm">
                  Gateway Management
                </Text>
              </Group>
            </Anchor>
            <Group gap="sm" wrap="nowrap">
              {session.kind === 'tenant' && branding().returnUrl && (
                <>
                  <Group visibleFrom="md">
                    <BackToPlatform />
                  </Group>
                  <ActionIcon component="a" href={branding().returnUrl} hiddenFrom="md" variant="default" size="lg" aria-label={`Back to ${platformName()}`}>
                    <IconArrowLeft size={18} aria-hidden />
                  </ActionIcon>
                </>
              )}
              {/* On a phone a portal's header holds the platform's logo and the way back: the badge gives way. */}
              <Badge variant="outline" color={session.kind === 'operator' ? 'blue' : 'gray'} radius="sm" size="lg" visibleFrom={session.kind === 'tenant' ? 'sm' : undefined}>
                {session.kind === 'operator' ? 'Operator' : 'Tenant portal'}
              </Badge>
              <Button variant="default" size="sm" leftSection={<IconLogout size={16} aria-hidden />} onClick={() => void leave.send()} loading={leave.busy}>
                Sign out
              </Button>
            </Group>
          </Group>
        </Container>
      </AppShell.Header>
      <AppShell.Main>
        <Container size="xl" pt="sm">
          {leave.error !== undefined && <ErrorAlert error={leave.error} title="You are still signed in: signing out failed. Try again." />}
          <Outlet />
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
