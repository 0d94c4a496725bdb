import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { AuthEvent } from '../../../../shared/contracts/users';
import { ErrorAlert } from '../../components/form-parts';
import { TableScroll } from '../../components/table-scroll';
import { When } from '../../components/when';
import { LoadMoreButton } from '../../lib/load-more-button';
import { useRoutePages } from '../../lib/query';
import { PEOPLE_MESSAGES } from './people-messages';

const RESULT_TEXT: Record<AuthEvent['response'], string> = {
  Pass: 'Succeeded',
  Fail: 'Failed',
  InProgress: 'Waiting for the second factor',
};

/** A person's recent sign-in events, newest first, paged. */
export const AuthEventsPanel = ({ userId, title = 'Recent sign-in events' }: { userId: string; title?: string }) => {
  const events = useRoutePages('users', 'adminListUserAuthEvents', {
    params: { id: userId },
    query: { limit: DEFAULT_PAGE_SIZE },
  });

  return (
    <section className="panel" aria-labelledby="auth-events-heading" data-testid="auth-events">
      <h2 id="auth-events-heading">{title}</h2>
      <ErrorAlert testId="auth-events-error" error={events.error} />
      <TableScroll labelledBy="auth-events-heading">
        <table className="table" aria-labelledby="auth-events-heading" aria-busy={events.loading === 'first'}>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Result</th>
              <th scope="col">Time</th>
              <th scope="col">Source</th>
            </tr>
          </thead>
          <tbody>
            {events.items.map((event) => (
              <tr key={event.id} data-testid={`auth-event-${event.id}`}>
                <th scope="row">{event.type}</th>
                <td data-label="Result">{RESULT_TEXT[event.response]}</td>
                <td data-label="Time">
                  <When ms={event.time} />
                </td>
                <td data-label="Source" className="muted small">
                  {event.source === 'platform' ? 'platform' : 'identity provider'}
                  {event.detail && ` · ${event.detail}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {events.loading === 'first' && <p className="muted">{PEOPLE_MESSAGES.loading}</p>}
      {events.loaded && events.items.length === 0 && !events.nextCursor && (
        <p className="muted" data-testid="auth-events-empty">
          {PEOPLE_MESSAGES.noEvents}
        </p>
      )}
      <LoadMoreButton list={events} testId="auth-events-load-more" />
    </section>
  );
};
