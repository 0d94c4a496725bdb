import { lazy, type ReactElement, Suspense, useMemo } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router-dom';
import { isStaff } from '../../../../shared/auth/groups';
import { ApiError } from '../../../../shared/contracts/client';
import type { Device } from '../../../../shared/contracts/devices';
import { PRODUCT_LINE_NAMES } from '../../../../shared/text/product-words';
import { ErrorAlert } from '../../components/form-parts';
import { LoadingPage } from '../../components/loading-page';
import { PersonName } from '../../components/person-name';
import { SignInPrompt } from '../../components/sign-in-prompt';
import { When } from '../../components/when';
import { useRevealedInTurn } from '../../lib/after-idle';
import { mayManage } from '../../lib/device-access';
import { useFirstReads } from '../../lib/first-reads';
import { sectionOf } from '../../lib/navigation';
import { ObjectIdLine } from '../../lib/object-id-line';
import { errorOf } from '../../lib/query';
import { runtimeConfig } from '../../lib/runtime-config';
import { useOptionalUser } from '../../lib/session';
import { AlertsPanel } from '../alerts';
import { useAlertOverlays } from '../alerts/public-alert-overlays';
import { PlansPanel } from '../billing/public-plans-panel';
import { IntegrationsPanel } from '../integrations';
import { DevicesMap, formatCoordinate, type MapPoint } from '../map';
import { MembersPanel } from '../relations';
import { ExportPanel, LivePanel, SensorDataPanel } from '../sensor-data';
import { staLines, staObservationsUrl, staRoot, staThingsUrl, UseThisData } from '../sensor-data/public-open-data';
import { CredentialsPanel } from './credentials-panel';
import { deviceRead, useDevice } from './device-api';
import { DeviceEditForm } from './device-edit-form';
import { DeviceOwnership } from './device-ownership';
import { StatusBadge } from './device-parts';
import { deviceLabel } from './device-rules';

/** The longest each panel under the first view waits for an idle moment (a page that never idles still gets them). */
const BELOW_WAIT_MS = 1_000;

const FirmwareUpdatesPanel = lazy(() =>
  import('./firmware-updates-panel').then((m) => ({ default: m.FirmwareUpdatesPanel })),
);

/**
 * `/dashboard/devices/:id` (and `/admin/devices/:id`): a device's details, its edit form, ingress credentials,
 * transfer and retirement for those allowed (the device says what the caller may do: `access`), and its members.
 * The members panel shows even when the device record cannot be read, so relations made before the device was
 * registered stay reachable.
 */
export const DevicePage = () => {
  const id = useParams().id ?? '';
  return <DeviceScreen key={id} id={id} />;
};

const DeviceScreen = ({ id }: { id: string }) => {
  // Guests see public devices (and their data); relations and management need a session.
  const user = useOptionalUser();
  const staff = isStaff(user?.groups ?? []);
  // The device's panels go above the members' (Relations): drawn without them, the page put Relations on screen and
  // then pushed it off by the whole device (layout shift 0.29 on a phone, 0.41 at desktop width; issue 36).
  useFirstReads(deviceRead(id));
  const query = useDevice(id);
  const device = query.data;
  // A private device answers a guest 401: what signing in may unlock, not an error.
  const guestShut = !user && query.error instanceof ApiError && query.error.status === 401;
  const error = guestShut ? undefined : errorOf(query);
  // An alert's link names the moment it fired: the charts open around it.
  const atParam = Number(useSearchParams()[0].get('at') ?? '');
  const at = Number.isFinite(atParam) && atParam > 0 ? atParam : undefined;
  // A person who may see the device sees its alerts' firing periods and limits on its charts.
  const alertable = Boolean(user && device && (device.access !== 'none' || staff));
  const overlays = useAlertOverlays(id, alertable);
  // The panels under the charts and the live view (alerts, downloads, plans, the person's own, Relations) are under
  // the first view at a phone's and a desktop's height alike: they are drawn after the page, one per idle moment in
  // their order, so its first view is painted without their rendering and no one task draws them all (decision 104).
  // They only add to the page's end.
  const panels = belowPanels({ device, signedIn: Boolean(user), staff, alertable, id });
  const revealed = useRevealedInTurn(panels.length, BELOW_WAIT_MS);

  return (
    <section className="page">
      <h1 className="title-with-badge">
        <span data-testid="device-title">{device ? deviceLabel(device) : 'Device'}</span>
        {device && <StatusBadge status={device.status} testId="device-status" />}
      </h1>
      <ObjectIdLine id={id} />
      {!device && !error && !guestShut && <p className="muted">Loading the device…</p>}
      {guestShut && <SignInPrompt what="this device if it is shared with you" />}
      <ErrorAlert testId="device-error" error={error} />

      {device && (
        <>
          <DeviceFacts device={device} />
          {device.location && <DeviceLocationMap device={device} />}
          <Suspense fallback={<LoadingPage />}>
            {/* A link to another moment on this page (a banner's, while the page is open) opens the charts anew. */}
            <SensorDataPanel key={at ?? 'now'} device={device} at={at} overlays={overlays} />
          </Suspense>
          {/* Live needs a realtime identity, which only a signed-in user has. */}
          {user && device.state !== 'retired' && (
            <Suspense fallback={<LoadingPage />}>
              <LivePanel deviceId={device.id} />
            </Suspense>
          )}
          {!user && device.state !== 'retired' && <GuestLivePanel />}
        </>
      )}

      {panels.slice(0, revealed)}
    </section>
  );
};

