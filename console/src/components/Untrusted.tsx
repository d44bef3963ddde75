import { ReactNode } from 'react';
import classes from './Untrusted.module.css';

/** Text from tenants or receivers: wraps inside its container, and its bidi controls cannot reach the text around it. */
export function Untrusted({ children }: { children: ReactNode }) {
  return <bdi className={classes.untrusted}>{children}</bdi>;
}
