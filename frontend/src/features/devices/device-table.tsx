import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Device } from '../../../../shared/contracts/devices';
import { TableScroll } from '../../components/table-scroll';
import { When } from '../../components/when';
import { StatusBadge } from './device-parts';
import { deviceLabel, PRODUCT_LINE_TEXT } from './device-rules';

/** Devices as a table: name, serial, product line, status, last seen. */
export const DeviceTable = ({
  devices,
  base,
  testId,
  extra,
}: {
  devices: readonly Device[];
  base: string;
  testId: string;
  extra?: { heading: string; cell: (device: Device) => ReactNode };
}) => (
  <TableScroll label="Devices">
    <table className="table" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">Device</th>
          <th scope="col">Serial</th>
          <th scope="col">Product line</th>
          <th scope="col">Status</th>
          <th scope="col">Last seen</th>
          {extra && <th scope="col">{extra.heading}</th>}
        </tr>
      </thead>
      <tbody>
        {devices.map((device) => (
          <tr key={device.id} data-testid={`${testId}-row-${device.id}`}>
            <th scope="row">
              <Link to={`${base}/devices/${encodeURIComponent(device.id)}`}>{deviceLabel(device)}</Link>
            </th>
            <td data-label="Serial" className="mono">
              {device.serial}
            </td>
            <td data-label="Product line">{PRODUCT_LINE_TEXT[device.productLine]}</td>
            <td data-label="Status">
              <StatusBadge status={device.status} testId={`${testId}-status-${device.id}`} />
            </td>
            <td data-label="Last seen">
              {device.lastSeen ? <When ms={device.lastSeen} /> : <span className="muted">Never</span>}
            </td>
            {extra && <td data-label={extra.heading}>{extra.cell(device)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  </TableScroll>
);
