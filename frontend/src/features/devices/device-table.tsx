import { Link } from 'react-router-dom';
import type { Device } from '../../../../shared/contracts/devices';
import { PRODUCT_LINE_NAMES } from '../../../../shared/text/product-words';
import { ListTable } from '../../components/list-table';
import { When } from '../../components/when';
import { StatusBadge } from './device-parts';
import { deviceLabel } from './device-rules';

/** Devices as a table: name (to its page), serial, product line, status, last seen. */
export const DeviceTable = ({
  devices,
  base,
  testId,
}: {
  devices: readonly Device[];
  base: string;
  testId: string;
}) => (
  <ListTable
    label="Devices"
    testId={testId}
    rows={devices}
    rowKey={(device) => device.id}
    rowTestId={(device) => `${testId}-row-${device.id}`}
    columns={[
      {
        header: 'Device',
        cell: (device) => <Link to={`${base}/devices/${encodeURIComponent(device.id)}`}>{deviceLabel(device)}</Link>,
      },
      { header: 'Serial', className: 'mono', cell: (device) => device.serial },
      { header: 'Product line', cell: (device) => PRODUCT_LINE_NAMES[device.productLine] },
      {
        header: 'Status',
        cell: (device) => <StatusBadge status={device.status} testId={`${testId}-status-${device.id}`} />,
      },
      {
        header: 'Last seen',
        cell: (device) => (device.lastSeen ? <When ms={device.lastSeen} /> : <span className="muted">Never</span>),
      },
    ]}
  />
);
