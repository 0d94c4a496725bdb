import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router-dom';
import type { DeviceUpdateState } from '../../../../shared/code-releases/rollout-rules';
import { ErrorAlert } from '../../components/form-parts';
import { When } from '../../components/when';
import { sectionOf } from '../../lib/navigation';
import { errorOf, routeQuery } from '../../lib/query';
import { UpdateStateBadge } from '../code-releases/public-update-state';

/**
 * The device's firmware update history (its managers and staff): each rollout that targeted it, newest first, and
 * what became of the update, with why it failed when the device said. Staff get links to the release and rollout.
 */
export const FirmwareUpdatesPanel = ({ deviceId }: { deviceId: string }) => {
  const { pathname } = useLocation();
  const staffView = sectionOf(pathname) === 'admin';
  const history = useQuery(routeQuery('devices', 'listFirmwareUpdates', { params: { id: deviceId } }));
  const items = history.data?.items ?? [];
  return (
    <section className="card section-card" aria-labelledby="device-updates-heading">
      <h2 id="device-updates-heading">Firmware updates</h2>
      <ErrorAlert testId="device-updates-error" error={errorOf(history)} />
      {history.isSuccess && items.length === 0 && <p className="muted">No rollout has targeted this device.</p>}
      {items.length > 0 && (
        <ol className="update-history" data-testid="device-updates">
          {items.map((update) => (
            <li key={update.rolloutId} data-testid={`device-update-${update.rolloutId}`}>
              <span className="mono">
                {staffView ? (
                  <Link to={`/admin/rollouts/${encodeURIComponent(update.rolloutId)}`}>{update.version}</Link>
                ) : (
                  update.version
                )}
              </span>{' '}
              {update.state && (
                <UpdateStateBadge state={update.state as DeviceUpdateState} testId="device-update-state" />
              )}
              <span className="muted small">
                {' '}
                · assigned <When ms={update.assigned} />
                {update.stateAt !== undefined && (
                  <>
                    {' '}
                    · since <When ms={update.stateAt} />
                  </>
                )}
                {update.superseded !== undefined && ' · a later rollout took it over'}
              </span>
              {update.reason && (
                <p className="small" data-testid="device-update-reason">
                  {update.reason}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
};
