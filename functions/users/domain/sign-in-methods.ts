/**
 * How a person signs in (issue 21: an organization manager sees which provider their members use). A person's record
 * keeps `signInMethods`: `password` for an e-mail-and-password account, and the name of each identity provider whose
 * login signs in as them, as Cognito names it (`NorthsideAir`, `Google`). A federated sign-up is its provider alone; a
 * password account whose owner's provider login was linked to it (docs/decisions/037) is both.
 */

/** The method of an e-mail-and-password account. */
export const PASSWORD_METHOD = 'password';

/** What people read for {@link PASSWORD_METHOD}. */
export const PASSWORD_LABEL = 'E-mail and password';

/**
 * A record written before sign-in methods were kept has none: every such person signed up with e-mail and password
 * (federated sign-in came with issue 21, and a link made before it is written at that person's next sign-in).
 */
export const methodsOfRecord = (stored: readonly string[] | undefined): string[] =>
  stored && stored.length > 0 ? [...stored] : [PASSWORD_METHOD];

/** What a Cognito trigger tells of the account that signed in or was confirmed. */
export interface AccountFacts {
  /** The pool's user name: `{providerName}_{subject}` for a provider's own account, the sub otherwise. */
  userName: string;
  /** The event's user attributes: `cognito:user_status`, `identities` (Cognito's JSON list of linked logins). */
  attributes: Readonly<Record<string, string | undefined>>;
}

/** The provider names in Cognito's `identities` attribute; anything unreadable counts as none. */
export const linkedProvidersOf = (identities: string | undefined): string[] => {
  if (!identities) return [];
  try {
    const parsed: unknown = JSON.parse(identities);
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((identity) =>
      identity && typeof identity === 'object' && typeof identity.providerName === 'string' && identity.providerName
        ? [identity.providerName as string]
        : [],
    );
  } catch {
    return [];
  }
};

/**
 * The methods an account signs in with, from a trigger event: the providers its `identities` name and, for a
 * provider's own account (status `EXTERNAL_PROVIDER`, user name `{providerName}_…`), that provider even when the
 * event carries no `identities`; `password` unless it is a provider's own account, which has no password.
 */
export const signInMethodsOf = ({ userName, attributes }: AccountFacts): string[] => {
  const linked = linkedProvidersOf(attributes.identities);
  const prefix = userName.includes('_') ? userName.slice(0, userName.indexOf('_')) : '';
  // Cognito names a provider's account after the login that made it; a password account's name is its sub (no `_`).
  const ownProvider =
    attributes['cognito:user_status'] === 'EXTERNAL_PROVIDER'
      ? prefix || undefined
      : linked.find((name) => prefix && name.toLowerCase() === prefix.toLowerCase());
  // The `identities` spelling is the provider's own; the user name's may be lower-cased by a case-insensitive pool.
  const own = ownProvider && (linked.find((name) => name.toLowerCase() === ownProvider.toLowerCase()) ?? ownProvider);
  const providers = [...new Set([...(own ? [own] : []), ...linked])];
  return own ? providers : [PASSWORD_METHOD, ...providers];
};

/** A provider the environment lists: Cognito's name and the label people read (the name when it has none). */
export interface ProviderLabel {
  name: string;
  label?: string;
}

/**
 * The methods as people read them: "E-mail and password" first, then each provider's label in the order kept. A
 * provider the environment no longer lists is shown by its name, rather than hiding that the person used it.
 */
export const signInLabelsOf = (
  stored: readonly string[] | undefined,
  providers: readonly ProviderLabel[],
): string[] => {
  const methods = methodsOfRecord(stored);
  const labelOf = (method: string) => {
    const provider = providers.find((p) => p.name.toLowerCase() === method.toLowerCase());
    return provider?.label || provider?.name || method;
  };
  return [
    ...(methods.includes(PASSWORD_METHOD) ? [PASSWORD_LABEL] : []),
    ...methods.filter((method) => method !== PASSWORD_METHOD).map(labelOf),
  ];
};
