import { Alert, Anchor, Badge, Code, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import Form from '@rjsf/mantine';
import type { RJSFSchema } from '@rjsf/utils';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { post } from '../api/client';
import type { Execution } from '../api/types';
import { useSend } from '../api/use-send';
import { CodeBlock } from '../components/CodeBlock';
import { ErrorAlert } from '../components/ErrorAlert';
import { formatDuration } from '../components/format';
import { FormValidator } from '../json-schema/form-validator';
import { draftOf } from '../json-schema/meta-schemas';
import { PageTitle } from '../components/PageTitle';
import { StatusBadge } from '../components/StatusBadge';
import { Untrusted } from '../components/Untrusted';
import { useAction } from './tenant-context';


/**
 * "Try it": a form generated from the action's own JSON Schema (rjsf, checked by the same JSON Schema rules as on the service),
 * run through the real execute path: a signed POST to the webhook, retries included, stored in the log.
 */
export default function TryActionPage() {
  const { action, actionBase } = useAction();
  const [parameters, setParameters] = useState<Record<string, unknown>>({});
  const [execution, setExecution] = useState<Execution>();
  const validator = useMemo(() => new FormValidator(draftOf(action.json_schema) ?? '2020-12'), [action]);

  const { send: run, busy, error } = useSend(async (formData: Record<string, unknown>) => {
    setExecution(undefined);
    setExecution((await post<{ execution: Execution }>(`${actionBase}/execute`, { parameters: formData })).execution);
  });

  return (
    <Stack>
      <PageTitle order={3} title="Try it" description="The form comes from the action's JSON Schema. Running it sends a real, signed call to the webhook and counts against the tenant's rate limit." />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper withBorder p="lg" radius="md" data-testid="try-form">
          <Form
            schema={action.json_schema as RJSFSchema}
            validator={validator}
            formData={parameters}
            onChange={(event) => setParameters((event.formData ?? {}) as Record<string, unknown>)}
            onSubmit={(event) => void run((event.formData ?? {}) as Record<string, unknown>)}
            onError={() => undefined /* the errors are shown on their fields */}
            showErrorList={false}
            noHtml5Validate
            disabled={busy}
            uiSchema={{ 'ui:submitButtonOptions': { submitText: busy ? 'Running…' : 'Run action', props: { disabled: busy } } }}
          />
        </Paper>
        <Stack>
          <Stack gap={4}>
            <Text fw={600} size="sm">
              Request body
            </Text>
            <CodeBlock data-testid="try-request">
              {JSON.stringify({ parameters }, null, 2)}
            </CodeBlock>
          </Stack>
          <ErrorAlert error={error} title="The service did not run the action" />
          {execution && <Outcome execution={execution} logPath={`${actionBase}/executions`} />}
          {!execution && !error && (
            <Alert variant="outline" color="gray" icon={<IconInfoCircle aria-hidden />}>
              Fill in the parameters and run the action: its outcome shows here, and in the execution log.
            </Alert>
          )}
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

function Outcome({ execution, logPath }: { execution: Execution; logPath: string }) {
  return (
    <Paper withBorder p="lg" radius="md" data-testid="try-outcome" aria-live="polite">
      <Stack gap="sm">
        <Group gap="sm">
          <Title order={4}>Outcome</Title>
          <StatusBadge status={execution.status} />
        </Group>
        <Group gap="xl">
          <Text size="sm">
            HTTP status <Badge variant="outline" color="dark" radius="sm">{execution.http_status ?? 'none'}</Badge>
          </Text>
          <Text size="sm">Duration {formatDuration(execution.duration_ms)}</Text>
          <Text size="sm">
            {execution.attempts} {execution.attempts === 1 ? 'attempt' : 'attempts'}
          </Text>
        </Group>
        {execution.result !== null && (
          <Stack gap={2}>
            <Text size="sm" fw={600}>
              Result
            </Text>
            <CodeBlock wrap aria-label="Result">
              <Untrusted>{execution.result}</Untrusted>
            </CodeBlock>
          </Stack>
        )}
        {execution.error && (
          <Alert color="red" variant="outline" title="Error">
            <Untrusted>{execution.error}</Untrusted>
          </Alert>
        )}
        <Text size="sm">
          Execution <Code>{execution.id}</Code> ·{' '}
          <Anchor component={Link} to={logPath}>
            see it in the execution log
          </Anchor>
        </Text>
      </Stack>
    </Paper>
  );
}
