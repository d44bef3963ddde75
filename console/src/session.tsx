import { createContext, ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { api, ApiError, setCsrfToken, whenCsrfRefused, whenSessionEnds } from './api/client';
import type { Session } from './api/types';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out'; ended?: 'expired' | 'signed-out'; wasTenant?: boolean }
  | { status: 'signed-in'; session: Session }
  /** The start-up check failed (the service unreachable or answering 5xx): the cookie may well be valid. */
  | { status: 'unavailable'; error: unknown };

interface SessionContextValue {
  state: SessionState;
  signIn(adminApiKey: string): Promise<Session>;
  /**
   * `replaceSession`: end the other session this browser holds (asked first: without it the service answers 409).
   * Any session held is replaced only with its CSRF token, which goes along once the start-up check has set it.
   */
  redeemPortalLink(token: string, replaceSession?: boolean): Promise<Session>;
  signOut(): Promise<void>;
  /** Asks the service again who is signed in (after `unavailable`). */
  check(): void;
}

/** GET /session: the session, or none, and then whether the cookie sent was a portal session that has ended. */
interface CurrentSession {
  session: Session | null;
  ended?: 'tenant';
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

  const check = useCallback(() => {
    // A portal link redeemed while the check was on its way must not be undone by its answer.
    const settle = (apply: () => void) => decided.current || apply();
    api<CurrentSession>('GET', '/session', undefined, { signingIn: true })
      .then(({ session, ended }) =>
        settle(() =>
          session
            ? enter(session)
            : // A portal session that ended since this browser last saw it (a reload, a bookmark): say so.
              setState(ended === 'tenant' ? { status: 'signed-out', ended: 'expired', wasTenant: true } : { status: 'signed-out' }),
        ),
      )
      .catch((error: unknown) => settle(() => setState({ status: 'unavailable', error })));
  }, [enter]);

  useEffect(check, [check]);

  useEffect(() => {
    whenSessionEnds(() => {
      decided.current = true;
      setCsrfToken(undefined);
      // A second 401 (a poll still on its way) keeps what the first, or a sign-out, said.
      setState((current) => (current.status !== 'signed-in' ? current : { status: 'signed-out', ended: 'expired', wasTenant: current.session.kind === 'tenant' }));
    });
    return () => whenSessionEnds(undefined);
  }, []);

  useEffect(() => {
    whenCsrfRefused(async () => {
      const { session } = await api<{ session: Session | null }>('GET', '/session', undefined, { signingIn: true });
      if (session) enter(session);
      else {
        decided.current = true;
        setCsrfToken(undefined);
        setState({ status: 'signed-out', ended: 'expired' });
      }
    });
    return () => whenCsrfRefused(undefined);
  }, [enter]);

  const value = useMemo<SessionContextValue>(
    () => ({
      state,
      check: () => {
        setState((current) => (current.status === 'unavailable' ? { status: 'loading' } : current));
        check();
      },
      signIn: async (adminApiKey) =>
        enter((await api<{ session: Session }>('POST', '/session', { admin_api_key: adminApiKey }, { signingIn: true })).session),
      redeemPortalLink: async (token, replaceSession) =>
        enter(
          (await api<{ session: Session }>('POST', '/portal-links/redeem', { token, ...(replaceSession ? { replace_session: true } : {}) }, { signingIn: true }))
            .session,
        ),
      // Says "signed out" only once the service has ended the session (or had none): a failed DELETE leaves the
      // cookie valid, and the next person at this browser would be signed in. The caller shows the error.
      signOut: async () => {
        const wasTenant = state.status === 'signed-in' && state.session.kind === 'tenant';
        const end = () => api('DELETE', '/session', undefined, { signingIn: true });
        try {
          await end();
        } catch (error) {
          if (!(error instanceof ApiError && (error.status === 401 || error.status === 403))) throw error;
          if (error.status === 403) {
            // The cookie is another tab's newer session (its CSRF token is not ours): signing out means that one.
            const { session } = await api<{ session: Session | null }>('GET', '/session', undefined, { signingIn: true });
            if (session) {
              setCsrfToken(session.csrf_token);
              await end();
            }
          }
        }
        decided.current = true;
        setCsrfToken(undefined);
        setState({ status: 'signed-out', ended: 'signed-out', wasTenant });
      },
    }),
    [state, enter, check],
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
