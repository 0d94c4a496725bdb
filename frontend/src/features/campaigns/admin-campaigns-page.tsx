import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import { PagedList } from '../../components/paged-list';
import { useRoutePages } from '../../lib/query';
import { CampaignTable } from './campaign-parts';

/** `/admin/campaigns`: every campaign (staff), paged. */
export const AdminCampaignsPage = () => {
  const list = useRoutePages('campaigns', 'listAll', { query: { limit: DEFAULT_PAGE_SIZE } });
  return (
    <section className="page">
      <h1>Campaigns</h1>
      <PagedList list={list} name="admin-campaigns" loadingText="Loading campaigns…" empty="No campaigns.">
        <CampaignTable campaigns={list.items} base="/admin" testId="admin-campaigns" />
      </PagedList>
    </section>
  );
};
