import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { useIdleAfterDraw } from '../../lib/after-idle';
import { apiClient } from '../../lib/api';
import { amplifyAuth } from '../../lib/auth';
import { safeDestination } from '../../lib/navigation';
import { APP_NAME } from '../../lib/page-title';
import { useSession } from '../../lib/session';
import { loginReasonText, UI_MESSAGES } from '../../lib/ui-messages';
import type { Screen } from './login-form';
import { announceNewUser } from './new-user-notice';

const SCREENS: readonly Screen[] = ['signIn', 'signUp', 'forgotPassword'];

/**
 * The forms' chunk with Amplify Auth, which it calls (159 kB of script and 29 kB of styles sent). Asked for once the
 * page's text is painted (at the first idle moment, at most FORM_AFTER_MS on): asked for at boot, its files could
 * arrive before that paint (a fast network, a slow phone) and their evaluation (the Authenticator's modules, 310 kB
 * of its styles) then held the heading back (decision 106).
 */
const LoginForm = lazy(async () => {
  const [form] = await Promise.all([import('./login-form'), amplifyAuth()]);
  return { default: form.LoginForm };
});
const FORM_AFTER_MS = 200;

/** The login page's panel: the app's name as its heading, what the page shows now under it. */
const LoginPanel = ({ children }: { children: ReactNode }) => (
  <main className="login">
    <div className="login-panel" data-testid="login-page">
      <h1 data-page-title="Sign in">{APP_NAME}</h1>
      {children}
    </div>
  </main>
);

/**
 * `/login?destination=…&reason=…[&screen=signUp|forgotPassword]`. The page (its heading and the reason it was opened
 * for) is drawn with the app, and the forms (login-form.tsx) in the room kept for them once their chunk is there: the
 * page's largest text no longer waits for the Authenticator (decision 106). Once signed in, the user goes on to the
 * destination when it is a same-origin path (path + query + hash), else to the dashboard.
 */
export const LoginPage = () => {
  const { state } = useSession();
  const [params] = useSearchParams();
  const destination = safeDestination(params.get('destination'));
  const reason = loginReasonText(params.get('reason'));
  const screenParam = params.get('screen');
  const initialState = SCREENS.find((s) => s === screenParam) ?? 'signIn';
  const formAsked = useIdleAfterDraw(FORM_AFTER_MS);
  const signedInId = state.status === 'signed-in' ? state.user.id : undefined;
  useEffect(() => {
    if (signedInId) announceNewUser(signedInId, (id) => apiClient('users').newUserNotice({ params: { id } }));
  }, [signedInId]);

  const signingIn = (
    <p className="muted" data-testid="login-signing-in">
      {UI_MESSAGES.signingIn}
    </p>
  );
  const formRoom = <div className="login-auth" data-testid="login-form-loading" />;
  // Signed in (already, or just now: the session hears Amplify's signedIn event): go on to the destination. The panel
  // says so until the destination is drawn (the navigation is a transition, and a signed-in page waits for its first
  // reads, lib/first-reads.ts), rather than the screen going blank meanwhile.
  if (state.status === 'signed-in') {
    return (
      <LoginPanel>
        <Navigate to={destination} replace />
        {signingIn}
      </LoginPanel>
    );
  }

  return (
    <LoginPanel>
      {reason && (
        <p className="notice" role="status" data-testid="login-reason">
          {reason}
        </p>
      )}
      {/* The forms' room, kept until they come (app.css): they are the page's end, so their arrival moves nothing. */}
      <Suspense fallback={formRoom}>
        {formAsked ? (
          <LoginForm initialState={initialState} destination={destination} signingIn={signingIn} />
        ) : (
          formRoom
        )}
      </Suspense>
    </LoginPanel>
  );
};
