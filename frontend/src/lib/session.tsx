import { Hub } from 'aws-amplify/utils';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { LOGOUT_STORAGE_KEY, onSessionExpired, readSessionUser, signOutHere } from './auth';
import type { SessionEnd } from './navigation';
import type { SessionUser } from './session-user';

export type SessionState =
  | { status: 'loading' }
  | { status: 'guest'; ended?: SessionEnd }
  | { status: 'signed-in'; user: SessionUser };

interface SessionContextValue {
  state: SessionState;
  /** Re-reads the tokens, e.g. right after sign-in. */
  refresh: () => Promise<SessionUser | undefined>;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionContextValue | undefined>(undefined);

/**
 * Holds who is signed in. The session ends (spec §2, §8) on sign-out here, on sign-out in another tab
 * (the logout timestamp in local storage), when Amplify cannot refresh the tokens, and when the API
 * answers 401; the route guard then sends the user to the login page with the matching reason.
 */
export const SessionProvider = ({ children }: { children: ReactNode }) => {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  }, [state]);

  const refresh = useCallback(async () => {
    try {
      const user = await readSessionUser();
      setState(user ? { status: 'signed-in', user } : { status: 'guest' });
      return user;
    } catch {
      setState({ status: 'guest' });
      return undefined;
    }
  }, []);

  const end = useCallback(async (ended: SessionEnd) => {
    if (stateRef.current.status !== 'signed-in') return;
    setState({ status: 'guest', ended });
    // Another tab already cleared the shared token storage; only a session ending here needs clearing.
    if (ended !== 'signed-out-elsewhere') await signOutHere().catch(() => undefined);
  }, []);

  useEffect(() => {
    void refresh();
    const stopHub = Hub.listen('auth', ({ payload }) => {
      switch (payload.event) {
        case 'signedIn':
        case 'tokenRefresh':
          void refresh();
          break;
        case 'signedOut':
          setState((s) => (s.status === 'guest' ? s : { status: 'guest', ended: 'signed-out' }));
          break;
        case 'tokenRefresh_failure':
          void end('session-expired');
          break;
      }
    });
    const stopExpiry = onSessionExpired(() => void end('session-expired'));
    const onStorage = (event: StorageEvent) => {
      if (event.key === LOGOUT_STORAGE_KEY && event.newValue) void end('signed-out-elsewhere');
    };
    window.addEventListener('storage', onStorage);
    return () => {
      stopHub();
      stopExpiry();
      window.removeEventListener('storage', onStorage);
    };
  }, [refresh, end]);

  const signOut = useCallback(async () => {
    setState({ status: 'guest', ended: 'signed-out' });
    // Amplify clears the local tokens even when revoking them fails; the user is signed out here either way.
    await signOutHere().catch((error: unknown) => console.warn('Sign-out did not complete cleanly', error));
  }, []);

  const value = useMemo(() => ({ state, refresh, signOut }), [state, refresh, signOut]);
  return <SessionContext value={value}>{children}</SessionContext>;
};

export const useSession = (): SessionContextValue => {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
};

/** The signed-in user; only for screens behind the session guard. */
export const useSignedInUser = (): SessionUser => {
  const { state } = useSession();
  if (state.status !== 'signed-in') throw new Error('useSignedInUser needs a signed-in session');
  return state.user;
};
