import { Alert, Button, CopyButton, Group, Stack, Text } from '@mantine/core';
import { CodeBlock } from './CodeBlock';
import { IconCheck, IconCopy, IconLock } from '@tabler/icons-react';
import { ReactNode } from 'react';

/** A secret the service shows once: copy it now, it is never shown again. */
export function SecretOnce({ label, value, onDone, children }: { label: string; value: string; onDone: () => void; children?: ReactNode }) {
  return (
    <Alert color="blue" variant="outline" icon={<IconLock aria-hidden />} title={`Your new ${label}`} data-testid="secret-once">
      <Stack gap="sm">
        <Text size="sm" fw={600}>
          Copy it now: you won&apos;t see it again. The service keeps only {label === 'HMAC key' ? 'an encrypted copy' : 'a hash'} of it.
        </Text>
        <CodeBlock data-testid="secret-value" aria-label={label}>
          {value}
        </CodeBlock>
        <Group>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />} onClick={copy} variant={copied ? 'filled' : 'outline'}>
                {copied ? 'Copied' : `Copy ${label}`}
              </Button>
            )}
          </CopyButton>
          <Button variant="subtle" onClick={onDone}>
            I have stored it
          </Button>
        </Group>
        {children}
      </Stack>
    </Alert>
  );
}
