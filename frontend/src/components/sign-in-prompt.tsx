import { Link, useLocation } from 'react-router-dom';
import { loginPath } from '../lib/navigation';
import { UI_MESSAGES } from '../lib/ui-messages';

/** Shown to a guest where a section needs a signed-in user: a link to sign in that brings them back here. */
export const SignInPrompt = ({ what }: { what: string }) => {
  const location = useLocation();
  return (
    <p className="notice" data-testid="sign-in-prompt">
      {UI_MESSAGES.signInToSee(what)}{' '}
      <Link to={loginPath(location)} data-testid="sign-in-prompt-link">
        {UI_MESSAGES.signIn}
      </Link>
    </p>
  );
};
