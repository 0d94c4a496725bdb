import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { isStaff } from '../../../../shared/auth/groups';
import { LoadingPage } from '../../components/loading-page';
import { loginRedirect } from '../../lib/navigation';
import { useSession } from '../../lib/session';
import { NotAllowedPage } from './not-allowed-page';

/**
 * Route guard for /admin: Employees and Administrators pass; a guest goes to the login page that brings them
 * back; any other signed-in user sees why they cannot.
 */
export const RequireStaff = () => {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <LoadingPage />;
  if (state.status === 'guest') return <Navigate to={loginRedirect(location, state.ended)} replace />;
  return isStaff(state.user.groups) ? <Outlet /> : <NotAllowedPage />;
};
