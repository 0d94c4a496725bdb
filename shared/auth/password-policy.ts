/**
 * The user pool's password rules, as both homes create the pool (infra/definitions/auth.ts `USER_POOL`): a temporary
 * password the users area makes for a person (functions/users/domain/people.ts `temporaryPassword`) meets them.
 */
export const PASSWORD_POLICY = {
  minLength: 10,
  requireLowercase: true,
  requireUppercase: true,
  requireDigits: true,
  requireSymbols: false,
} as const;