/**
 * The device page's panels under its first view, in their order on the page, each keyed: those the viewer may see of
 * alerts, downloads, open data, plans, the person's own (edit, credentials, ownership, webhooks), Relations and the
 * device's firmware updates. Relations shows even when the device record cannot be read.
 */
const belowPanels = ({
  device,
  signedIn,
  staff,
  alertable,
  id,
}: {
  device: Device | undefined;
  signedIn: boolean;
  staff: boolean;
  alertable: boolean;
  id: string;
}): ReactElement[] => {
  const panels: ReactElement[] = [];
  const live = device && device.state !== 'retired';
  if (device) {
    if (alertable)
      panels.push(
        <Suspense key="alerts" fallback={<LoadingPage />}>
          <AlertsPanel device={device} />
        </Suspense>,
      );
    panels.push(<ExportPanel key="export" device={device} />, <DeviceUseThisData key="open-data" device={device} />);
    // Plans for those who may manage the device (and staff); the subscription route is for members and staff.
    if (signedIn && (mayManage(device) || staff) && live)
      panels.push(
        <Suspense key="plans" fallback={<LoadingPage />}>
          <PlansPanel device={device} mayBuy={mayManage(device)} />
        </Suspense>,
      );
    // A person's panels need the person: a sign-out drops them at once, whatever the device's answer said.
    if (signedIn) {
      if (mayManage(device) && (live || staff)) panels.push(<DeviceEditForm key="edit" device={device} />);
      if (mayManage(device) && live) panels.push(<CredentialsPanel key="credentials" deviceId={device.id} />);
      if (device.access === 'own' && live) panels.push(<DeviceOwnership key="ownership" device={device} />);
      if ((mayManage(device) || staff) && live)
        panels.push(
          <Suspense key="webhooks" fallback={<LoadingPage />}>
            <IntegrationsPanel kind="device" id={device.id} />
          </Suspense>,
        );
    }
  }
  if (signedIn)
    panels.push(
      <section key="relations" className="card section-card" aria-labelledby="device-members-heading">
        <h2 id="device-members-heading">Relations</h2>
        <MembersPanel key={id} kind="device" objectId={id} />
      </section>,
    );
  // Loaded only for a device a rollout has targeted (most pages never carry it), and last: nothing that can be pressed
  // is under it.
  if (signedIn && device && mayManage(device) && device.firmwareTarget)
    panels.push(
      <Suspense key="firmware" fallback={null}>
        <FirmwareUpdatesPanel deviceId={device.id} />
      </Suspense>,
    );
  return panels;
};

/**
 * "Use this data" for a device: its Thing in the SensorThings API (the guests' root when its data is public, else the
 * API key's), Parquet from the download panel above, and a notebook line reading its latest Observations.
 */
const DeviceUseThisData = ({ device }: { device: Device }) => {
  const publicData = device.dataVisibility === 'public';
  const root = staRoot(runtimeConfig().apiBaseUrls['sensor-data'] ?? '', publicData);
  return (
    <UseThisData
      staUrl={staThingsUrl(root, [device.id])}
      staNote={
        publicData
          ? 'Any SensorThings client, GIS tool or notebook reads it, no key needed: its measurements as Datastreams, ' +
            'their readings as Observations within the public window.'
          : 'With an API key in the X-Api-Key header (Public API page), as far back as its tier lets the API read.'
      }
      parquet={
        <>
          In <a href="#export-heading">Download data</a>, choose Parquet: a column per measurement, the timestamp in
          UTC, a row group per day.
        </>
      }
      lines={staLines(staObservationsUrl(root, device.id), !publicData)}
      linesNote="Reads its latest 1,000 Observations of each measurement from the SensorThings API: a row per Observation with its Datastream's name."
    />
  );
};

