import { useState } from 'react';

export interface Sending<A extends unknown[]> {
  /** Runs the change; never rejects: a failure is kept in `error` for the page to show. */
  send: (...args: A) => Promise<void>;
  /** While the change is on its way (buttons show it and take no second click). */
  busy: boolean;
  /** Why the last attempt failed (the service's ApiError, usually), until the next one starts. */
  error: unknown;
  clearError: () => void;
}

/** A change a button or a form sends to the service: whether it is under way, and why it failed if it did. */
export function useSend<A extends unknown[]>(change: (...args: A) => Promise<unknown>): Sending<A> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const send = async (...args: A) => {
    setBusy(true);
    setError(undefined);
    try {
      await change(...args);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return { send, busy, error, clearError: () => setError(undefined) };
}
