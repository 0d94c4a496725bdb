import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { ErrorAlert } from '../../components/form-parts';
import { sectionOf } from '../../lib/navigation';
import { DevicesMap } from './devices-map';
import { mapPointsOf } from './map-points';
import { MAP_POINT_LIMIT, useMapDevices } from './use-map-devices';

/** The map of the devices in one scope, linking into the section the page is in (/dashboard or /admin). */
export const DeviceMapSection = ({ scope, title = 'Map' }: { scope: 'visible' | 'mine' | 'all'; title?: string }) => {
  const { pathname } = useLocation();
  const base = `/${sectionOf(pathname)}`;
  const located = useMapDevices(scope);
  const points = useMemo(() => mapPointsOf(located.items, base), [located.items, base]);
  return (
    <section className="card map-card" aria-labelledby="devices-map-heading" data-testid="devices-map-section">
      <h2 id="devices-map-heading">{title}</h2>
      <ErrorAlert testId="devices-map-error" error={located.error} />
      {!located.loaded && <p className="muted">Loading the map…</p>}
      {located.loaded && !located.error && (
        <DevicesMap points={points} emptyText="No device you can see has a location yet." />
      )}
      {located.truncated && (
        <p className="muted small" data-testid="devices-map-truncated">
          The map shows the first {MAP_POINT_LIMIT} devices with a location.
        </p>
      )}
    </section>
  );
};
