import { Link } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import { ListTable } from '../../components/list-table';
import { PagedList } from '../../components/paged-list';
import { When } from '../../components/when';
import { useRoutePages } from '../../lib/query';

/** `/admin/organizations`: every organization (staff), paged. */
export const AdminOrganizationsPage = () => {
  const list = useRoutePages('organizations', 'listAll', { query: { limit: DEFAULT_PAGE_SIZE } });
  return (
    <section className="page">
      <h1>Organizations</h1>
      <PagedList list={list} name="admin-organizations" loadingText="Loading organizations…" empty="No organizations.">
        <ListTable
          label="Organizations"
          testId="admin-organizations"
          rows={list.items}
          rowKey={(organization) => organization.id}
          rowTestId={(organization) => `admin-organizations-row-${organization.id}`}
          columns={[
            {
              header: 'Organization',
              cell: (organization) => (
                <span className="registry-line">
                  {organization.logoUrl && <img className="logo-thumb" src={organization.logoUrl} alt="" />}
                  <Link to={`/admin/organizations/${encodeURIComponent(organization.id)}`}>{organization.name}</Link>
                </span>
              ),
            },
            {
              header: 'Contact',
              cell: (organization) => organization.contactEmail ?? <span className="muted">—</span>,
            },
            { header: 'Created', cell: (organization) => <When ms={organization.created} /> },
          ]}
        />
      </PagedList>
    </section>
  );
};
