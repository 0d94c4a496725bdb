import { useNavigate } from 'react-router-dom';
import { useAction } from './use-action';

/**
 * Deleting the object on screen: once the person confirms `question`, `remove` runs and the app goes to `to`
 * (the object's page is gone); `busy` while it runs, and the API's refusal as `error`.
 */
export const useObjectDeletion = (remove: () => Promise<unknown>, to: string) => {
  const navigate = useNavigate();
  const { busy, error, run } = useAction<'delete'>();

  const confirmAndDelete = (question: string) => {
    if (!window.confirm(question)) return;
    void run('delete', async () => {
      await remove();
      navigate(to);
    });
  };

  return { busy: busy === 'delete', error, confirmAndDelete };
};
