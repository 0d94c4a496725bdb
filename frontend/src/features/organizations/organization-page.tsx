import { ObjectPage } from '../relations/object-page';

/** `/dashboard/organizations/:id`: a placeholder until the organizations area's own page; for now its members. */
export const OrganizationPage = () => <ObjectPage kind="organization" />;
