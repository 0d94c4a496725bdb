import type { KnownName } from '../lib/person-names';

/**
 * How a person signs in, as the API words it ("E-mail and password", "Northside Air Network"), for the viewers it
 * tells: the person, staff, and the managers of an organization the person belongs to (docs/users.md). Apart from
 * the hook that reads it (person-sign-in.tsx) so that it renders without a session or a query cache.
 */
export const signInText = (name: KnownName | undefined, loading: boolean): string => {
  if (name?.signsInWith?.length) return name.signsInWith.join(', ');
  return loading ? 'Loading…' : 'Not shown';
};

export const SignInText = ({
  name,
  loading,
  testId,
}: {
  name: KnownName | undefined;
  loading: boolean;
  testId?: string;
}) => (
  <span data-testid={testId} className={name?.signsInWith?.length ? undefined : 'muted'}>
    {signInText(name, loading)}
  </span>
);
