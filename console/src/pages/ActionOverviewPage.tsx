import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { CodeBlock } from '../components/CodeBlock';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconPlayerPlay } from '@tabler/icons-react';
import { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { del } from '../api/client';
import { ConfirmButton } from '../components/ConfirmButton';
import { Time } from '../components/Time';
import { Untrusted } from '../components/Untrusted';
import { useAction } from './tenant-context';

/** What an action is: webhook, schema (pretty-printed), dates; edit, try or delete it. */
export function ActionOverviewPage() {
  const { action, actionBase, base } = useAction();
  const navigate = useNavigate();

  return (
    <Stack>
      <Group justify="flex-end">
        <Button component={Link} to={`${actionBase}/try`} leftSection={<IconPlayerPlay size={16} aria-hidden />}>
          Try it
        </Button>
        <Button component={Link} to={`${actionBase}/edit`} variant="default" leftSection={<IconPencil size={16} aria-hidden />}>
          Edit
        </Button>
        <ConfirmButton
          size="sm"
          title={
            <>
              Delete <Untrusted>{action.name}</Untrusted>?
            </>
          }
          message="The action and its whole execution log are deleted. The platform can no longer run it."
          confirmLabel="Delete action"
          onConfirm={async () => {
            await del(actionBase);
            notifications.show({ color: 'teal', title: 'Action deleted', message: <Untrusted>{action.name}</Untrusted> });
            navigate(`${base}/actions`);
          }}
        >
          Delete
        </ConfirmButton>
      </Group>
      <Paper withBorder p="lg" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Field label="Webhook URL">
            <Text ff="monospace" size="sm">
              <Untrusted>{action.webhook_url}</Untrusted>
            </Text>
          </Field>
          <Field label="Created">
            <Time value={action.created_at} />
          </Field>
          <Field label="Updated">
            <Time value={action.updated_at} />
          </Field>
        </SimpleGrid>
      </Paper>
      <Stack gap="xs">
        <Title order={3}>JSON Schema of the parameters</Title>
        <CodeBlock aria-label="JSON Schema of the parameters" data-testid="action-schema">
          {JSON.stringify(action.json_schema, null, 2)}
        </CodeBlock>
      </Stack>
    </Stack>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}
