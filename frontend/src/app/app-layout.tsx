import { Link, Navigate, NavLink, Outlet, useLocation } from 'react-router-dom';
import { isStaff } from '../../../shared/auth/groups';
import { adminEquivalent, loginPath, loginRedirect, sectionOf } from '../lib/navigation';
import { useSession } from '../lib/session';
import { UI_MESSAGES } from '../lib/ui-messages';
import { LoadingPage } from './loading-page';

const SECTION_LABEL = { admin: 'Admin', dashboard: 'Dashboard' } as const;

/**
 * The shell of every page but the login page: header with the current section (spec §2), navigation, and
 * the user with sign-out, or a sign-in link for a guest. A session that ended on its own (expired, or
 * signed out in another tab) sends the user to the login page that brings them back here, with the reason.
 */
export const AppLayout = () => {
  const { state, signOut } = useSession();
  const location = useLocation();
  const { pathname } = location;
  const section = sectionOf(pathname);

  if (state.status === 'loading') return <LoadingPage />;
  if (state.status === 'guest' && (state.ended === 'session-expired' || state.ended === 'signed-out-elsewhere')) {
    return <Navigate to={loginRedirect(location, state.ended)} replace />;
  }
  const user = state.status === 'signed-in' ? state.user : undefined;
  const staff = user ? isStaff(user.groups) : false;

  return (
    <div className="shell">
      <header className="header">
        <div className="brand">
          <span className="brand-name">Device Data Platform</span>
          <span className={`section section-${section}`} data-testid="header-section">
            {SECTION_LABEL[section]}
          </span>
        </div>
        <nav className="nav" aria-label="Main">
          <NavLink to="/dashboard" end={!user}>
            Dashboard
          </NavLink>
          {user && (
            <NavLink to={`/dashboard/people/${encodeURIComponent(user.id)}`} data-testid="nav-account">
              My account
            </NavLink>
          )}
          {user && (
            <NavLink to="/dashboard/api" data-testid="nav-api">
              API
            </NavLink>
          )}
          {staff && (
            <NavLink to={adminEquivalent(pathname) ?? '/admin'} end>
              Admin
            </NavLink>
          )}
          {staff && section === 'admin' && <NavLink to="/admin/devices">Devices</NavLink>}
          {staff && section === 'admin' && <NavLink to="/admin/organizations">Organizations</NavLink>}
          {staff && section === 'admin' && <NavLink to="/admin/campaigns">Campaigns</NavLink>}
          {staff && section === 'admin' && <NavLink to="/admin/parameters">Parameters</NavLink>}
          {staff && section === 'admin' && <NavLink to="/admin/relations">Relations</NavLink>}
        </nav>
        <div className="account">
          {user ? (
            <>
              <span className="user" data-testid="header-user" title={user.groups.join(', ')}>
                {user.email ?? user.username}
              </span>
              <button type="button" data-testid="sign-out" onClick={() => void signOut()}>
                Sign out
              </button>
            </>
          ) : (
            <Link to={loginPath(location)} className="button-link" data-testid="header-sign-in">
              {UI_MESSAGES.signIn}
            </Link>
          )}
        </div>
      </header>
      <main className="main">
        <Outlet />
      </main>
    </div>
  );
};
