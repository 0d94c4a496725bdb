import { Suspense, useState } from 'react';
import { useLocation, useParams } from 'react-router-dom';
import { isStaff } from '../../../../shared/auth/groups';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import { ErrorAlert } from '../../components/form-parts';
import { PagedList } from '../../components/paged-list';
import { When } from '../../components/when';
import { useApi } from '../../lib/api';
import { sectionOf } from '../../lib/navigation';
import { ObjectIdLine } from '../../lib/object-id-line';
import { errorOf, useRoutePages } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { useObjectDeletion } from '../../lib/use-object-deletion';
import { CampaignTable, NewCampaignForm } from '../campaigns';
import { IntegrationsPanel } from '../integrations';
import { MembersPanel, useMyRoles } from '../relations';
import { LogoUploader } from './logo-uploader';
import { organizationListKeys, useOrganization } from './organization-api';
import { OrganizationEditForm } from './organization-forms';
import { mayManageOrganization } from './organization-rules';

/**
 * `/dashboard/organizations/:id` (and `/admin/organizations/:id`): the organization with its logo, its edit
 * form and logo upload for its managers and staff, its members and devices, and its campaigns.
 */
export const OrganizationPage = () => {
  const id = useParams().id ?? '';
  return <OrganizationScreen key={id} id={id} />;
};

const OrganizationScreen = ({ id }: { id: string }) => {
  const organizationsApi = useApi('organizations');
  const user = useSignedInUser();
  const staff = isStaff(user.groups);
  const mine = useMyRoles('organization', id, user.id, staff);
  const manage = mayManageOrganization(mine.roles, staff);
  const base = `/${sectionOf(useLocation().pathname)}`;
  const query = useOrganization(id);
  const organization = query.data;
  const error = errorOf(query);
  const deletion = useObjectDeletion(() => organizationsApi.delete({ params: { id } }), base, organizationListKeys);

  const remove = () => {
    if (organization) {
      deletion.confirmAndDelete(`Delete ${organization.name} with its members, devices list and logo?`);
    }
  };

  return (
    <section className="page">
      <div className="organization-head">
        {organization?.logoUrl && (
          <img
            className="organization-logo"
            src={organization.logoUrl}
            alt={`Logo of ${organization.name}`}
            data-testid="organization-logo"
          />
        )}
        <div>
          <h1 data-testid="organization-title">{organization?.name ?? 'Organization'}</h1>
          <ObjectIdLine id={id} />
        </div>
      </div>
      <ErrorAlert testId="organization-error" error={error ?? deletion.error ?? mine.error} />
      {!organization && !error && <p className="muted">Loading the organization…</p>}

      {organization && (
        <>
          <dl className="facts card" data-testid="organization-facts">
            <dt>Description</dt>
            <dd data-testid="organization-description">
              {organization.description || <span className="muted">None</span>}
            </dd>
            <dt>Website</dt>
            <dd data-testid="organization-website">
              {organization.website ? (
                <a href={organization.website} target="_blank" rel="noopener noreferrer nofollow">
                  {organization.website}
                </a>
              ) : (
                <span className="muted">None</span>
              )}
            </dd>
            <dt>Contact</dt>
            <dd data-testid="organization-contact">
              {organization.contactEmail ? (
                <a href={`mailto:${organization.contactEmail}`}>{organization.contactEmail}</a>
              ) : (
                <span className="muted">None</span>
              )}
            </dd>
            <dt>Created</dt>
            <dd>
              <When ms={organization.created} />
            </dd>
          </dl>
          {manage && <OrganizationEditForm organization={organization} />}
          {manage && <LogoUploader organization={organization} />}
        </>
      )}

      <section className="card section-card" aria-labelledby="organization-members-heading">
        <h2 id="organization-members-heading">Members and devices</h2>
        <MembersPanel key={id} kind="organization" objectId={id} />
      </section>

      {organization && <OrganizationCampaigns organizationId={id} base={base} manage={manage} />}

      {organization && manage && (
        <Suspense fallback={<p className="muted">Loading the integrations…</p>}>
          <IntegrationsPanel kind="organization" id={id} />
        </Suspense>
      )}

      {organization && manage && (
        <div className="danger-zone">
          <button
            type="button"
            className="danger"
            data-testid="organization-delete"
            onClick={remove}
            disabled={deletion.busy}
          >
            {deletion.busy ? 'Deleting…' : 'Delete the organization'}
          </button>
        </div>
      )}
    </section>
  );
};

const OrganizationCampaigns = ({
  organizationId,
  base,
  manage,
}: {
  organizationId: string;
  base: string;
  manage: boolean;
}) => {
  const [creating, setCreating] = useState(false);
  const list = useRoutePages('campaigns', 'listByOrganization', {
    params: { id: organizationId },
    query: { limit: DEFAULT_PAGE_SIZE },
  });
  return (
    <section className="card section-card" aria-labelledby="organization-campaigns-heading">
      <h2 id="organization-campaigns-heading">Campaigns</h2>
      <PagedList list={list} name="organization-campaigns" empty="No campaigns yet.">
        <CampaignTable campaigns={list.items} base={base} testId="organization-campaigns" />
      </PagedList>
      {manage &&
        (creating ? (
          <NewCampaignForm organizationId={organizationId} onCancel={() => setCreating(false)} />
        ) : (
          <button type="button" data-testid="organization-new-campaign" onClick={() => setCreating(true)}>
            New campaign for this organization
          </button>
        ))}
    </section>
  );
};
