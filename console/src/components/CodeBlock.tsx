import { Code, CodeProps } from '@mantine/core';
import { ReactNode } from 'react';
import classes from './CodeBlock.module.css';

/**
 * A block of code that may scroll, so it takes the keyboard focus (a scrollable region must). Code the console
 * writes keeps its lines and scrolls sideways; `wrap` is for text from elsewhere, which wraps and scrolls down.
 */
export function CodeBlock({ children, wrap, ...props }: CodeProps & { children: ReactNode; wrap?: boolean; 'aria-label'?: string; 'data-testid'?: string }) {
  return (
    <Code block tabIndex={0} className={wrap ? classes.wrap : undefined} {...props}>
      {children}
    </Code>
  );
}
