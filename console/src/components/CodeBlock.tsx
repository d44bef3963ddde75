import { Code, CodeProps } from '@mantine/core';
import { ReactNode } from 'react';

/** A block of code that may scroll sideways, so it takes the keyboard focus (a scrollable region must). */
export function CodeBlock({ children, ...props }: CodeProps & { children: ReactNode; 'aria-label'?: string; 'data-testid'?: string }) {
  return (
    <Code block tabIndex={0} {...props}>
      {children}
    </Code>
  );
}
