import { Authenticator, type AuthenticatorProps } from '@aws-amplify/ui-react';
import '@aws-amplify/ui-react/styles.css';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { apiClient } from '../../lib/api';
import { authFlowType } from '../../lib/auth';
import { hostedSignIn, startHostedSignIn } from '../../lib/hosted-sign-in';
import { HOSTED_MESSAGES } from '../../lib/hosted-sign-in-rules';
import { safeDestination } from '../../lib/navigation';
import { APP_NAME } from '../../lib/page-title';
import { useSession } from '../../lib/session';
import { loginReasonText, UI_MESSAGES } from '../../lib/ui-messages';
import { createAuthServices } from './auth-services';
import { announceNewUser, rememberNewUser } from './new-user-notice';
import { signInNameFor } from './remembered-browsers';

type Screen = 'signIn' | 'signUp' | 'forgotPassword';
const SCREENS: readonly Screen[] = ['signIn', 'signUp', 'forgotPassword'];

/**
 * The fields the Authenticator shows, with stable test ids on the inputs (the Authenticator passes unknown
 * options through to the input element). `isRequired: false` turns off the browser's own "fill in this
 * field" bubble, so an empty field reaches our services and the user reads the spec's message instead.
 */
const field = (testId: string, extra: Record<string, unknown> = {}) => ({
  isRequired: false,
  'data-testid': testId,
  ...extra,
});

const FORM_FIELDS = {
  signIn: {
    username: field('login-email'),
    password: field('login-password', { autocomplete: 'current-password' }),
  },
  signUp: {
    email: field('signup-email', { order: 1 }),
    password: field('signup-password', { order: 2 }),
    confirm_password: field('signup-confirm-password', { order: 3 }),
  },
  confirmSignUp: { confirmation_code: field('confirm-code') },
  confirmSignIn: { confirmation_code: field('login-code') },
  forceNewPassword: {
    password: field('new-password'),
    confirm_password: field('new-password-confirm'),
  },
  forgotPassword: { username: field('forgot-email') },
  confirmResetPassword: {
    confirmation_code: field('reset-code'),
    password: field('reset-password'),
    confirm_password: field('reset-password-confirm'),
  },
} as unknown as AuthenticatorProps['formFields'];

/**
 * The hosted sign-in, where the environment offers it: each identity provider's "Sign in with …", and the hosted
 * page's own form (a password manager's or a browser's saved sign-in for the hosted domain works there).
 */
const HostedSignInChoices = ({ destination }: { destination: string }) => {
  const config = hostedSignIn();
  const [leaving, setLeaving] = useState(false);
  if (!config) return null;
  const go = (provider?: string) => {
    setLeaving(true);
    void startHostedSignIn(destination, provider).catch(() => setLeaving(false));
  };
  return (
    <nav className="login-hosted" aria-label={HOSTED_MESSAGES.signInElsewhere} data-testid="login-hosted">
      <p className="muted small">{HOSTED_MESSAGES.signInElsewhere}</p>
      {config.providers.map((provider) => (
        <button
          key={provider.name}
          type="button"
          disabled={leaving}
          onClick={() => go(provider.name)}
          data-testid={`login-provider-${provider.name}`}
        >
          {HOSTED_MESSAGES.signInWith(provider.label)}
        </button>
      ))}
      <button type="button" disabled={leaving} onClick={() => go()} data-testid="login-hosted-page">
        {HOSTED_MESSAGES.useHostedPage}
      </button>
    </nav>
  );
};

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
 * `/login?destination=…&reason=…[&screen=signUp|forgotPassword]`: every sign-in flow through Amplify's
 * Authenticator (sign in, TOTP code, forced new password, sign up with its code and resend, forgot password
 * and its confirmation), with the product's services around Amplify's calls (auth flow from the runtime
 * configuration, spec messages, retries). Once signed in, the user goes on to the destination when it is a
 * same-origin path (path + query + hash), else to the dashboard.
 */
export const LoginPage = () => {
  const { state } = useSession();
  const [params] = useSearchParams();
  const destination = safeDestination(params.get('destination'));
  const reason = loginReasonText(params.get('reason'));
  const screenParam = params.get('screen');
  const initialState = SCREENS.find((s) => s === screenParam) ?? 'signIn';
  // Amplify's calls are typed with an overload that takes a context first; the Authenticator never passes one.
  const services = useMemo(
    () =>
      createAuthServices({
        authFlowType: authFlowType(),
        onSignedUp: () => rememberNewUser(),
        signInName: (typed) => signInNameFor(typed),
      }) as unknown as AuthenticatorProps['services'],
    [],
  );
  const signedInId = state.status === 'signed-in' ? state.user.id : undefined;
  useEffect(() => {
    if (signedInId) announceNewUser(signedInId, (id) => apiClient('users').newUserNotice({ params: { id } }));
  }, [signedInId]);

  const signingIn = (
    <p className="muted" data-testid="login-signing-in">
      {UI_MESSAGES.signingIn}
    </p>
  );
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
      {/* Empty while the Authenticator checks for a session: app.css keeps the sign-in form's room (no layout shift). */}
      <div className="login-auth">
        <Authenticator
          initialState={initialState}
          loginMechanisms={['email']}
          services={services}
          formFields={FORM_FIELDS}
        >
          {signingIn}
        </Authenticator>
      </div>
      <HostedSignInChoices destination={destination} />
      <p className="muted small login-guest">
        <Link to="/dashboard" data-testid="login-browse-as-guest">
          {UI_MESSAGES.browseAsGuest}
        </Link>
      </p>
    </LoginPanel>
  );
};
