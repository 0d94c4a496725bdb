import type { IdentityUser, UserRecord } from '../../../shared/contracts/users';

type Named = Pick<IdentityUser, 'displayName' | 'givenName' | 'familyName' | 'email'> & { id: string };

/** The name to show for a person: their display name, else first and last name, else e-mail, else id. */
export const personName = (person: Partial<Named> & { id: string }, record?: Pick<UserRecord, 'displayName'>) => {
  const display = person.displayName?.trim() || record?.displayName?.trim();
  if (display) return display;
  const full = [person.givenName, person.familyName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return full || person.email || person.id;
};
