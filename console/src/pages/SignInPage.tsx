import { Alert, Button, Center, Code, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { FormEvent, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSend } from '../api/use-send';
import { ErrorAlert } from '../components/ErrorAlert';
import { Logo } from '../components/Logo';
import { BackToPlatform, BrandMark, platformName } from '../branding';
import { pageSettings } from '../page-settings';
import { useSession } from '../session';

/** Operators sign in with the ADMIN_API_KEY; the service turns it into a session cookie. */
export function SignInPage() {
  const { state, signIn } = useSession();
  const location = useLocation();
  const [key, setKey] = useState('');
  const { send, busy, error } = useSend(signIn);
  const [operatorForm, setOperatorForm] = useState(false);
  const { adminKey } = pageSettings();

  // Back to the page that sent here once signed in (rendered, not navigated to from submit: the two would race).
  const from = (location.state as { from?: string } | null)?.from;
  if (state.status === 'signed-in') return <Navigate to={from && from !== '/sign-in' ? from : '/'} replace />;
  const ended = state.status === 'signed-out' ? state.ended : undefined;
  const wasTenant = state.status === 'signed-out' && state.wasTenant;
  // The page a portal session ends on, until an operator asks for the sign-in form.
  const portal = wasTenant && !operatorForm;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send(key);
  };

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w={460}>
        <form onSubmit={submit}>
          <Stack>
            {wasTenant ? (
              <BrandMark size={32} />
            ) : (
              <Group gap="xs">
                <Logo size={32} />
                <Text fw={700}>Action Gateway</Text>
              </Group>
            )}
            {/* A tenant's developer who left the portal is told so, once, and is not asked for the operators' key. */}
            {portal ? (
              <>
                <Title order={1} size="h2">
                  {ended === 'signed-out' ? 'You have signed out of the portal' : 'Your portal session has ended'}
                </Title>
                <Text role="status" data-testid="portal-ended">
                  {ended === 'signed-out' ? `To come back, open a new portal link from ${platformName()}.` : `Open a new portal link from ${platformName()} to go on.`}
                </Text>
              </>
            ) : (
              <Title order={1} size="h2">
                Sign in to Gateway Management
              </Title>
            )}
            {!portal && ended === 'expired' && (
              <Alert color="yellow" variant="outline" icon={<IconInfoCircle aria-hidden />} role="status">
                {wasTenant ? `Your portal session has ended. Open a new portal link from ${platformName()}.` : 'Your session has ended. Sign in again.'}
              </Alert>
            )}
            {!portal && ended === 'signed-out' && (
              <Alert color="blue" variant="outline" icon={<IconInfoCircle aria-hidden />} role="status">
                {wasTenant ? `You have signed out. Open a new portal link from ${platformName()} to come back.` : 'You have signed out.'}
              </Alert>
            )}
            {wasTenant && !operatorForm ? (
              <>
                <BackToPlatform variant="filled" />
                <Button variant="subtle" onClick={() => setOperatorForm(true)}>
                  An operator? Sign in with the admin API key
                </Button>
              </>
            ) : (
              <>
                <PasswordInput
                  label="Admin API key"
                  description="The service's ADMIN_API_KEY. It is exchanged for a session cookie and never kept in this browser."
                  value={key}
                  onChange={(event) => setKey(event.currentTarget.value)}
                  required
                  autoComplete="current-password"
                  autoFocus
                />
                <ErrorAlert error={error} />
                {adminKey && (
                  <Text size="sm" data-testid="admin-key-location">
                    This service runs outside production: its key is{' '}
                    {'file' in adminKey ? (
                      <>
                        <Code>ADMIN_API_KEY</Code> in <Code>{adminKey.file}</Code>, on the machine it runs on.
                      </>
                    ) : (
                      <>
                        the <Code>ADMIN_API_KEY</Code> set in its environment.
                      </>
                    )}
                  </Text>
                )}
                <Button type="submit" loading={busy} fullWidth>
                  Sign in
                </Button>
                <Text size="sm" c="dimmed">
                  A tenant&apos;s developer? Open the portal link your platform gave you instead.
                </Text>
              </>
            )}
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
