import { Link } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import { PRODUCT_LINE_NAMES } from '../../../../shared/text/product-words';
import { listItem, PagedList } from '../../components/paged-list';
import { When } from '../../components/when';
import { type ListState, routePagesQuery, useRoutePages } from '../../lib/query';
import { CampaignStatusBadge, windowText } from '../campaigns/public-dashboard';
import { deviceLabel, ROLE_TEXT, StatusBadge } from '../devices';
import { objectPath } from '../relations';

/** The caller's devices, organizations and campaigns on the dashboard: each a paged list with its status. */

const FIRST_PAGE = { query: { limit: DEFAULT_PAGE_SIZE } };

/** The first page of each card, for the dashboard drawn with them (lib/first-reads.ts): they grow above its map. */
export const registryFirstPages = () =>
  [
    routePagesQuery('devices', 'listMine', FIRST_PAGE),
    routePagesQuery('organizations', 'listMine', FIRST_PAGE),
    routePagesQuery('campaigns', 'listMine', FIRST_PAGE),
  ] as const;

const roleWord = (role: string, kind: 'organization' | 'campaign') => role.replace(`${kind}-`, '');

const Card = <T extends { id: string }>({
  title,
  testId,
  list,
  empty,
  row,
}: {
  title: string;
  testId: string;
  list: ListState<T>;
  empty: string;
  row: (item: T) => React.ReactNode;
}) => (
  <article className="card registry-card" data-testid={testId} aria-labelledby={`${testId}-heading`}>
    <h2 id={`${testId}-heading`}>{title}</h2>
    <PagedList list={list} name={testId} empty={empty}>
      <ul className="registry-list">
        {list.items.map((item) => (
          <li key={item.id} data-testid={`${testId}-row-${item.id}`} {...listItem(item.id)}>
            {row(item)}
          </li>
        ))}
      </ul>
    </PagedList>
  </article>
);

export const MyDevices = () => {
  return (
    <Card
      title="My devices"
      testId="my-devices"
      list={useRoutePages('devices', 'listMine', FIRST_PAGE)}
      empty="No devices yet: claim one with the serial and code on its label."
      row={(device) => (
        <>
          <div className="registry-line">
            <Link to={objectPath('device', device.id)} data-testid={`my-devices-link-${device.id}`}>
              {deviceLabel(device)}
            </Link>
            <StatusBadge status={device.status} testId={`my-devices-status-${device.id}`} />
          </div>
          <div className="muted small">
            {PRODUCT_LINE_NAMES[device.productLine]} · {ROLE_TEXT[device.role]} · last seen{' '}
            {device.lastSeen ? <When ms={device.lastSeen} /> : 'never'}
          </div>
        </>
      )}
    />
  );
};

export const MyOrganizations = () => {
  return (
    <Card
      title="My organizations"
      testId="my-organizations"
      list={useRoutePages('organizations', 'listMine', FIRST_PAGE)}
      empty="No organizations yet."
      row={(organization) => (
        <div className="registry-line">
          {organization.logoUrl ? (
            <img
              className="logo-thumb"
              src={organization.logoUrl}
              alt=""
              data-testid={`my-organizations-logo-${organization.id}`}
            />
          ) : (
            <span className="logo-thumb logo-placeholder" aria-hidden="true">
              {organization.name.slice(0, 1).toUpperCase()}
            </span>
          )}
          <Link
            to={objectPath('organization', organization.id)}
            data-testid={`my-organizations-link-${organization.id}`}
          >
            {organization.name}
          </Link>
          <span className="muted small">{organization.roles.map((r) => roleWord(r, 'organization')).join(', ')}</span>
        </div>
      )}
    />
  );
};

export const MyCampaigns = () => {
  return (
    <Card
      title="My campaigns"
      testId="my-campaigns"
      list={useRoutePages('campaigns', 'listMine', FIRST_PAGE)}
      empty="No campaigns yet."
      row={(campaign) => (
        <>
          <div className="registry-line">
            <Link to={objectPath('campaign', campaign.id)} data-testid={`my-campaigns-link-${campaign.id}`}>
              {campaign.name}
            </Link>
            <CampaignStatusBadge status={campaign.status} testId={`my-campaigns-status-${campaign.id}`} />
          </div>
          <div className="muted small">
            {windowText(campaign)} · {campaign.roles.map((r) => roleWord(r, 'campaign')).join(', ')}
          </div>
        </>
      )}
    />
  );
};
