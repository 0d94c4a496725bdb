import { useEffect, useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { completeHostedSignIn } from '../../lib/hosted-sign-in';
import { HOSTED_MESSAGES } from '../../lib/hosted-sign-in-rules';
import { LOGIN_PATH } from '../../lib/navigation';
import { APP_NAME } from '../../lib/page-title';
import { useSession } from '../../lib/session';
import { UI_MESSAGES } from '../../lib/ui-messages';

/**
 * `/auth/callback?code=…&state=…`: where the hosted sign-in sends the browser back. The code is exchanged once,
 * the session starts as a password sign-in's does, and the person goes on to the destination they asked for.
 */
export const HostedCallbackPage = () => {
  const { search } = useLocation();
  const { state } = useSession();
  const [destination, setDestination] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    completeHostedSignIn(search).then(setDestination, (failure: unknown) =>
      setError(failure instanceof Error ? failure.message : HOSTED_MESSAGES.hostedSignInFailed),
    );
  }, [search]);

  // Signed in once the session has read the new tokens: the destination's guard then finds the person in.
  if (destination && state.status === 'signed-in') return <Navigate to={destination} replace />;
  return (
    <main className="login">
      <div className="login-panel" data-testid="hosted-callback">
        <h1 data-page-title="Signing in">{APP_NAME}</h1>
        {error ? (
          <>
            <p className="error" role="alert" data-testid="hosted-callback-error">
              {error}
            </p>
            <p>
              <Link to={LOGIN_PATH}>{UI_MESSAGES.signIn}</Link>
            </p>
          </>
        ) : (
          <p className="muted" role="status">
            {UI_MESSAGES.signingIn}
          </p>
        )}
      </div>
    </main>
  );
};
