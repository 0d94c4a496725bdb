import { FEDERATED_ACCOUNT_EXISTS, FEDERATED_NO_EMAIL } from '../../../shared/auth/federated-sign-in';

/**
 * The linking rule for a first sign-in through an identity provider (issue 21,
 * docs/decisions/037-federated-linking-rule.md): a federated login joins an existing account of the same e-mail only
 * when the provider asserts the e-mail verified and the environment trusts that provider for linking. Anything else
 * that meets an existing account is refused with a message, never made a second account and never linked.
 */

/** A federated sign-up as Cognito's PreSignUp_ExternalProvider trigger describes it. */
export interface FederatedSignUp {
  /** Cognito's user name for the login: `{providerName}_{subject}`, e.g. `NorthsideAir_abc123`. */
  userName: string;
  /** The user-pool attributes the provider's attribute mapping filled: `email`, `email_verified`, names. */
  attributes: Readonly<Record<string, string | boolean | undefined>>;
}

/** An account of the pool that holds the sign-up's e-mail. */
export interface ExistingAccount {
  /** Its user name in the pool (for a native account, what AdminLinkProviderForUser's destination names). */
  username: string;
  /** Whether it is itself a provider's login (Cognito's `EXTERNAL_PROVIDER` status), not an e-mail-and-password one. */
  federated: boolean;
  /**
   * Whether its owner proved the e-mail (status `CONFIRMED`, `email_verified` true). Anyone can sign up with someone
   * else's address and leave the account unconfirmed; linking the address's real owner to it would hand that
   * stranger, who knows its password, the owner's account.
   */
  confirmed: boolean;
}

/** Who the login is: the provider as Cognito names it (the trusted list's spelling) and the provider's subject. */
export interface ProviderLogin {
  providerName: string;
  subject: string;
}

export type LinkingDecision =
  | { kind: 'create' }
  | { kind: 'link'; to: string; source: ProviderLogin }
  | { kind: 'refuse'; message: string };

/**
 * Splits Cognito's `{providerName}_{subject}`. A provider name has no `_` (the environments' schema allows letters,
 * digits, dots and hyphens), a subject may.
 * Cognito may hand the name lower-cased (`google_…` in a case-insensitive pool), so a trusted name matches whatever
 * the case and the trusted list's spelling is kept: AdminLinkProviderForUser wants the provider's own name.
 */
export const providerLoginOf = (userName: string, trustedProviders: readonly string[]): ProviderLogin | undefined => {
  const separator = userName.indexOf('_');
  if (separator <= 0 || separator === userName.length - 1) return undefined;
  const named = userName.slice(0, separator).toLowerCase();
  const providerName = trustedProviders.find((name) => name.toLowerCase() === named);
  return providerName ? { providerName, subject: userName.slice(separator + 1) } : undefined;
};

/** Providers send `email_verified` as a boolean or as the string "true"; anything else is not an assertion. */
export const emailVerifiedOf = (value: unknown): boolean => value === true || value === 'true';

const normalEmail = (email: string) => email.trim().toLowerCase();

/**
 * Decides a federated sign-up. `existing` are the pool's accounts found for the sign-up's e-mail (the caller's lookup
 * may match more loosely: only those whose e-mail is the same, whatever its case, count).
 */
export const decideFederatedSignUp = (
  signUp: FederatedSignUp,
  existing: readonly (ExistingAccount & { email: string })[],
  trustedProviders: readonly string[],
): LinkingDecision => {
  const email = typeof signUp.attributes.email === 'string' ? normalEmail(signUp.attributes.email) : '';
  if (!email) return { kind: 'refuse', message: FEDERATED_NO_EMAIL };
  const same = existing.filter((account) => normalEmail(account.email) === email);
  if (same.length === 0) return { kind: 'create' };
  // An account that is itself another provider's login is not a link target: the person signs in through that
  // provider. The pool signs in by e-mail, so more than one e-mail-and-password account would be an anomaly to refuse.
  const native = same.filter((account) => !account.federated);
  const source = providerLoginOf(signUp.userName, trustedProviders);
  const target = native.length === 1 ? native[0] : undefined;
  if (source && emailVerifiedOf(signUp.attributes.email_verified) && target?.confirmed) {
    return { kind: 'link', to: target.username, source };
  }
  return { kind: 'refuse', message: FEDERATED_ACCOUNT_EXISTS };
};

/**
 * An e-mail-and-password sign-up of an address a provider's login already holds is refused: the login could not be
 * linked to it afterwards (Cognito links only a login that has no account yet), so it would stay a second account.
 * An address held by another password account is Cognito's own refusal (the pool signs in by e-mail).
 */
export const decideNativeSignUp = (
  email: string,
  existing: readonly (ExistingAccount & { email: string })[],
): { kind: 'create' } | { kind: 'refuse'; message: string } =>
  existing.some((account) => account.federated && normalEmail(account.email) === normalEmail(email))
    ? { kind: 'refuse', message: FEDERATED_ACCOUNT_EXISTS }
    : { kind: 'create' };

/** What admitting a federated sign-up needs of the user pool (functions/users/store/federated-accounts.ts). */
export interface FederatedAccountsPort {
  withEmail(userPoolId: string, email: string): Promise<(ExistingAccount & { email: string })[]>;
  link(userPoolId: string, username: string, login: ProviderLogin): Promise<void>;
}

/**
 * Looks the e-mail up, decides, and links when the rule says so. A refusal comes back as the decision: the caller
 * (the PreSignUp trigger, the local identity layer) turns it into its own way of stopping the sign-up.
 */
export const admitFederatedSignUp = async (
  signUp: FederatedSignUp,
  {
    userPoolId,
    trustedProviders,
    accounts,
  }: {
    userPoolId: string;
    trustedProviders: readonly string[];
    accounts: FederatedAccountsPort;
  },
): Promise<LinkingDecision> => {
  const email = typeof signUp.attributes.email === 'string' ? signUp.attributes.email.trim() : '';
  const existing = email ? await accounts.withEmail(userPoolId, email) : [];
  const decision = decideFederatedSignUp(signUp, existing, trustedProviders);
  if (decision.kind === 'link') await accounts.link(userPoolId, decision.to, decision.source);
  return decision;
};

/** Looks the e-mail up and decides an e-mail-and-password sign-up ({@link decideNativeSignUp}). */
export const admitNativeSignUp = async (
  email: string,
  { userPoolId, accounts }: { userPoolId: string; accounts: Pick<FederatedAccountsPort, 'withEmail'> },
) => decideNativeSignUp(email, email.trim() ? await accounts.withEmail(userPoolId, email.trim()) : []);
