import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { isStaff } from '../../../shared/auth/groups';
import { adminEquivalent, sectionOf } from '../lib/navigation';
import { useSession, useSignedInUser } from '../lib/session';

const SECTION_LABEL = { admin: 'Admin', dashboard: 'Dashboard' } as const;

/** The signed-in shell: header with the current section (spec §2), navigation, user and sign-out. */
export const AppLayout = () => {
  const { signOut } = useSession();
  const user = useSignedInUser();
  const { pathname } = useLocation();
  const section = sectionOf(pathname);
  const staff = isStaff(user.groups);

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
          <NavLink to="/dashboard">Dashboard</NavLink>
          {staff && (
            <NavLink to={adminEquivalent(pathname) ?? '/admin'} end>
              Admin
            </NavLink>
          )}
          {staff && section === 'admin' && <NavLink to="/admin/parameters">Parameters</NavLink>}
          {staff && section === 'admin' && <NavLink to="/admin/relations">Relations</NavLink>}
        </nav>
        <div className="account">
          <span className="user" data-testid="header-user" title={user.groups.join(', ')}>
            {user.email ?? user.username}
          </span>
          <button type="button" data-testid="sign-out" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main className="main">
        <Outlet />
      </main>
    </div>
  );
};
