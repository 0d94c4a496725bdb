import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { LoadingPage } from '../../components/loading-page';
import { loginRedirect } from '../../lib/navigation';
import { useSession } from '../../lib/session';

/** Route guard: signed-in users pass; guests go to the login page that brings them back (spec §2). */
export const RequireSession = () => {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <LoadingPage />;
  if (state.status === 'guest') return <Navigate to={loginRedirect(location, state.ended)} replace />;
  return <Outlet />;
};
