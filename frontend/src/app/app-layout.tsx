import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation } from 'react-router-dom';
import { hasRole, isStaff } from '../../../shared/auth/groups';
import { LoadingPage } from '../components/loading-page';
import { CartLink } from '../features/billing/cart-link';
import { MenuUnread, NotificationBell } from '../features/notifications/notification-bell';
import { takeLostFocus } from '../lib/lost-focus';
import { adminEquivalent, loginPath, loginRedirect, sectionOf } from '../lib/navigation';
import { APP_NAME } from '../lib/page-title';
import { useSession } from '../lib/session';
import { UI_MESSAGES } from '../lib/ui-messages';

/** The banner bar is a chunk of its own, loaded once someone is signed in (guests never download it). */
const BannerBar = lazy(async () => ({ default: (await import('../features/notifications/banner-bar')).BannerBar }));

const SECTION_LABEL = { admin: 'Admin', dashboard: 'Dashboard' } as const;

const MENU_ID = 'header-menu';

/** The staff area's own pages, shown as a second row inside /admin so the header stays one row. */
const ADMIN_PAGES = [
  ['/admin', 'Overview'],
  ['/admin/devices', 'Devices'],
  ['/admin/organizations', 'Organizations'],
  ['/admin/campaigns', 'Campaigns'],
  ['/admin/releases', 'Releases'],
  ['/admin/people', 'People'],
  ['/admin/notifications', 'Notifications'],
  ['/admin/parameters', 'Parameters'],
  ['/admin/tiers', 'Tiers'],
  ['/admin/relations', 'Relations'],
  ['/admin/cache', 'Cache'],
  ['/admin/lookup', 'Look up'],
  // Administrators only (docs/audit.md): the page tells anyone else so, the link is not offered to them.
  ['/admin/audit', 'Audit log', 'Administrators'],
] as const;

/**
 * The shell of every page but the login page: header with the current section (spec §2), navigation, and
 * the user with sign-out, or a sign-in link for a guest. A session that ended on its own (expired, or
 * signed out in another tab) sends the user to the login page that brings them back here, with the reason.
 * Below 1024 px the navigation and account fold into a menu behind one button (app.css decides the width).
 */
export const AppLayout = () => {
  const { state, signOut } = useSession();
  const location = useLocation();
  const { pathname } = location;
  const section = sectionOf(pathname);
  // The menu is open on the page it was opened on: any navigation, the back button included, closes it.
  const [openOn, setOpenOn] = useState<string>();
  const open = openOn === pathname;
  const toggle = useRef<HTMLButtonElement>(null);
  const header = useRef<HTMLElement>(null);
  const main = useRef<HTMLElement>(null);

  // A followed link (or a submitted form's button) leaves with the page it was on: the new page's content takes
  // the focus, so Tab goes on from its top and a screen reader announces it (the sign-in form's fields too).
  // biome-ignore lint/correctness/useExhaustiveDependencies: each navigation (a new location key) is what it follows
  useEffect(() => {
    if (state.status !== 'loading') takeLostFocus(main.current);
  }, [location.key, state.status]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenOn(undefined);
      toggle.current?.focus();
    };
    // A tap anywhere outside the header puts the menu away, as people expect of a drop-down.
    const onPointer = (event: PointerEvent) => {
      if (!header.current?.contains(event.target as Node)) setOpenOn(undefined);
    };
    // A link to the page already shown changes no path, so a followed link closes the menu itself.
    const onClick = (event: MouseEvent) => {
      if ((event.target as Element).closest(`#${MENU_ID} a`)) setOpenOn(undefined);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('click', onClick);
    };
  }, [open]);

  if (state.status === 'loading') return <LoadingPage />;
  if (state.status === 'guest' && (state.ended === 'session-expired' || state.ended === 'signed-out-elsewhere')) {
    return <Navigate to={loginRedirect(location, state.ended)} replace />;
  }
  const user = state.status === 'signed-in' ? state.user : undefined;
  const staff = user ? isStaff(user.groups) : false;

  return (
    <div className="shell">
      <header className="header" ref={header}>
        <div className="header-bar">
          <div className="brand">
            <span className="brand-name">{APP_NAME}</span>
            <span className={`section section-${section}`} data-testid="header-section">
              {SECTION_LABEL[section]}
            </span>
          </div>
          <button
            type="button"
            ref={toggle}
            className="menu-toggle"
            aria-expanded={open}
            aria-controls={MENU_ID}
            data-testid="menu-toggle"
            onClick={() => setOpenOn(open ? undefined : pathname)}
          >
            <svg className="menu-icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
              <path d={open ? 'M4 4l12 12M16 4L4 16' : 'M3 5h14M3 10h14M3 15h14'} />
            </svg>
            Menu
            {user && <MenuUnread userId={user.id} />}
          </button>
        </div>
        <div id={MENU_ID} className="header-menu" data-open={open || undefined}>
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
            {user && <CartLink userId={user.id} />}
            {user && <NotificationBell userId={user.id} />}
            {/* Active on every /admin page: the admin pages' own links are in the row under the header. */}
            {staff && <NavLink to={adminEquivalent(pathname) ?? '/admin'}>Admin</NavLink>}
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
        </div>
      </header>
      {staff && section === 'admin' && (
        <nav className="subnav" aria-label="Admin pages" data-testid="admin-nav">
          {ADMIN_PAGES.map(
            ([to, text, group]) =>
              (!group || hasRole(user!.groups, group)) && (
                <NavLink key={to} to={to} end={to === '/admin'}>
                  {text}
                </NavLink>
              ),
          )}
        </nav>
      )}
      {user && (
        <Suspense fallback={null}>
          <BannerBar userId={user.id} />
        </Suspense>
      )}
      <main className="main" ref={main} tabIndex={-1}>
        {/* A page lives as long as the session's person: signed out (here or elsewhere), nothing of it renders again
            with the person gone. Under load, a panel for the signed-in owner (its people picker waiting on its chunk)
            rendered once more after sign-out and threw, and the page showed "This page could not load". */}
        <Outlet key={user?.id ?? 'guest'} />
      </main>
      <footer className="footer">
        <Link to="/privacy" data-testid="footer-privacy">
          Privacy
        </Link>
      </footer>
    </div>
  );
};
