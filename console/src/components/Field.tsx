import { Stack, Text } from '@mantine/core';
import { ReactNode } from 'react';

/** A labelled value in a summary card (an action's webhook and dates, an execution's status and timing). */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}
