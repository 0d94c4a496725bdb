import { type ComponentType, lazy, Suspense, useEffect } from 'react';
import { matchRoutes, Navigate, type Params, type RouteObject, useLocation, useRoutes } from 'react-router-dom';
import { HOSTED_CALLBACK_PATH } from '../../../shared/auth/hosted-sign-in';
import { LoadingPage } from '../components/loading-page';
import { LoginPage } from '../features/auth/login-page';
import { RequireSession } from '../features/auth/require-session';
import { RequireStaff } from '../features/auth/require-staff';
import { DashboardPage } from '../features/dashboard/dashboard-page';
import { deviceRead } from '../features/devices/device-api';
import { amplifyAuth, holdsTokens } from '../lib/auth';
import { pageIdOf, recordPageView } from '../lib/measurements';
import { adminEquivalent } from '../lib/navigation';
import { useTitleFromHeading } from '../lib/page-title';
import { queryClient } from '../lib/query';
import { AppLayout } from './app-layout';
import { NotFoundPage } from './not-found-page';
import { PageErrorBoundary } from './route-error';

/**
 * A route whose screen is a chunk of its own, with the function that loads that chunk, and the read its screen is
 * drawn with (`prefetch`, started once the app has booted; the screen then finds it under way or answered).
 */
type PageRoute = RouteObject & {
  preload?: () => Promise<unknown>;
  prefetch?: (params: Params) => void;
  children?: PageRoute[];
};

/**
 * A screen loaded with its route (issue 13): each page is a chunk of its own, so a guest's first visit downloads
 * neither the Authenticator, the charts, the live view nor the admin screens. Navigation runs in a transition,
 * so the current page stays on screen while the next one's chunk loads.
 */
const page = <M,>(load: () => Promise<M>, pick: (module: M) => ComponentType) => {
  const Page = lazy(async () => ({ default: pick(await load()) }));
  return { element: <Page />, preload: load };
};

/** A screen that calls Amplify itself (the Authenticator, account security) also waits for Amplify to load. */
const withAuth =
  <M,>(load: () => Promise<M>) =>
  async () =>
    (await Promise.all([load(), amplifyAuth()]))[0];

const preload = (load: () => Promise<unknown>) => void load().catch(() => undefined);

// The same screens serve /dashboard and /admin.
const devicePage = {
  ...page(
    () => {
      // The panels the page shows as soon as the device is read: charts for everyone, live data for a signed-in viewer.
      preload(() => import('../features/sensor-data/sensor-data-panel'));
      if (holdsTokens()) preload(() => import('../features/sensor-data/live-panel'));
      return import('../features/devices/device-page');
    },
    (m) => m.DevicePage,
  ),
  // The page is drawn with its device (decision 080): read beside the page's chunks rather than once they have run,
  // a round trip less before the page's first view on a slow network (decision 104).
  prefetch: ({ id }: Params) => {
    const read = id ? deviceRead(id) : undefined;
    if (read && !queryClient.getQueryState(read.queryKey)) void queryClient.prefetchQuery(read);
  },
};
const organizationPage = page(
  () => import('../features/organizations/organization-page'),
  (m) => m.OrganizationPage,
);
const webhookPage = page(
  () => import('../features/integrations/webhook-page'),
  (m) => m.WebhookPage,
);
const campaignPage = page(
  () => {
    // The devices' comparison charts, shown as soon as the campaign is read: loaded beside the page, not after it.
    preload(() => import('../features/sensor-data/campaign-comparison'));
    return import('../features/campaigns/campaign-page');
  },
  (m) => m.CampaignPage,
);

/**
 * Spec §2's /admin equivalent of a /dashboard path, only where the app has that admin page: /dashboard/cart,
 * /dashboard/api and the datasets have none, and the header's Admin link then opens the admin overview instead of
 * "Page not found".
 */
const adminPageOf = (pathname: string): string | undefined => {
  const admin = adminEquivalent(pathname);
  const matched = admin === undefined ? undefined : matchRoutes(routes, admin)?.at(-1);
  return matched && matched.route.path !== '*' ? admin : undefined;
};

/**
 * Every screen of the app. Guests may browse /dashboard (spec §1: sign-in is not mandatory) and the login
 * page; the object pages need a session; /admin needs Employees or Administrators.
 */
