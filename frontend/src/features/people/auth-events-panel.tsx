import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { AuthEvent } from '../../../../shared/contracts/users';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { When } from '../../components/when';
import { routePagesQuery, useRoutePages } from '../../lib/query';
import { PEOPLE_MESSAGES } from './people-messages';

const RESULT_TEXT: Record<AuthEvent['response'], string> = {
  Pass: 'Succeeded',
  Fail: 'Failed',
  InProgress: 'Waiting for the second factor',
};

const eventsRequest = (userId: string) => ({ params: { id: userId }, query: { limit: DEFAULT_PAGE_SIZE } });

/** The first page of a person's sign-in events, for a screen that waits for it (lib/first-reads.ts). */
export const authEventsPagesQuery = (userId: string) =>
  routePagesQuery('users', 'adminListUserAuthEvents', eventsRequest(userId));

/** A person's recent sign-in events, newest first, paged. */
export const AuthEventsPanel = ({ userId, title = 'Recent sign-in events' }: { userId: string; title?: string }) => {
  const events = useRoutePages('users', 'adminListUserAuthEvents', eventsRequest(userId));

  return (
    <section className="panel" aria-labelledby="auth-events-heading" data-testid="auth-events">
      <h2 id="auth-events-heading">{title}</h2>
      <PagedList
        list={events}
        name="auth-events"
        loadingText={PEOPLE_MESSAGES.loading}
        empty={PEOPLE_MESSAGES.noEvents}
      >
        <ListTable
          labelledBy="auth-events-heading"
          rows={events.items}
          rowKey={(event) => event.id}
          rowTestId={(event) => `auth-event-${event.id}`}
          columns={[
            { header: 'Event', cell: (event) => event.type },
            { header: 'Result', cell: (event) => RESULT_TEXT[event.response] },
            { header: 'Time', cell: (event) => <When ms={event.time} /> },
            {
              header: 'Source',
              className: 'muted small',
              cell: (event) => (
                <>
                  {event.source === 'platform' ? 'platform' : 'identity provider'}
                  {event.detail && ` · ${event.detail}`}
                </>
              ),
            },
          ]}
        />
      </PagedList>
    </section>
  );
};
