/**
 * What other features may use of sign-in (docs/style.md §9, §17): a person's account security (MFA, passkeys, e-mail).
 */
export { AccountSecurity } from './account-security';
