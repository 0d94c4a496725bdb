import { Suspense, use, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation } from 'react-router-dom';
import { hasRole, isStaff } from '../../../shared/auth/groups';
import { LoadingPage } from '../components/loading-page';
import { CART_PATH } from '../features/billing/add-to-cart';
import { cartQuery } from '../features/billing/cart-api';
import { CartLink } from '../features/billing/cart-link';
import { MenuUnread, NOTIFICATIONS_PATH, NotificationBell } from '../features/notifications/notification-bell';
import { barQuery } from '../features/notifications/notifications-api';
import { useFirstReads } from '../lib/first-reads';
import { takeLostFocus } from '../lib/lost-focus';
import { isAtOrUnder, loginPath, loginRedirect, sectionOf } from '../lib/navigation';
import { APP_NAME } from '../lib/page-title';
import { useSession } from '../lib/session';
import { UI_MESSAGES } from '../lib/ui-messages';

/** The banner bar is a chunk of its own, loaded once someone is signed in (guests never download it). */
let bannerBarChunk: Promise<typeof import('../features/notifications/banner-bar')> | undefined;
const loadBannerBar = () => {
  bannerBarChunk ??= import('../features/notifications/banner-bar');
  return bannerBarChunk;
};

const SECTION_LABEL = { admin: 'Admin', dashboard: 'Dashboard' } as const;

const ALERTS_PATH = '/dashboard/alerts';
const API_PATH = '/dashboard/api';
const accountPath = (userId: string) => `/dashboard/people/${encodeURIComponent(userId)}`;

/**
 * The pages under /dashboard that a header link of their own leads to: there that link is the current page, not
 * Dashboard (two links marked current told a screen reader, and the eye, two different places at once).
 */
