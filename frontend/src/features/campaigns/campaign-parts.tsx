import { Link } from 'react-router-dom';
import type { Campaign, CampaignStatus } from '../../../../shared/contracts/campaigns';
import { TableScroll } from '../../components/table-scroll';
import { CAMPAIGN_STATUS_TEXT, windowText } from './campaign-rules';

export const CampaignStatusBadge = ({ status, testId }: { status: CampaignStatus; testId?: string }) => (
  <span className={`badge badge-campaign-${status}`} data-testid={testId} data-status={status}>
    {CAMPAIGN_STATUS_TEXT[status]}
  </span>
);

/** Campaigns as a table: name, window, status (and, optionally, a further column). */
export const CampaignTable = ({
  campaigns,
  base,
  testId,
}: {
  campaigns: readonly Campaign[];
  base: string;
  testId: string;
}) => (
  <TableScroll label="Campaigns">
    <table className="table" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">Campaign</th>
          <th scope="col">Window</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {campaigns.map((campaign) => (
          <tr key={campaign.id} data-testid={`${testId}-row-${campaign.id}`}>
            <th scope="row">
              <Link to={`${base}/campaigns/${encodeURIComponent(campaign.id)}`}>{campaign.name}</Link>
            </th>
            <td data-label="Window">{windowText(campaign)}</td>
            <td data-label="Status">
              <CampaignStatusBadge status={campaign.status} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  </TableScroll>
);
