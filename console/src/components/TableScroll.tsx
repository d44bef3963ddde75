import { Table } from '@mantine/core';
import { ReactNode } from 'react';

/**
 * A table that scrolls sideways inside its card when the screen is narrower than `minWidth` (a phone), instead of
 * the page. Positioned, so that a visually hidden header (absolutely placed) is clipped with the table rather than
 * widening the page.
 */
export function TableScroll({ minWidth, children }: { minWidth: number; children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native" pos="relative">
      {children}
    </Table.ScrollContainer>
  );
}
