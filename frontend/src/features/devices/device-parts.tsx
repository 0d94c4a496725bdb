import type { DeviceStatus } from '../../../../shared/contracts/devices';
import { STATUS_HINT, STATUS_TEXT } from './device-rules';

/** A device's derived status as a coloured badge, the meaning in its tooltip. */
export const StatusBadge = ({ status, testId }: { status: DeviceStatus; testId?: string }) => (
  <span className={`badge badge-${status}`} title={STATUS_HINT[status]} data-testid={testId} data-status={status}>
    {STATUS_TEXT[status]}
  </span>
);
