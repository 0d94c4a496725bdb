import type { QueryKey } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useChanges } from './query';

/**
 * Deleting the object on screen: once the person confirms `question`, `remove` runs, the lists that showed it
 * (`invalidates`) are read again, and the app goes to `to` (the object's page is gone); `busy` while it runs,
 * and the API's refusal as `error`.
 */
export const useObjectDeletion = (remove: () => Promise<unknown>, to: string, invalidates: readonly QueryKey[]) => {
  const navigate = useNavigate();
  const { busy, error, run } = useChanges<'delete'>();

  const confirmAndDelete = (question: string) => {
    if (!window.confirm(question)) return;
    void run(
      'delete',
      async () => {
        await remove();
        navigate(to);
      },
      invalidates,
    );
  };

  return { busy: busy === 'delete', error, confirmAndDelete };
};
