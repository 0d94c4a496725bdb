import { MESSAGES } from '../../../shared/messages';
import { authErrorMessage, EmptyFieldError, requireFilled, toUserFacingError } from './auth-errors';

const named = (name: string, message = 'amplify wording') => Object.assign(new Error(message), { name });

describe('authErrorMessage', () => {
  it("maps Amplify's validation errors to the spec's identity messages", () => {
    expect(authErrorMessage(named('EmptySignInUsername', 'username is required to signIn'))).toBe(
      'Username cannot be empty',
    );
    expect(authErrorMessage(named('EmptySignInPassword'))).toBe('Password cannot be empty');
    expect(authErrorMessage(named('EmptyConfirmSignUpCode'))).toBe('Confirmation code cannot be empty');
    expect(authErrorMessage(named('EmptyConfirmResetPasswordConfirmationCode'))).toBe(
      'Confirmation code cannot be empty',
    );
  });

  it('says "Network Error" when the identity provider cannot be reached', () => {
    expect(authErrorMessage(named('NetworkError', 'A network error has occurred.'))).toBe('Network Error');
    expect(authErrorMessage(new TypeError('Failed to fetch'))).toBe('Network Error');
  });

  it('says the user is not authenticated when there are no tokens', () => {
    expect(authErrorMessage(named('UserUnAuthenticatedException', 'User needs to be authenticated'))).toBe(
      MESSAGES.notAuthenticated,
    );
  });

  it('says "No current user" and "No graphql endpoint provided" for the errors Amplify v6 raises in those words', () => {
    // @aws-amplify/api-graphql's NO_SIGNED_IN_USER and NO_ENDPOINT (utils/errors/constants).
    expect(authErrorMessage(named('NoSignedUser', 'No current user'))).toBe(MESSAGES.noCurrentUser);
    expect(authErrorMessage(named('NoEndpoint', 'No GraphQL endpoint configured in `Amplify.configure()`.'))).toBe(
      'No graphql endpoint provided',
    );
  });

  it("passes Cognito's own messages through", () => {
    expect(authErrorMessage(named('NotAuthorizedException', 'Incorrect username or password.'))).toBe(
      'Incorrect username or password.',
    );
    expect(authErrorMessage(new EmptyFieldError(MESSAGES.usernameEmpty))).toBe(MESSAGES.usernameEmpty);
  });

  it('falls back to the generic messages without any text', () => {
    expect(authErrorMessage(named('AuthError', ''))).toBe('Authentication Error');
    expect(authErrorMessage({})).toBe('Something went wrong. Please try again.');
  });
});

describe('toUserFacingError', () => {
  it('keeps the name and replaces the message', () => {
    const error = toUserFacingError(named('NetworkError', 'A network error has occurred.'));
    expect(error).toMatchObject({ name: 'NetworkError', message: 'Network Error' });
  });

  it('returns an error that already reads right as it is', () => {
    const error = named('NotAuthorizedException', 'Incorrect username or password.');
    expect(toUserFacingError(error)).toBe(error);
  });
});

describe('requireFilled', () => {
  it('throws the message of the first empty value, blanks count as empty', () => {
    expect(() =>
      requireFilled([
        ['  ', MESSAGES.usernameEmpty],
        ['', MESSAGES.passwordEmpty],
      ]),
    ).toThrow(MESSAGES.usernameEmpty);
    expect(() =>
      requireFilled([
        ['a@example.com', MESSAGES.usernameEmpty],
        [undefined, MESSAGES.passwordEmpty],
      ]),
    ).toThrow(MESSAGES.passwordEmpty);
    expect(() => requireFilled([['123456', MESSAGES.confirmationCodeEmpty]])).not.toThrow();
  });
});
