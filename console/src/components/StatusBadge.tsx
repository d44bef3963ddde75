import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = {
  active: 'teal',
  succeeded: 'teal',
  primary: 'blue',
  failed: 'red',
  pending: 'yellow',
  running: 'blue',
  revoked: 'gray',
  expired: 'gray',
  disabled: 'gray',
};

/** A status word as a badge; the word itself carries the meaning, the colour only helps. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="filled" radius="sm">
      {status}
    </Badge>
  );
}
