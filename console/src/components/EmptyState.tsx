import { Paper, Stack, ThemeIcon, Title } from '@mantine/core';
import { ReactNode } from 'react';

/** What an empty list means and what to do next. */
export function EmptyState({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="xl" radius="md" data-testid="empty-state">
      <Stack align="center" gap="sm" maw={720} mx="auto">
        <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
          {icon}
        </ThemeIcon>
        <Title order={3}>{title}</Title>
        {children}
      </Stack>
    </Paper>
  );
}
