import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import { ErrorAlert } from '../../components/form-parts';
import { LoadMoreButton } from '../../lib/load-more-button';
import { useRoutePages } from '../../lib/query';
import { CampaignTable } from './campaign-parts';

/** `/admin/campaigns`: every campaign (staff), paged. */
export const AdminCampaignsPage = () => {
  const list = useRoutePages('campaigns', 'listAll', { query: { limit: DEFAULT_PAGE_SIZE } });
  return (
    <section className="page">
      <h1>Campaigns</h1>
      <ErrorAlert testId="admin-campaigns-error" error={list.error} />
      <CampaignTable campaigns={list.items} base="/admin" testId="admin-campaigns" />
      {list.loading === 'first' && <p className="muted">Loading campaigns…</p>}
      {list.loaded && list.items.length === 0 && <p className="muted">No campaigns.</p>}
      <LoadMoreButton list={list} testId="admin-campaigns-load-more" />
    </section>
  );
};
