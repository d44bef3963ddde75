import { Anchor, AppShell, Badge, Button, Center, Container, Group, Loader, Text } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from './session';
import { Logo } from './components/Logo';

/** Every signed-in page: the header (who is signed in, sign out) and the page below it. */
export function Layout() {
  const { state, signOut } = useSession();
  const location = useLocation();

  if (state.status === 'loading') {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
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
          <Group h="100%" justify="space-between">
            <Anchor component={Link} to={home} underline="never" c="inherit" aria-label="Gateway Management: home">
              <Group gap="xs">
                <Logo />
                <Text fw={700}>Action Gateway</Text>
                <Text c="dimmed">Gateway Management</Text>
              </Group>
            </Anchor>
            <Group gap="sm">
              <Badge variant="outline" color={session.kind === 'operator' ? 'blue' : 'gray'} radius="sm" size="lg">
                {session.kind === 'operator' ? 'Operator' : 'Tenant portal'}
              </Badge>
              <Button variant="default" size="sm" leftSection={<IconLogout size={16} aria-hidden />} onClick={() => void signOut()}>
                Sign out
              </Button>
            </Group>
          </Group>
        </Container>
      </AppShell.Header>
      <AppShell.Main>
        <Container size="xl" pt="sm">
          <Outlet />
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
