import { Button, Group, Paper, Stack, Textarea, TextInput } from '@mantine/core';
import { FormEvent, useCallback, useState } from 'react';
import type { Action } from '../api/types';
import { useSend } from '../api/use-send';
import { ErrorAlert } from './ErrorAlert';
import { SchemaEditor } from './SchemaEditor';

export interface ActionFields {
  name: string;
  description: string;
  webhook_url: string;
  json_schema: Record<string, unknown>;
}

const EXAMPLE_SCHEMA = { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] };
const NAME = /^[a-z0-9_]+$/;

/**
 * Register or edit an action. The name is fixed once registered (it is the action's address). When the service
 * refuses (the webhook's registration test failed, the name is taken, ...), its own error text is shown.
 */
export function ActionForm({ action, submitLabel, onSubmit, onCancel }: { action?: Action; submitLabel: string; onSubmit: (fields: ActionFields) => Promise<void>; onCancel: () => void }) {
  const [name, setName] = useState(action?.name ?? '');
  const [description, setDescription] = useState(action?.description ?? '');
  const [webhookUrl, setWebhookUrl] = useState(action?.webhook_url ?? '');
  const [schemaText, setSchemaText] = useState(JSON.stringify(action?.json_schema ?? EXAMPLE_SCHEMA, null, 2));
  const [schemaProblemCount, setSchemaProblemCount] = useState(0);
  // The schema text is read when sent, inside the attempt: text that is not JSON is an error shown, not thrown.
  const { send, busy, error } = useSend(() =>
    onSubmit({ name, description, webhook_url: webhookUrl, json_schema: JSON.parse(schemaText) as Record<string, unknown> }),
  );
  const onProblems = useCallback((count: number) => setSchemaProblemCount(count), []);

  const nameProblem = !action && name !== '' && !NAME.test(name) ? 'Lowercase letters, digits and underscores only' : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };

  return (
    <Paper withBorder p="lg" radius="md">
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Name"
            description="1 to 100 characters: lowercase letters, digits, underscores. It cannot change later."
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            disabled={!!action}
            required
            maxLength={100}
            error={nameProblem}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <Textarea
            label="Description"
            description="What the action does, for the people (and the model) choosing it. 1 to 500 characters."
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            required
            maxLength={500}
            autosize
            minRows={2}
          />
          <TextInput
            label="Webhook URL"
            description="Where the signed POST goes. It gets a test POST first, which must be answered 2xx."
            value={webhookUrl}
            onChange={(event) => setWebhookUrl(event.currentTarget.value)}
            required
            maxLength={2048}
            placeholder="https://hooks.example.com/weather"
            type="url"
          />
          <SchemaEditor value={schemaText} onChange={setSchemaText} onProblems={onProblems} />
          <ErrorAlert error={error} title="The service refused this action" />
          <Group justify="flex-end">
            {/* Leaving would not stop the registration test under way; the action is registered if it passes. */}
            <Button variant="default" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={schemaProblemCount > 0 || !!nameProblem}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
