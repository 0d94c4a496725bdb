import { Link } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { Organization } from '../../../../shared/contracts/organizations';
import { TableScroll } from '../../components/table-scroll';
import { LoadMoreButton } from '../../lib/load-more-button';
import { useRoutePages } from '../../lib/query';
import { When } from '../people/person-parts';
import { ErrorAlert } from '../relations/relation-fields';

/** `/admin/organizations`: every organization (staff), paged. */
export const AdminOrganizationsPage = () => {
  const list = useRoutePages('organizations', 'listAll', { query: { limit: DEFAULT_PAGE_SIZE } });
  return (
    <section className="page">
      <h1>Organizations</h1>
      <ErrorAlert testId="admin-organizations-error" error={list.error} />
      <TableScroll label="Organizations">
        <table className="table" data-testid="admin-organizations">
          <thead>
            <tr>
              <th scope="col">Organization</th>
              <th scope="col">Contact</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((organization) => (
              <tr key={organization.id} data-testid={`admin-organizations-row-${organization.id}`}>
                <th scope="row">
                  <span className="registry-line">
                    {organization.logoUrl && <img className="logo-thumb" src={organization.logoUrl} alt="" />}
                    <Link to={`/admin/organizations/${encodeURIComponent(organization.id)}`}>{organization.name}</Link>
                  </span>
                </th>
                <td data-label="Contact">{organization.contactEmail ?? <span className="muted">—</span>}</td>
                <td data-label="Created">
                  <When ms={organization.created} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {list.loading === 'first' && <p className="muted">Loading organizations…</p>}
      {list.loaded && list.items.length === 0 && <p className="muted">No organizations.</p>}
      <LoadMoreButton list={list} testId="admin-organizations-load-more" />
    </section>
  );
};
