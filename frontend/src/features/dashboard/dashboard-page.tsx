import { useCallback } from 'react';
import { Link } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import { useApi } from '../../lib/api';
import { LoadMoreButton } from '../../lib/load-more-button';
import { useOptionalUser } from '../../lib/session';
import type { SessionUser } from '../../lib/session-user';
import { UI_MESSAGES } from '../../lib/ui-messages';
import { SignInPrompt } from '../auth/sign-in-prompt';
import { DashboardInvites } from '../invites/dashboard-invites';
import { ErrorAlert } from '../relations/relation-fields';
import { GROUP_ORDER, groupByReferrerKind, KIND_TITLE, objectPath } from '../relations/relation-groups';
import type { PageLoader } from '../relations/relation-list';
import { RELATIONS_MESSAGES } from '../relations/relations-messages';
import { usePagedRelations } from '../relations/use-paged-relations';

/**
 * `/dashboard`, open to guests (spec §1: sign-in is not mandatory): public content for everyone; who is
 * signed in and the devices, organizations and campaigns they belong to, or a sign-in link for a guest.
 */
export const DashboardPage = () => {
  const user = useOptionalUser();
  if (!user) {
    return (
      <section className="page" data-testid="dashboard-guest">
        <h1>Welcome</h1>
        <p>{UI_MESSAGES.guestDashboard}</p>
        <SignInPrompt what="your devices, organizations and campaigns" />
      </section>
    );
  }
  return <MyDashboard user={user} />;
};

const MyDashboard = ({ user }: { user: SessionUser }) => {
  const relations = useApi('relations');
  const load = useCallback<PageLoader>(
    (cursor) => relations.listByReferentId({ params: { id: user.id, x: DEFAULT_PAGE_SIZE }, query: { cursor } }),
    [relations, user.id],
  );
  const mine = usePagedRelations(user.id ? load : undefined);
  const groups = groupByReferrerKind(mine.items);

  return (
    <section className="page">
      <h1>Welcome</h1>
      <dl className="facts">
        <dt>Signed in as</dt>
        <dd data-testid="dashboard-email">{user.email ?? user.username}</dd>
        <dt>Groups</dt>
        <dd data-testid="dashboard-groups">
          {user.groups.length ? (
            <ul className="tags">
              {user.groups.map((group) => (
                <li key={group}>{group}</li>
              ))}
            </ul>
          ) : (
            <span className="muted">None</span>
          )}
        </dd>
      </dl>
      <DashboardInvites user={user} />

      <ErrorAlert testId="dashboard-error" error={mine.error} />
      {mine.loading === 'first' && <p className="muted">Loading your relations…</p>}
      <div className="cards" data-testid="dashboard-relations">
        {GROUP_ORDER.map((kind) => (
          <article key={kind} className="card" data-testid={`dashboard-group-${kind}`}>
            <h2>{KIND_TITLE[kind]}</h2>
            {groups[kind].length ? (
              <ul className="link-list">
                {groups[kind].map((relation) => (
                  <li key={relation.id} data-testid={`dashboard-relation-${relation.id}`}>
                    <Link to={objectPath(kind, relation.referrerId)} className="mono">
                      {relation.referrerId}
                    </Link>
                    <span className="muted small">{relation.type}</span>
                  </li>
                ))}
              </ul>
            ) : (
              mine.loaded && <p className="muted">{RELATIONS_MESSAGES.noneOfKind}</p>
            )}
          </article>
        ))}
        {groups.other.length > 0 && (
          <article className="card" data-testid="dashboard-group-other">
            <h2>Other</h2>
            <ul className="link-list">
              {groups.other.map((relation) => (
                <li key={relation.id} data-testid={`dashboard-relation-${relation.id}`}>
                  <span className="mono">{relation.referrerId}</span>
                  <span className="muted small">{relation.type}</span>
                </li>
              ))}
            </ul>
          </article>
        )}
      </div>
      <LoadMoreButton list={mine} testId="dashboard-load-more" />
    </section>
  );
};
