import { useQueryClient } from '@tanstack/react-query';
import { firstAnswer, firstPage, type PagesRead, type Read, suspendOn } from './first-reads';

/**
 * `useFirstReads` and `useFirstPages` at once (lib/first-reads.ts), for a screen with both kinds above its controls:
 * every read starts before the first wait, so they go out side by side rather than one after the other. A module of
 * its own so that only the screens that use it carry it, not the app's entry (test/support/web-budgets.ts).
 */
export const useFirstAnswers = <R extends unknown[], P extends unknown[]>({
  reads,
  pages,
}: {
  reads: { [K in keyof R]: Read<R[K]> | undefined };
  pages: { [K in keyof P]: PagesRead<P[K]> | undefined };
}): void => {
  const client = useQueryClient();
  suspendOn([
    ...reads.map((read) => read && firstAnswer(client, read)),
    ...pages.map((read) => read && firstPage(client, read)),
  ]);
};
