import { useCallback, useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { Device, ProductLine } from '../../../../shared/contracts/devices';
import { useApi } from '../../lib/api';
import { ChoiceField } from '../../lib/form-fields';
import { LoadMoreButton } from '../../lib/load-more-button';
import { type ListLoader, usePagedList } from '../../lib/use-paged-list';
import { ErrorAlert } from '../relations/relation-fields';
import { DeviceMapSection } from './device-map-section';
import { PRODUCT_LINE_OPTIONS } from './device-rules';
import { DeviceTable } from './device-table';
import { RegisterDeviceForm } from './register-device-form';

type LineFilter = ProductLine | 'all';
const FILTER_OPTIONS: readonly (readonly [LineFilter, string])[] = [
  ['all', 'All product lines'],
  ...PRODUCT_LINE_OPTIONS,
];

/** `/admin/devices`: every device (staff), filtered by product line, registration, and the map of all. */
export const AdminDevicesPage = () => {
  const devices = useApi('devices');
  const [line, setLine] = useState<LineFilter>('all');
  const [mapVersion, setMapVersion] = useState(0);
  const load = useCallback<ListLoader<Device>>(
    (cursor) =>
      devices.listAll({
        query: { limit: DEFAULT_PAGE_SIZE, cursor, ...(line === 'all' ? {} : { productLine: line }) },
      }),
    [devices, line],
  );
  const list = usePagedList(load);

  const registered = (device: Device) => {
    if (line === 'all' || line === device.productLine) list.update((shown) => [device, ...shown]);
    setMapVersion((v) => v + 1);
  };

  return (
    <section className="page">
      <h1>Devices</h1>
      <RegisterDeviceForm onRegistered={registered} />
      <DeviceMapSection scope="all" title="Map of every device with a location" version={mapVersion} />
      <section className="card section-card" aria-labelledby="all-devices-heading">
        <h2 id="all-devices-heading">Every device</h2>
        <ChoiceField
          id="admin-devices-line"
          label="Product line"
          value={line}
          options={FILTER_OPTIONS}
          onChange={setLine}
        />
        <ErrorAlert testId="admin-devices-error" error={list.error} />
        <DeviceTable devices={list.items} base="/admin" testId="admin-devices" />
        {list.loading === 'first' && <p className="muted">Loading devices…</p>}
        {list.loaded && list.items.length === 0 && <p className="muted">No devices.</p>}
        <LoadMoreButton list={list} testId="admin-devices-load-more" />
      </section>
    </section>
  );
};
