import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { LoadingPage } from '../../components/loading-page';
import { SignInPrompt } from '../../components/sign-in-prompt';
import { holdsTokens } from '../../lib/auth';
import { useOptionalUser } from '../../lib/session';
import { UI_MESSAGES } from '../../lib/ui-messages';
import { DeviceMapSection } from '../map';

const loadMyDashboard = () => import('./my-dashboard');
// A signed-in person's dashboard is a chunk of its own, so a guest's first page (issue 13) carries none of it;
// a browser holding tokens starts it at boot, beside Amplify, so a signed-in visit waits on no extra round trip.
if (holdsTokens()) void loadMyDashboard().catch(() => undefined);
const MyDashboard = lazy(() => loadMyDashboard().then((m) => ({ default: m.MyDashboard })));

/**
 * `/dashboard`, open to guests (spec §1: sign-in is not mandatory): public content for everyone (the map of
 * public devices); for a signed-in person their devices, organizations and campaigns with their status, the
 * actions that make new ones, the map, and every relation they hold; a sign-in link for a guest.
 */
export const DashboardPage = () => {
  const user = useOptionalUser();
  if (!user) {
    return (
      <section className="page" data-testid="dashboard-guest">
        <h1 data-page-title="Dashboard">Welcome</h1>
        <p>{UI_MESSAGES.guestDashboard}</p>
        <SignInPrompt what="your devices, organizations and campaigns" />
        <p>
          <Link to="/dashboard/datasets" data-testid="dashboard-datasets">
            Public datasets
          </Link>
          : frozen, citable extracts of readings.
        </p>
        <DeviceMapSection scope="visible" title="Public devices" />
      </section>
    );
  }
  return (
    <Suspense fallback={<LoadingPage />}>
      <MyDashboard user={user} />
    </Suspense>
  );
};
