/**
 * User-facing messages in one module: the spec's exact wording where it gives one (§4, §5, §8), ours
 * elsewhere. The API and the web app both read them, so a test can assert the very string a user sees.
 */
export const MESSAGES = {
  // Spec §4 / §8: account deletion.
  noDeletionQueue: 'No deletion queue found for this user account.',
  noCustomMetadata: 'No custom metadata found for this user account.',
  // Spec §8: session.
  sessionExpired: 'Session is expired. User needs to sign in again.',
  // Spec §8: identity library messages.
  usernameEmpty: 'Username cannot be empty',
  passwordEmpty: 'Password cannot be empty',
  confirmationCodeEmpty: 'Confirmation code cannot be empty',
  networkError: 'Network Error',
  noCurrentUser: 'No current user',
  notAuthenticated: 'User is not authenticated',
  // Ours.
  parameterNotFound: (id: string) => `Parameter not found: ${id}`,
  parameterExists: (id: string) => `Parameter already exists: ${id}`,
  invalidCursor: 'Invalid page cursor',
} as const;
