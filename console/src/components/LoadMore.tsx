import { Button, Group, Text } from '@mantine/core';
import type { PagedItems } from '../api/use-paged-list';

/** Under a paged list: how many are shown, and a button for the next page while there is one. */
export function LoadMore({ list, what }: { list: PagedItems<unknown>; what: string }) {
  if (!list.hasMore) return null;
  return (
    <Group justify="center" gap="sm" data-testid="load-more">
      <Text size="sm" c="dimmed">
        {list.items?.length ?? 0} shown, more follow
      </Text>
      <Button variant="default" size="xs" loading={list.loadingMore} onClick={() => void list.loadMore()}>
        Load more {what}
      </Button>
    </Group>
  );
}
