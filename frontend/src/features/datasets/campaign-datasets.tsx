import { Link } from 'react-router-dom';
import { PagedList } from '../../components/paged-list';
import { useRoutePages } from '../../lib/query';
import { DatasetTable } from './dataset-table';

/** A campaign page's datasets: the ones made of it that the viewer may read, and, for its managers, a way to make one. */
export const CampaignDatasets = ({ campaignId, manage }: { campaignId: string; manage: boolean }) => {
  const list = useRoutePages('datasets', 'listCampaignDatasets', { params: { id: campaignId }, query: { limit: 20 } });
  return (
    <section className="card section-card" aria-labelledby="campaign-datasets-heading">
      <h2 id="campaign-datasets-heading">Datasets</h2>
      <PagedList list={list} name="campaign-datasets" empty="No datasets of this campaign yet.">
        <DatasetTable datasets={list.items} testId="campaign-datasets" label="Datasets of the campaign" />
      </PagedList>
      {manage && (
        <p>
          <Link
            to={`/dashboard/datasets/new?campaignId=${encodeURIComponent(campaignId)}`}
            className="button-link"
            data-testid="campaign-make-dataset"
          >
            Make a dataset of this campaign
          </Link>
        </p>
      )}
    </section>
  );
};
