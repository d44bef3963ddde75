import { useCallback, useEffect, useRef } from 'react';

/**
 * Whether the component is still on screen, for what an answer does once it arrives: a registration test can take
 * seconds, and a page the user has left must not pull them back when it is done.
 */
export function useStillHere(): () => boolean {
  const here = useRef(false);
  useEffect(() => {
    here.current = true;
    return () => {
      here.current = false;
    };
  }, []);
  return useCallback(() => here.current, []);
}
