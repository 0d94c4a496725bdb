import { Link } from 'react-router-dom';
import type { Campaign, CampaignStatus } from '../../../../shared/contracts/campaigns';
import { ListTable } from '../../components/list-table';
import { CAMPAIGN_STATUS_TEXT, windowText } from './campaign-rules';

export const CampaignStatusBadge = ({ status, testId }: { status: CampaignStatus; testId?: string }) => (
  <span className={`badge badge-campaign-${status}`} data-testid={testId} data-status={status}>
    {CAMPAIGN_STATUS_TEXT[status]}
  </span>
);

/** Campaigns as a table: name (to its page), window, status. */
export const CampaignTable = ({
  campaigns,
  base,
  testId,
}: {
  campaigns: readonly Campaign[];
  base: string;
  testId: string;
}) => (
  <ListTable
    label="Campaigns"
    testId={testId}
    rows={campaigns}
    rowKey={(campaign) => campaign.id}
    rowTestId={(campaign) => `${testId}-row-${campaign.id}`}
    columns={[
      {
        header: 'Campaign',
        cell: (campaign) => <Link to={`${base}/campaigns/${encodeURIComponent(campaign.id)}`}>{campaign.name}</Link>,
      },
      { header: 'Window', cell: (campaign) => windowText(campaign) },
      { header: 'Status', cell: (campaign) => <CampaignStatusBadge status={campaign.status} /> },
    ]}
  />
);
