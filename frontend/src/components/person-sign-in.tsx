import { usePersonName } from '../lib/person-names';
import { SignInText } from './sign-in-text';

/** How a person signs in, from the screen's one names request (lib/person-names.ts): no request of its own. */
export const PersonSignIn = ({ id, testId }: { id: string; testId?: string }) => {
  const { name, loading } = usePersonName(id);
  return <SignInText name={name} loading={loading} testId={testId} />;
};
