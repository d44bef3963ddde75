import { Group, Stack, Text, Title } from '@mantine/core';
import { ReactNode } from 'react';

/** A page's heading, what it is for, and its buttons (below the heading on a narrow screen, rather than squeezing it). */
export function PageTitle({ title, description, children, order = 2 }: { title: ReactNode; description?: ReactNode; children?: ReactNode; order?: 1 | 2 | 3 }) {
  return (
    <Group justify="space-between" align="flex-start" mb="md">
      <Stack gap={4}>
        <Title order={order}>{title}</Title>
        {description && (
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        )}
      </Stack>
      {children && <Group gap="sm">{children}</Group>}
    </Group>
  );
}
