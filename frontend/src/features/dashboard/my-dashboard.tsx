import { Suspense, useState } from 'react';
import { Link } from 'react-router-dom';
import { hasRole } from '../../../../shared/auth/groups';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import { GroupTags } from '../../components/group-tags';
import { LoadingPage } from '../../components/loading-page';
import { listItem, PagedList } from '../../components/paged-list';
import { useFirstPages } from '../../lib/first-reads';
import { nameKey, useObjectNames } from '../../lib/object-names';
import { useRoutePages } from '../../lib/query';
import type { SessionUser } from '../../lib/session-user';
import { NewCampaignForm } from '../campaigns/public-dashboard';
import { ClaimDeviceForm, RegisterDeviceForm } from '../devices';
import { invitesFirstPage } from '../invites';
import { DeviceMapSection } from '../map';
import { NewOrganizationForm } from '../organizations';
import { GROUP_ORDER, groupByReferrerKind, KIND_TITLE, ObjectLink, RELATIONS_MESSAGES } from '../relations';
import { DashboardInvites } from './dashboard-invites';
import { MyCampaigns, MyDevices, MyOrganizations, registryFirstPages } from './my-registry';

// The create forms are lazy components of their features' public entries: they load when opened, so a guest's first
// page (issue 13) carries none of them.
type Action = 'claim' | 'organization' | 'campaign' | 'register';

const ACTIONS: readonly (readonly [Action, string])[] = [
  ['claim', 'Claim a device'],
  ['organization', 'New organization'],
  ['campaign', 'New campaign'],
];

/** The signed-in person's dashboard (see DashboardPage). */
export const MyDashboard = ({ user }: { user: SessionUser }) => {
  const mine = useRoutePages(
    'relations',
    'listByReferentId',
    { params: { id: user.id, x: DEFAULT_PAGE_SIZE }, query: {} },
    { enabled: !!user.id },
  );
  // Drawn with what grows above the map and the relations below it (docs/frontend-layout.md, "No lost clicks"): the
  // cards' first pages and the invites waiting for an answer; drawn as they arrived, they moved the page (CLS 0.079).
  useFirstPages(...registryFirstPages(), invitesFirstPage({ invitedEmail: user.email, status: 'pending' }));
  const groups = groupByReferrerKind(mine.items);
  const names = useObjectNames(
    GROUP_ORDER.flatMap((kind) => groups[kind].map((relation) => ({ kind, id: relation.referrerId }))),
  );

  return (
    <section className="page">
      <h1 data-page-title="Dashboard">Welcome</h1>
      <dl className="facts">
        <dt>Signed in as</dt>
        <dd data-testid="dashboard-email">{user.email ?? user.username}</dd>
        <dt>Groups</dt>
        <dd data-testid="dashboard-groups">
          <GroupTags groups={user.groups} />
        </dd>
      </dl>
      <DashboardInvites user={user} />

      <DashboardActions user={user} />
      <p>
        <Link to="/dashboard/datasets" data-testid="dashboard-datasets">
          Datasets
        </Link>
        : yours and the public ones, frozen and citable; build one of your devices or campaigns.
      </p>
      <div className="cards" data-testid="dashboard-registry">
        <MyDevices />
        <MyOrganizations />
        <MyCampaigns />
      </div>
      <DeviceMapSection scope="visible" title="Devices on the map" />

      <h2 className="section-heading">Everything you belong to</h2>
      <PagedList list={mine} name="dashboard" loadingText="Loading your relations…">
        <div className="cards cards-compact" data-testid="dashboard-relations">
          {GROUP_ORDER.map((kind) => (
            <article key={kind} className="card" data-testid={`dashboard-group-${kind}`}>
              <h3>{KIND_TITLE[kind]}</h3>
              {groups[kind].length ? (
                <ul className="link-list">
                  {groups[kind].map((relation) => (
                    <li key={relation.id} data-testid={`dashboard-relation-${relation.id}`} {...listItem(relation.id)}>
                      <ObjectLink
                        kind={kind}
                        id={relation.referrerId}
                        name={names.get(nameKey(kind, relation.referrerId))}
                      />
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
              <h3>Other</h3>
              <ul className="link-list">
                {groups.other.map((relation) => (
                  <li key={relation.id} data-testid={`dashboard-relation-${relation.id}`} {...listItem(relation.id)}>
                    <span className="mono">{relation.referrerId}</span>
                    <span className="muted small">{relation.type}</span>
                  </li>
                ))}
              </ul>
            </article>
          )}
        </div>
      </PagedList>
    </section>
  );
};

/** "Claim a device", "New organization", "New campaign" (and for Distributors and staff "Register a device"). */
const DashboardActions = ({ user }: { user: SessionUser }) => {
  const [open, setOpen] = useState<Action>();
  const actions = hasRole(user.groups, 'Distributors')
    ? [...ACTIONS, ['register', 'Register a device'] as const]
    : ACTIONS;
  const close = () => setOpen(undefined);
  return (
    <div className="dashboard-actions">
      <div className="actions" role="toolbar" aria-label="Create">
        {actions.map(([action, text]) => (
          <button
            key={action}
            type="button"
            className={open === action ? 'primary' : undefined}
            aria-expanded={open === action}
            data-testid={`dashboard-action-${action}`}
            onClick={() => setOpen(open === action ? undefined : action)}
          >
            {text}
          </button>
        ))}
      </div>
      <Suspense fallback={<LoadingPage />}>
        {open === 'claim' && <ClaimDeviceForm onCancel={close} />}
        {open === 'organization' && <NewOrganizationForm onCancel={close} />}
        {open === 'campaign' && <NewCampaignForm onCancel={close} />}
        {open === 'register' && <RegisterDeviceForm />}
      </Suspense>
    </div>
  );
};
