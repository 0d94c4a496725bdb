import {
  createContext,
  type ReactNode,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { logAndReturnNothing } from '../../../shared/errors/handling';
import {
  forgetStoredTokens,
  LOGOUT_STORAGE_KEY,
  onAuthEvent,
  onSessionExpired,
  readSession,
  signOutHere,
} from './auth';
import { clearIdentityCache } from './identity-cache';
import type { SessionEnd } from './navigation';
import { queryClient } from './query';
import { clearSessionStart, markSessionStart, readSessionStart } from './session-cookie';
import { sessionVerdict } from './session-rules';
import { type SessionUser, userInfoOf } from './session-user';

export type SessionState =
  | { status: 'loading' }
  | { status: 'guest'; ended?: SessionEnd }
  | { status: 'signed-in'; user: SessionUser };

interface SessionContextValue {
  state: SessionState;
  /** Re-reads the tokens, e.g. right after sign-in. */
  refresh: () => Promise<SessionUser | undefined>;
  /** Signs out here and in the other tabs; `global` also revokes the refresh tokens of every device. */
  signOut: (options?: { global?: boolean }) => Promise<void>;
}

const SessionContext = createContext<SessionContextValue | undefined>(undefined);

/** How often an open page checks that its session cookie (spec §9: 7 days) still stands. */
const SESSION_CHECK_MS = 60_000;

/** Clears this browser's tokens without telling other tabs: they share the cookies and end on their own. */
const forgetTokens = async () => {
  clearSessionStart();
  clearIdentityCache(localStorage);
  await logAndReturnNothing('The stored tokens were not cleared', forgetStoredTokens);
};

/**
 * Every answer read as one person is dropped when the session changes hands (sign-in, sign-out here or in another
 * tab, expiry): the next person on this browser, or the same one as a guest, must not see it.
 */
const forgetServerState = () => queryClient.clear();

/**
 * Holds who is signed in. The session ends (spec §2, §8, §9) on sign-out here, on sign-out in another tab
 * (the logout timestamp in local storage), when Amplify cannot refresh the tokens, when the session cookie
 * is gone or older than 7 days, and when the API answers 401. A session that ends on its own is marked
 * `session-expired`; the app then sends the user to the login page with the destination and the reason.
 */
export const SessionProvider = ({ children }: { children: ReactNode }) => {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  }, [state]);

  // The first answer of a page load is a transition: the loading page the shell drew while the session was read stays
  // as it is until the first page has what it is drawn with. An urgent update committed the router's fallback (the
  // same "Loading…") instead, and React then holds the page's reveal until 300 ms after a fallback was shown (its
  // Suspense throttle): about a fifth of a second in which the page was ready and not drawn (issue 36, decision 109).
  const settle = useCallback((next: SessionState | ((s: SessionState) => SessionState)) => {
    if (stateRef.current.status === 'loading') startTransition(() => setState(next));
    else setState(next);
  }, []);

  const refresh = useCallback(async () => {
    try {
      const session = await readSession();
      const user = userInfoOf(session);
      if (user) {
        settle({ status: 'signed-in', user });
        return user;
      }
      if (session.status === 'expired') {
        // Tokens first, state second: the login page must not find the old tokens and think the user is in.
        await forgetTokens();
        forgetServerState();
        settle({ status: 'guest', ended: 'session-expired' });
      } else settle((s) => (s.status === 'guest' ? s : { status: 'guest' }));
      return undefined;
    } catch {
      settle({ status: 'guest' });
      return undefined;
    }
  }, [settle]);

  const end = useCallback(async (ended: SessionEnd) => {
    if (stateRef.current.status !== 'signed-in') return;
    // Ends once, however many signals arrive (a 401 from each call in flight, the timer, a Hub event).
    stateRef.current = { status: 'guest', ended };
    forgetServerState();
    // Another tab already cleared the shared token cookies; only a session ending here needs clearing.
    if (ended === 'session-expired') await forgetTokens();
    setState({ status: 'guest', ended });
  }, []);

  useEffect(() => {
    void refresh();
    const stopHub = onAuthEvent(({ payload }) => {
      switch (payload.event) {
        case 'signedIn':
          // Every completed sign-in (password, MFA, new password, auto sign-in after sign-up) starts a session.
          markSessionStart();
          forgetServerState();
          void refresh();
          break;
        case 'tokenRefresh':
          void refresh();
          break;
        case 'signedOut':
          forgetServerState();
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
    const check = () => {
      if (stateRef.current.status !== 'signed-in') return;
      if (sessionVerdict({ hasTokens: true, startedAt: readSessionStart(), now: Date.now() }) === 'expired') {
        void end('session-expired');
      }
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') check();
    };
    const timer = window.setInterval(check, SESSION_CHECK_MS);
    window.addEventListener('storage', onStorage);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopHub();
      stopExpiry();
      window.clearInterval(timer);
      window.removeEventListener('storage', onStorage);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [refresh, end]);

  const signOut = useCallback(async (options?: { global?: boolean }) => {
    // At once, not when the state's effect runs: a call answering 401 once the tokens are revoked (a page's refetch,
    // on a loaded machine before React has committed) must not turn this sign-out into "session expired".
    stateRef.current = { status: 'guest', ended: 'signed-out' };
    // Calls stop carrying the tokens first, state second: the page drawn for the guest reads at once, while Amplify
    // holds the tokens until RevokeToken has answered.
    // Amplify clears the local tokens even when revoking them fails; the user is signed out here either way.
    const leaving = logAndReturnNothing('Sign-out did not complete cleanly', () => signOutHere(options));
    setState({ status: 'guest', ended: 'signed-out' });
    // The next person on this browser must not see this user's cached record or answers.
    clearIdentityCache(localStorage);
    forgetServerState();
    await leaving;
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

/** The signed-in user, or undefined for a guest (and while the session loads): for pages guests may see. */
export const useOptionalUser = (): SessionUser | undefined => {
  const { state } = useSession();
  return state.status === 'signed-in' ? state.user : undefined;
};
