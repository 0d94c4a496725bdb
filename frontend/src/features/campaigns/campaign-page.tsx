import { Suspense } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { isStaff } from '../../../../shared/auth/groups';
import { ErrorAlert } from '../../components/form-parts';
import { When } from '../../components/when';
import { useApi } from '../../lib/api';
import { sectionOf } from '../../lib/navigation';
import { ObjectIdLine } from '../../lib/object-id-line';
import { errorOf } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { useObjectDeletion } from '../../lib/use-object-deletion';
import { CampaignDatasets } from '../datasets';
import { IntegrationsPanel } from '../integrations';
import { MembersPanel, useMyRoles } from '../relations';
import { CampaignComparison } from '../sensor-data/public-campaign-comparison';
import { CampaignQualityPanel } from '../sensor-data/public-campaign-quality';
import { campaignShownKeys, useCampaign } from './campaign-api';
import { CampaignEditForm } from './campaign-forms';
import { CampaignStatusBadge } from './campaign-parts';
import { mayManageCampaign, windowText } from './campaign-rules';
import { ParticipantInvites } from './participant-invites';

/**
 * `/dashboard/campaigns/:id` (and `/admin/campaigns/:id`): a campaign's window and status, its edit form and
 * participant invites for its managers and staff, its devices' data compared on one chart per measurement, and its
 * members and devices.
 */
export const CampaignPage = () => {
  const id = useParams().id ?? '';
  return <CampaignScreen key={id} id={id} />;
};

const CampaignScreen = ({ id }: { id: string }) => {
  const campaignsApi = useApi('campaigns');
  const user = useSignedInUser();
  const staff = isStaff(user.groups);
  const mine = useMyRoles('campaign', id, user.id, staff);
  const manage = mayManageCampaign(mine.roles, staff);
  const base = `/${sectionOf(useLocation().pathname)}`;
  const query = useCampaign(id);
  const campaign = query.data;
  const error = errorOf(query);
  const deletion = useObjectDeletion(() => campaignsApi.delete({ params: { id } }), base, campaignShownKeys(id));

  const remove = () => {
    if (campaign) deletion.confirmAndDelete(`Delete the campaign ${campaign.name} with its members and devices list?`);
  };

  return (
    <section className="page">
      <h1 className="title-with-badge">
        <span data-testid="campaign-title">{campaign?.name ?? 'Campaign'}</span>
        {campaign && <CampaignStatusBadge status={campaign.status} testId="campaign-status" />}
      </h1>
      <ObjectIdLine id={id} />
      <ErrorAlert testId="campaign-error" error={error ?? deletion.error ?? mine.error} />
      {!campaign && !error && <p className="muted">Loading the campaign…</p>}

      {campaign && (
        <>
          <dl className="facts card" data-testid="campaign-facts">
            <dt>Window</dt>
            <dd data-testid="campaign-window">{windowText(campaign)}</dd>
            <dt>Status</dt>
            <dd>
              <CampaignStatusBadge status={campaign.status} />
            </dd>
            <dt>Description</dt>
            <dd data-testid="campaign-description">{campaign.description || <span className="muted">None</span>}</dd>
            <dt>Organization</dt>
            <dd data-testid="campaign-organization">
              {campaign.organizationId ? (
                <Link to={`${base}/organizations/${encodeURIComponent(campaign.organizationId)}`} className="mono">
                  {campaign.organizationId}
                </Link>
              ) : (
                <span className="muted">None</span>
              )}
            </dd>
            <dt>Created</dt>
            <dd>
              <When ms={campaign.created} />
            </dd>
          </dl>
          <p className="muted small">Members see the data of the campaign's devices only within its window.</p>
        </>
      )}
      {/* Asked for beside the campaign, not after it: the comparison is the page's heaviest read. */}
      {!error && (
        <Suspense fallback={<p className="muted">Loading the charts…</p>}>
          <CampaignComparison campaignId={id} />
        </Suspense>
      )}
      {campaign && manage && <CampaignEditForm campaign={campaign} />}
      {campaign && manage && <ParticipantInvites campaignId={campaign.id} user={user} />}

      <section className="card section-card" aria-labelledby="campaign-members-heading">
        <h2 id="campaign-members-heading">Members and devices</h2>
        <MembersPanel key={id} kind="campaign" objectId={id} />
      </section>

      {campaign && <CampaignDatasets campaignId={campaign.id} manage={manage} />}

      {campaign && manage && (
        <Suspense fallback={<p className="muted">Loading the data quality…</p>}>
          <CampaignQualityPanel campaign={campaign} />
        </Suspense>
      )}
      {campaign && manage && (
        <Suspense fallback={<p className="muted">Loading the integrations…</p>}>
          <IntegrationsPanel kind="campaign" id={campaign.id} />
        </Suspense>
      )}

      {campaign && manage && (
        <div className="danger-zone">
          <button
            type="button"
            className="danger"
            data-testid="campaign-delete"
            onClick={remove}
            disabled={deletion.busy}
          >
            {deletion.busy ? 'Deleting…' : 'Delete the campaign'}
          </button>
        </div>
      )}
    </section>
  );
};
