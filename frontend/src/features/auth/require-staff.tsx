import { Outlet } from 'react-router-dom';
import { isStaff } from '../../../../shared/auth/groups';
import { useSignedInUser } from '../../lib/session';
import { NotAllowedPage } from './not-allowed-page';

/** Route guard for /admin: Employees and Administrators pass; everyone else sees why they cannot. */
export const RequireStaff = () => {
  const { groups } = useSignedInUser();
  return isStaff(groups) ? <Outlet /> : <NotAllowedPage />;
};