export const routes: PageRoute[] = [
  // The page is in the entry, drawn with the app; its forms are a chunk it loads once drawn (decision 106).
  { path: '/login', element: <LoginPage /> },
  // Where the hosted sign-in comes back with its code (shared/auth/hosted-sign-in.ts).
  {
    path: HOSTED_CALLBACK_PATH,
    ...page(
      withAuth(() => import('../features/auth/hosted-callback-page')),
      (m) => m.HostedCallbackPage,
    ),
  },
  // The link in an invite e-mail: guests see the invite and sign in from it (features/invites).
  {
    path: '/invites/:id',
    ...page(
      () => import('../features/invites/invite-page'),
      (m) => m.InvitePage,
    ),
  },
  { path: '/', element: <Navigate to="/dashboard" replace /> },
  {
    element: <AppLayout adminPageOf={adminPageOf} />,
    children: [
      // Every visit starts here ('/' leads here too): in the entry, it draws without waiting on one more chunk.
      { path: '/dashboard', element: <DashboardPage /> },
      // The unsubscribe link of every notification e-mail: guests too, nothing changes until they press the button.
      {
        path: '/unsubscribe',
        ...page(
          () => import('../features/notifications/unsubscribe-page'),
          (m) => m.UnsubscribePage,
        ),
      },
      // What a visit keeps, and the switch for performance measurements (lib/measurements.ts): open to everyone.
      {
        path: '/privacy',
        ...page(
          () => import('../features/privacy/privacy-page'),
          (m) => m.PrivacyPage,
        ),
      },
      // A public device's page, its data included, is open to guests (spec §1); a private one answers 401.
      { path: '/dashboard/devices/:id', ...devicePage },
      // Datasets (docs/datasets.md): the public list and a public dataset's landing page are open to guests.
      {
        path: '/dashboard/datasets',
        ...page(
          () => import('../features/datasets/dataset-page'),
          (m) => m.DatasetsPage,
        ),
      },
      {
        path: '/dashboard/datasets/:id',
        ...page(
          () => import('../features/datasets/dataset-page'),
          (m) => m.DatasetPage,
        ),
      },
      // The public API's reference (drawn by the app from the OpenAPI document): open to guests, as the document is.
      {
        path: '/dashboard/api/reference',
        ...page(
          () => import('../features/sensor-data/api-reference-page'),
          (m) => m.ApiReferencePage,
        ),
      },
      {
        element: <RequireSession />,
        children: [
          { path: '/dashboard/organizations/:id', ...organizationPage },
          { path: '/dashboard/campaigns/:id', ...campaignPage },
          // Where a notice that a webhook was turned off links to (docs/integrations.md).
          { path: '/dashboard/webhooks/:id', ...webhookPage },
          {
            path: '/dashboard/people/:id',
            ...page(
              withAuth(() => import('../features/people/profile-page')),
              (m) => m.ProfilePage,
            ),
          },
          // The alerts of the person's devices (docs/alerts.md); staff's of every device are /admin/alerts.
          {
            path: '/dashboard/alerts',
            ...page(
              () => import('../features/alerts/alerts-page'),
              (m) => m.AlertsPage,
            ),
          },
          {
            path: '/dashboard/notifications',
            ...page(
              () => import('../features/notifications/notifications-page'),
              (m) => m.NotificationsPage,
            ),
          },
          {
            path: '/dashboard/notifications/:id',
            ...page(
              () => import('../features/notifications/notification-page'),
              (m) => m.NotificationPage,
            ),
          },
          // The cart (spec §5): on the person's record, checked out as one Stripe Checkout session.
          {
            path: '/dashboard/cart',
            ...page(
              () => import('../features/billing/cart-page'),
              (m) => m.CartPage,
            ),
          },
          // Where Stripe Checkout returns (the Plans panel of the device page): paid or cancelled.
          {
            path: '/billing/return',
            ...page(
              () => import('../features/billing/billing-return-page'),
              (m) => m.BillingReturnPage,
            ),
          },
          {
            path: '/dashboard/datasets/new',
            ...page(
              () => import('../features/datasets/dataset-new-page'),
              (m) => m.DatasetNewPage,
            ),
          },
          {
            path: '/dashboard/api',
            ...page(
              () => import('../features/sensor-data/api-page'),
              (m) => m.ApiPage,
            ),
          },
        ],
      },
      {
        path: '/admin',
        element: <RequireStaff />,
        children: [
          {
            index: true,
            ...page(
              () => import('../features/admin/admin-home-page'),
              (m) => m.AdminHomePage,
            ),
          },
          {
            path: 'parameters',
            ...page(
              () => import('../features/system/parameters-page'),
              (m) => m.ParametersPage,
            ),
          },
          {
            path: 'tiers',
            ...page(
              () => import('../features/system/tier-features-page'),
              (m) => m.TierFeaturesPage,
            ),
          },
          {
            path: 'migrations',
            ...page(
              () => import('../features/migrate/migrations-page'),
              (m) => m.MigrationsPage,
            ),
          },
          {
            path: 'cache',
            ...page(
              () => import('../features/system/cache-page'),
              (m) => m.CachePage,
            ),
          },
          {
            path: 'lookup',
            ...page(
              () => import('../features/system/lookup-page'),
              (m) => m.LookupPage,
            ),
          },
          {
            path: 'relations',
            ...page(
              () => import('../features/relations/relations-page'),
              (m) => m.RelationsPage,
            ),
          },
          // Every staff action, recorded by the API (docs/audit.md): Administrators only, the page says so to others.
          {
            path: 'audit',
            ...page(
              () => import('../features/audit/audit-page'),
              (m) => m.AuditPage,
            ),
          },
          // Spec §2: staff get an /admin equivalent of every /dashboard page; the object pages are the same
          // screens, where staff pass every rule.
          {
            path: 'devices',
            ...page(
              () => import('../features/devices/admin-devices-page'),
              (m) => m.AdminDevicesPage,
            ),
          },
          {
            path: 'organizations',
            ...page(
              () => import('../features/organizations/admin-organizations-page'),
              (m) => m.AdminOrganizationsPage,
            ),
          },
          {
            path: 'campaigns',
            ...page(
              () => import('../features/campaigns/admin-campaigns-page'),
              (m) => m.AdminCampaignsPage,
            ),
          },
          {
            path: 'releases',
            ...page(
              () => import('../features/code-releases/releases-page'),
              (m) => m.ReleasesPage,
            ),
          },
          {
            path: 'releases/:id',
            ...page(
              () => import('../features/code-releases/release-page'),
              (m) => m.ReleasePage,
            ),
          },
          {
            path: 'rollouts/:id',
            ...page(
              () => import('../features/code-releases/rollout-page'),
              (m) => m.RolloutPage,
            ),
          },
          { path: 'devices/:id', ...devicePage },
          { path: 'organizations/:id', ...organizationPage },
          { path: 'campaigns/:id', ...campaignPage },
          { path: 'webhooks/:id', ...webhookPage },
          {
            path: 'alerts',
            ...page(
              () => import('../features/alerts/alerts-page'),
              (m) => m.AlertsPage,
            ),
          },
          {
            path: 'notifications',
            ...page(
              () => import('../features/notifications/admin-notifications-page'),
              (m) => m.AdminNotificationsPage,
            ),
          },
          {
            path: 'notifications/:id',
            ...page(
              () => import('../features/notifications/admin-notification-page'),
              (m) => m.AdminNotificationPage,
            ),
          },
          {
            path: 'people',
            ...page(
              () => import('../features/people/people-page'),
              (m) => m.PeoplePage,
            ),
          },
          {
            path: 'people/:id',
            ...page(
              () => import('../features/people/person-admin-page'),
              (m) => m.PersonAdminPage,
            ),
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * Starts loading the chunks of the page at `pathname` at once, so they arrive while the app boots (runtime
 * configuration, session) rather than after; the page's lazy component then finds its module loaded.
 */
export const preloadRoute = (pathname: string): void => {
  for (const { route } of matchRoutes(routes, pathname) ?? []) if (route.preload) preload(route.preload);
};

/** Starts the reads the page at `pathname` is drawn with (its routes' `prefetch`); needs the runtime configuration. */
const prefetchRoute = (pathname: string): void => {
  for (const { route, params } of matchRoutes(routes, pathname) ?? []) route.prefetch?.(params);
};

/**
 * The screens under one boundary: it shows the loading page until the first page's chunk is there (later
 * navigations keep the current page instead), and a page that cannot load or draw shows why.
 */
export const AppRoutes = () => {
  const { pathname } = useLocation();
  // The new page's chunks load beside what its shell waits for (a signed-in shell's first reads, app-layout.tsx), not
  // after it: the shell suspends before it renders the page, which would otherwise start them only then.
  preloadRoute(pathname);
  prefetchRoute(pathname);
  const screen = useRoutes(routes);
  // Real-user monitoring names a view by its route's pattern, never by the ids in its path (lib/measurements.ts).
  useEffect(() => {
    recordPageView(pageIdOf((matchRoutes(routes, pathname) ?? []).map(({ route }) => route.path)));
  }, [pathname]);
  useTitleFromHeading(pathname);
  return (
    <PageErrorBoundary pathname={pathname}>
      <Suspense fallback={<LoadingPage />}>{screen}</Suspense>
    </PageErrorBoundary>
  );
};
