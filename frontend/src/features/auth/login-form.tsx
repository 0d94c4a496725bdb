import { Authenticator, type AuthenticatorProps } from '@aws-amplify/ui-react';
import '@aws-amplify/ui-react/styles.css';
import { type ReactNode, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { authFlowType } from '../../lib/auth';
import { hostedSignIn, startHostedSignIn } from '../../lib/hosted-sign-in';
import { HOSTED_MESSAGES } from '../../lib/hosted-sign-in-rules';
import { UI_MESSAGES } from '../../lib/ui-messages';
import { createAuthServices } from './auth-services';
import { rememberNewUser } from './new-user-notice';
import { signInNameFor } from './remembered-browsers';

/** The screens `/login?screen=…` may open on. */
export type Screen = 'signIn' | 'signUp' | 'forgotPassword';

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

/**
 * The login page's forms (login-page.tsx draws the page around them, before this chunk arrives): every sign-in flow
 * through Amplify's Authenticator (sign in, TOTP code, forced new password, sign up with its code and resend, forgot
 * password and its confirmation), with the product's services around Amplify's calls (auth flow from the runtime
 * configuration, spec messages, retries); then the hosted sign-in, where offered, and the way on as a guest.
 * `signingIn` is what the Authenticator shows once signed in, until the page leads on to the destination.
 */
export const LoginForm = ({
  initialState,
  destination,
  signingIn,
}: {
  initialState: Screen;
  destination: string;
  signingIn: ReactNode;
}) => {
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
  return (
    <>
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
    </>
  );
};
