import { Button, Group, Paper, Stack, Textarea, TextInput } from '@mantine/core';
import { FormEvent, useCallback, useState } from 'react';
import { useFieldErrors } from '../api/field-errors';
import type { Action } from '../api/types';
import { useSend } from '../api/use-send';
import { FormError } from './FormError';
import { SchemaEditor } from './SchemaEditor';

export interface ActionFields {
  name: string;
  description: string;
  webhook_url: string;
  json_schema: Record<string, unknown>;
}

const EXAMPLE_SCHEMA = { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] };
const NAME = /^[a-z0-9_]+$/;
const FIELDS = ['name', 'description', 'webhook_url', 'json_schema'] as const;
const LABELS: Record<(typeof FIELDS)[number], string> = { name: 'Name', description: 'Description', webhook_url: 'Webhook URL', json_schema: 'JSON Schema' };

/**
 * Register or edit an action. The name is fixed once registered (it is the action's address). When the service
 * refuses (the webhook's registration test failed, the name is taken, ...), its own words are shown under the
 * field they concern, and a summary below the form names those fields.
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
  const refused = useFieldErrors(error, FIELDS);

  const nameProblem = !action && name !== '' && !NAME.test(name) ? 'Lowercase letters, digits and underscores only' : undefined;
  const changeSchema = (value: string) => {
    refused.edit('json_schema');
    setSchemaText(value);
  };

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
            {...refused.input('name', name, setName)}
            disabled={!!action}
            required
            maxLength={100}
            error={nameProblem ?? refused.fieldError('name')}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <Textarea
            label="Description"
            description="What the action does, for the people (and the model) choosing it. 1 to 500 characters."
            {...refused.input('description', description, setDescription)}
            required
            maxLength={500}
            autosize
            minRows={2}
          />
          <TextInput
            label="Webhook URL"
            description="Where the signed POST goes. It gets a test POST first, which must be answered 2xx."
            {...refused.input('webhook_url', webhookUrl, setWebhookUrl)}
            required
            maxLength={2048}
            placeholder="https://hooks.example.com/weather"
            type="url"
          />
          <SchemaEditor value={schemaText} onChange={changeSchema} onProblems={onProblems} error={refused.fieldError('json_schema')} />
          <FormError error={error} title="The service refused this action" named={refused.named.map((field) => LABELS[field])} rest={refused.rest} />
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
