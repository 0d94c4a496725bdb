import { createBrowserRouter, Navigate } from 'react-router-dom';
import { AdminHomePage } from '../features/admin/admin-home-page';
import { LoginPage } from '../features/auth/login-page';
import { RequireSession } from '../features/auth/require-session';
import { RequireStaff } from '../features/auth/require-staff';
import { AdminCampaignsPage } from '../features/campaigns/admin-campaigns-page';
import { CampaignPage } from '../features/campaigns/campaign-page';
import { DashboardPage } from '../features/dashboard/dashboard-page';
import { AdminDevicesPage } from '../features/devices/admin-devices-page';
import { DevicePage } from '../features/devices/device-page';
import { InvitePage } from '../features/invites/invite-page';
import { AdminOrganizationsPage } from '../features/organizations/admin-organizations-page';
import { OrganizationPage } from '../features/organizations/organization-page';
import { PeoplePage } from '../features/people/people-page';
import { PersonAdminPage } from '../features/people/person-admin-page';
import { ProfilePage } from '../features/people/profile-page';
import { RelationsPage } from '../features/relations/relations-page';
import { ApiPage } from '../features/sensor-data/api-page';
import { ParametersPage } from '../features/system/parameters-page';
import { AppLayout } from './app-layout';
import { NotFoundPage } from './not-found-page';

/**
 * Every screen of the app. Guests may browse /dashboard (spec §1: sign-in is not mandatory) and the login
 * page; the object pages need a session; /admin needs Employees or Administrators.
 */
export const createRouter = () =>
  createBrowserRouter([
    { path: '/login', element: <LoginPage /> },
    // The link in an invite e-mail: guests see the invite and sign in from it (features/invites).
    { path: '/invites/:id', element: <InvitePage /> },
    { path: '/', element: <Navigate to="/dashboard" replace /> },
    {
      element: <AppLayout />,
      children: [
        { path: '/dashboard', element: <DashboardPage /> },
        // A public device's page, its data included, is open to guests (spec §1); a private one answers 401.
        { path: '/dashboard/devices/:id', element: <DevicePage /> },
        {
          element: <RequireSession />,
          children: [
            { path: '/dashboard/organizations/:id', element: <OrganizationPage /> },
            { path: '/dashboard/campaigns/:id', element: <CampaignPage /> },
            { path: '/dashboard/people/:id', element: <ProfilePage /> },
            { path: '/dashboard/api', element: <ApiPage /> },
          ],
        },
        {
          path: '/admin',
          element: <RequireStaff />,
          children: [
            { index: true, element: <AdminHomePage /> },
            { path: 'parameters', element: <ParametersPage /> },
            { path: 'relations', element: <RelationsPage /> },
            // Spec §2: staff get an /admin equivalent of every /dashboard page; the object pages are the same
            // screens, where staff pass every rule.
            { path: 'devices', element: <AdminDevicesPage /> },
            { path: 'organizations', element: <AdminOrganizationsPage /> },
            { path: 'campaigns', element: <AdminCampaignsPage /> },
            { path: 'devices/:id', element: <DevicePage /> },
            { path: 'organizations/:id', element: <OrganizationPage /> },
            { path: 'campaigns/:id', element: <CampaignPage /> },
            { path: 'people', element: <PeoplePage /> },
            { path: 'people/:id', element: <PersonAdminPage /> },
          ],
        },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