/** What a guest's sign-in unlocks where a signed-in person sees readings as they arrive (no request made). */
const GuestLivePanel = () => (
  <section className="card section-card" aria-labelledby="device-live-heading" data-testid="device-guest-unlocks">
    <h2 id="device-live-heading">Live</h2>
    <SignInPrompt what="this device's readings live, as they arrive" />
  </section>
);

/** Where the device is, as its viewer may see it, on the same offline map as the lists. */
const DeviceLocationMap = ({ device }: { device: Device }) => {
  const { pathname } = useLocation();
  const location = device.location;
  const points = useMemo<MapPoint[]>(
    () =>
      location
        ? [
            {
              id: device.id,
              name: deviceLabel(device),
              lat: location.lat,
              lon: location.lon,
              status: device.status,
              href: `/${sectionOf(pathname)}/devices/${encodeURIComponent(device.id)}`,
            },
          ]
        : [],
    [device, location, pathname],
  );
  return (
    <section className="card section-card" aria-labelledby="device-map-heading">
      <h2 id="device-map-heading">Location</h2>
      <DevicesMap points={points} />
    </section>
  );
};

/** The release the latest rollout assigned (managers and staff see it): staff get a link to the release. */
const FirmwareTargetFact = ({ device, target }: { device: Device; target: NonNullable<Device['firmwareTarget']> }) => {
  const { pathname } = useLocation();
  const runs = device.firmwareVersion === target.version;
  const version = <span className="mono">{target.version}</span>;
  return (
    <>
      <dt>Firmware rollout</dt>
      <dd data-testid="device-firmware-target">
        {sectionOf(pathname) === 'admin' ? (
          <Link to={`/admin/releases/${encodeURIComponent(target.releaseId)}`}>{version}</Link>
        ) : (
          version
        )}
        <span className="muted small"> · {runs ? 'running it' : 'update pending'}</span>
      </dd>
    </>
  );
};

/**
 * Who owns the device, in the viewer's words (docs/devices.md, "Owner, as the device page shows it"): "You", the
 * owner's name (and e-mail where the viewer may see it, decision 022), or "Another person" when the viewer may not see
 * who (a guest, or someone who shares nothing with the owner): true, and it names no one.
 */
const OwnerName = ({ id }: { id: string }) =>
  useOptionalUser()?.id === id ? 'You' : <PersonName id={id} unseen="Another person" />;

const DeviceFacts = ({ device }: { device: Device }) => (
  <dl className="facts card" data-testid="device-facts">
    <dt>Serial</dt>
    <dd className="mono" data-testid="device-serial">
      {device.serial}
    </dd>
    <dt>Product line</dt>
    <dd data-testid="device-product-line">{PRODUCT_LINE_NAMES[device.productLine]}</dd>
    <dt>Model</dt>
    <dd data-testid="device-model">{device.model}</dd>
    <dt>Firmware</dt>
    <dd data-testid="device-firmware">
      <span className="mono">{device.firmwareVersion}</span>
      {device.firmwareReported && (
        <span className="muted small">
          {' '}
          · reported by the device since <When ms={device.firmwareReported} />
        </span>
      )}
    </dd>
    {device.firmwareTarget && <FirmwareTargetFact device={device} target={device.firmwareTarget} />}
    <dt>Status</dt>
    <dd>
      <StatusBadge status={device.status} />
    </dd>
    <dt>Last seen</dt>
    <dd data-testid="device-last-seen">
      {device.lastSeen ? <When ms={device.lastSeen} /> : <span className="muted">Never</span>}
    </dd>
    <dt>Location</dt>
    <dd data-testid="device-location">
      {device.location ? (
        <>
          {formatCoordinate(device.location.lat, device.location.lon)}
          {device.locationApproximate && <span className="muted small"> (approximate, about 1 km)</span>}
        </>
      ) : (
        <span className="muted">None shown</span>
      )}
      <span className="muted small" data-testid="device-location-privacy">
        {' '}
        · {device.locationPrivacy} location
      </span>
    </dd>
    <dt>Data</dt>
    <dd data-testid="device-visibility">{device.dataVisibility === 'public' ? 'Public' : 'Private'}</dd>
    <dt>Owner</dt>
    <dd data-testid="device-owner">
      {device.ownerId ? <OwnerName id={device.ownerId} /> : <span className="muted">Not claimed</span>}
    </dd>
    <dt>Registered</dt>
    <dd>
      <When ms={device.created} />
    </dd>
    {device.claimed && (
      <>
        <dt>Claimed</dt>
        <dd>
          <When ms={device.claimed} />
        </dd>
      </>
    )}
    {device.retired && (
      <>
        <dt>Retired</dt>
        <dd>
          <When ms={device.retired} testId="device-retired" />
        </dd>
      </>
    )}
  </dl>
);
