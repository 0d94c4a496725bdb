import { type FormEvent, useId, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { MESSAGES } from '../../../../shared/messages';
import { signInWithPassword } from '../../lib/auth';
import { errorMessage } from '../../lib/error-message';
import { safeDestination } from '../../lib/navigation';
import { useSession } from '../../lib/session';
import { loginReasonText, UI_MESSAGES } from '../../lib/ui-messages';

/**
 * `/login?destination=…&reason=…`: e-mail and password. After sign-in the user goes to the destination
 * when it is a same-origin path, else to the dashboard.
 */
export const LoginPage = () => {
  const { state, refresh } = useSession();
  const [params] = useSearchParams();
  const destination = safeDestination(params.get('destination'));
  const reason = loginReasonText(params.get('reason'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const errorId = useId();

  // Signed in (already, or just now through refresh below): go on to where the user was heading.
  if (state.status === 'signed-in') return <Navigate to={destination} replace />;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const username = email.trim();
    if (!username) return setError(MESSAGES.usernameEmpty);
    if (!password) return setError(MESSAGES.passwordEmpty);
    setError(undefined);
    setBusy(true);
    try {
      const result = await signInWithPassword(username, password);
      if (result.isSignedIn) await refresh();
      else setError(UI_MESSAGES.unsupportedSignInStep(result.nextStep.signInStep));
    } catch (failure) {
      // A session left over from another tab: use it instead of failing.
      if (failure instanceof Error && failure.name === 'UserAlreadyAuthenticatedException') await refresh();
      else setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="login">
      <form className="card login-card" onSubmit={submit} noValidate aria-describedby={error ? errorId : undefined}>
        <h1>Sign in</h1>
        <p className="muted">Device Data Platform</p>
        {reason && (
          <p className="notice" role="status" data-testid="login-reason">
            {reason}
          </p>
        )}
        <div className="field">
          <label htmlFor="login-email">E-mail</label>
          <input
            id="login-email"
            data-testid="login-email"
            type="email"
            name="email"
            autoComplete="username"
            inputMode="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
            disabled={busy}
          />
        </div>
        <div className="field">
          <label htmlFor="login-password">Password</label>
          <input
            id="login-password"
            data-testid="login-password"
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            disabled={busy}
          />
        </div>
        {error && (
          <p id={errorId} className="error" role="alert" data-testid="login-error">
            {error}
          </p>
        )}
        <button type="submit" className="primary" data-testid="login-submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
};
