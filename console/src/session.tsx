import { createContext, ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { api, ApiError, setCsrfToken, whenSessionEnds } from './api/client';
import type { Session } from './api/types';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out'; ended?: 'expired' | 'signed-out'; wasTenant?: boolean }
  | { status: 'signed-in'; session: Session };

interface SessionContextValue {
  state: SessionState;
  signIn(adminApiKey: string): Promise<Session>;
  redeemPortalLink(token: string): Promise<Session>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionContextValue | undefined>(undefined);

/** Who is signed in, read from GET /session at start; the cookie itself stays out of reach of this code. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  // Set by every sign-in, redemption and sign-out: the start-up check was sent before them, so its answer is stale.
  const decided = useRef(false);

  const enter = useCallback((session: Session) => {
    decided.current = true;
    setCsrfToken(session.csrf_token);
    setState({ status: 'signed-in', session });
    return session;
  }, []);

  useEffect(() => {
    const settle = (session: Session | null) => {
      if (decided.current) return; // a portal link redeemed while the check was on its way must not be undone
      if (session) enter(session);
      else setState({ status: 'signed-out' });
    };
    api<{ session: Session | null }>('GET', '/session', undefined, { signingIn: true })
      .then(({ session }) => settle(session))
      .catch(() => settle(null));
  }, [enter]);

  useEffect(() => {
    whenSessionEnds(() => {
      decided.current = true;
      setCsrfToken(undefined);
      setState((current) => ({
        status: 'signed-out',
        ended: 'expired',
        wasTenant: current.status === 'signed-in' && current.session.kind === 'tenant',
      }));
    });
    return () => whenSessionEnds(undefined);
  }, []);

  const value = useMemo<SessionContextValue>(
    () => ({
      state,
      signIn: async (adminApiKey) =>
        enter((await api<{ session: Session }>('POST', '/session', { admin_api_key: adminApiKey }, { signingIn: true })).session),
      redeemPortalLink: async (token) =>
        enter((await api<{ session: Session }>('POST', '/portal-links/redeem', { token }, { signingIn: true })).session),
      signOut: async () => {
        const wasTenant = state.status === 'signed-in' && state.session.kind === 'tenant';
        try {
          await api('DELETE', '/session', undefined, { signingIn: true });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
        }
        decided.current = true;
        setCsrfToken(undefined);
        setState({ status: 'signed-out', ended: 'signed-out', wasTenant });
      },
    }),
    [state, enter],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The signed-in session (only inside pages that require one). */
export function useSignedIn(): Session {
  const { state } = useSession();
  if (state.status !== 'signed-in') throw new Error('not signed in');
  return state.session;
}