const ownLinkPaths = (userId: string) => [ALERTS_PATH, API_PATH, CART_PATH, NOTIFICATIONS_PATH, accountPath(userId)];

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
  ['/admin/alerts', 'Alerts'],
  ['/admin/parameters', 'Parameters'],
  ['/admin/tiers', 'Tiers'],
  ['/admin/migrations', 'Migrations'],
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
export const AppLayout = ({
  adminPageOf,
}: {
  /** The /admin page equivalent to a /dashboard path (spec §2) when the app has one; the router knows which exist. */
  adminPageOf: (pathname: string) => string | undefined;
}) => {
  const { state, signOut } = useSession();
  const user = state.status === 'signed-in' ? state.user : undefined;
  // A signed-in person's shell is drawn with its banners and counts, never before them: a banner arriving over a drawn
  // page pushed it down between a click's press and its release, and the click was lost (docs/frontend-layout.md).
  const bannerBar = user ? loadBannerBar() : undefined;
  useFirstReads(user && barQuery(user.id), user && cartQuery(user.id));
  const BannerBar = bannerBar && use(bannerBar).BannerBar;
  const location = useLocation();
  const { pathname } = location;
  const section = sectionOf(pathname);
  // The menu is open on the page it was opened on: any navigation, the back button included, closes it.
  const [openOn, setOpenOn] = useState<string>();
  const open = openOn === pathname;
  const toggle = useRef<HTMLButtonElement>(null);
  const header = useRef<HTMLElement>(null);
  const main = useRef<HTMLElement>(null);
  const subnav = useRef<HTMLElement>(null);
  const signInLink = useRef<HTMLAnchorElement>(null);
  const wasSignedIn = useRef(false);

  // On a phone the admin links are one row that scrolls sideways (app.css): the current page's link is brought into
  // it, centred, by scrolling the row alone (scrollIntoView would scroll the page too), before it is painted, so the
  // row does not move under a finger.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new page (its path) has its own current link
  useLayoutEffect(() => {
    const row = subnav.current;
    const active = row?.querySelector<HTMLElement>('a.active');
    if (!row || !active || row.scrollWidth <= row.clientWidth) return;
    row.scrollLeft = active.offsetLeft - (row.clientWidth - active.offsetWidth) / 2;
  }, [pathname]);

  // A followed link (or a submitted form's button) leaves with the page it was on: the new page's content takes
  // the focus, so Tab goes on from its top and a screen reader announces it (the sign-in form's fields too). Signing
  // out where the page stays puts Sign in where Sign out was: the focus goes on from there, where the person was.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each navigation (a new location key) is what it follows
  useEffect(() => {
    if (state.status === 'loading') return;
    const signedOut = wasSignedIn.current && state.status === 'guest';
    wasSignedIn.current = state.status === 'signed-in';
    takeLostFocus((signedOut ? signInLink.current : null) ?? main.current);
  }, [location.key, state.status]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenOn(undefined);
      toggle.current?.focus();
    };
    // A tap anywhere outside the header puts the menu away, as people expect of a drop-down, and a link to the page
    // already shown changes no path, so a followed link closes it too. On the click, after the tap has done what it was
    // for: closed at the press, the menu pulled the page up under the finger and the tap was lost (docs/frontend-layout.md).
    // The header as drawn when the menu opened, not the ref: React lets a ref go while a boundary above hides what
    // holds it, and a header missing then read the Sign out click as a tap outside.
    const drawn = header.current;
    const onClick = (event: MouseEvent) => {
      // The path as dispatched: by now the click may have replaced its target ("Sign out" by "Sign in").
      const path = event.composedPath();
      const menu = document.getElementById(MENU_ID);
      const outside = !drawn || !path.includes(drawn);
      const menuLink = menu !== null && path.includes(menu) && path.some((node) => node instanceof HTMLAnchorElement);
      if (outside || menuLink) setOpenOn(undefined);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, [open]);

  if (state.status === 'loading') return <LoadingPage />;
  if (state.status === 'guest' && (state.ended === 'session-expired' || state.ended === 'signed-out-elsewhere')) {
    return <Navigate to={loginRedirect(location, state.ended)} replace />;
  }
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
            {/* Current on the dashboard's pages (a device's, say), except those another link here leads to. */}
            <NavLink to="/dashboard" end={!user || ownLinkPaths(user.id).some((path) => isAtOrUnder(pathname, path))}>
              Dashboard
            </NavLink>
            {user && (
              <NavLink to={ALERTS_PATH} data-testid="nav-alerts">
                Alerts
              </NavLink>
            )}
            {user && (
              <NavLink to={API_PATH} data-testid="nav-api">
                API
              </NavLink>
            )}
            {user && <CartLink userId={user.id} />}
            {user && <NotificationBell userId={user.id} />}
            {/* Active on every /admin page: the admin pages' own links are in the row under the header. */}
            {staff && <NavLink to={adminPageOf(pathname) ?? '/admin'}>Admin</NavLink>}
          </nav>
          <div className="account">
            {user ? (
              <>
                {/* The person's name is the way to their account, as on most sites: one link fewer keeps the staff
                    header in one row at desk width (test/e2e/layout.test.ts). */}
                <NavLink
                  to={accountPath(user.id)}
                  className="user"
                  data-testid="nav-account"
                  title={`My account (${user.groups.join(', ') || 'no group'})`}
                >
                  <span className="visually-hidden">My account: </span>
                  <span data-testid="header-user">{user.email ?? user.username}</span>
                </NavLink>
                <button type="button" data-testid="sign-out" onClick={() => void signOut()}>
                  Sign out
                </button>
              </>
            ) : (
              <Link to={loginPath(location)} className="button-link" data-testid="header-sign-in" ref={signInLink}>
                {UI_MESSAGES.signIn}
              </Link>
            )}
          </div>
        </div>
      </header>
      {staff && section === 'admin' && (
        <nav className="subnav" aria-label="Admin pages" data-testid="admin-nav" ref={subnav}>
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
      {user && BannerBar && <BannerBar userId={user.id} />}
      <main className="main" ref={main} tabIndex={-1}>
        {/* A page lives as long as the session's person: signed out (here or elsewhere), nothing of it renders again
            with the person gone. Under load, a panel for the signed-in owner (its people picker waiting on its chunk)
            rendered once more after sign-out and threw, and the page showed "This page could not load". */}
        {state.status === 'guest' && state.ended === 'signed-out' ? (
          // Signed out here, the page reads again as the guest (its first reads were the person's, and are gone): it
          // waits inside the shell, not under the router's boundary above it, which would hide the whole shell, header
          // and open menu with it, behind the loading page until the guest's reads answered.
          <Suspense fallback={<LoadingPage />}>
            <Outlet />
          </Suspense>
        ) : (
          <Outlet key={user?.id ?? 'guest'} />
        )}
      </main>
      <footer className="footer">
        <Link to="/privacy" data-testid="footer-privacy">
          Privacy
        </Link>
      </footer>
    </div>
  );
};
