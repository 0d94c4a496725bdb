import { useState } from 'react';
import type { Device } from '../../../../shared/contracts/devices';
import { EditForm } from '../../components/edit-form';
import { useApi } from '../../lib/api';
import { mayOwn } from '../../lib/device-access';
import { ChoiceField, TextField } from '../../lib/form-fields';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { deviceShownKeys } from './device-api';
import {
  checkEdit,
  type EditForm as EditFields,
  editFormOf,
  PRIVACY_OPTIONS,
  VISIBILITY_OPTIONS,
} from './device-rules';

/** Name, location and its privacy, data visibility, and (owner, staff) the firmware version. */
export const DeviceEditForm = ({ device }: { device: Device }) => {
  const devices = useApi('devices');
  const [form, setForm] = useState<EditFields>(() => editFormOf(device));
  const owner = mayOwn(device);
  const { submit, busy, error, fields, done, edited } = useCheckedSubmit(
    () => checkEdit(device, form, owner),
    async (body) => {
      const updated = await devices.update({ params: { id: device.id }, body });
      setForm(editFormOf(updated));
      return 'Saved.';
    },
    deviceShownKeys(device.id),
  );

  const set = (key: keyof EditFields) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  return (
    <EditForm
      name="device-edit"
      title="Edit"
      form={{ submit, busy, error, done, edited }}
      submitText="Save"
      busyText="Saving…"
    >
      <TextField id="device-edit-name" label="Name" value={form.name} onChange={set('name')} error={fields.name} />
      <div className="field-row">
        <TextField
          id="device-edit-lat"
          label="Latitude"
          value={form.lat}
          onChange={set('lat')}
          error={fields.lat}
          placeholder="e.g. 52.52"
          mono
        />
        <TextField
          id="device-edit-lon"
          label="Longitude"
          value={form.lon}
          onChange={set('lon')}
          error={fields.lon}
          placeholder="e.g. 13.405"
          mono
        />
      </div>
      <ChoiceField
        id="device-edit-privacy"
        label="Who sees the location"
        value={form.locationPrivacy}
        options={PRIVACY_OPTIONS}
        onChange={set('locationPrivacy')}
        error={fields.locationPrivacy}
      />
      <ChoiceField
        id="device-edit-visibility"
        label="Device data"
        value={form.dataVisibility}
        options={VISIBILITY_OPTIONS}
        onChange={set('dataVisibility')}
        error={fields.dataVisibility}
      />
      {owner && (
        <TextField
          id="device-edit-firmware"
          label="Firmware version"
          value={form.firmwareVersion}
          onChange={set('firmwareVersion')}
          error={fields.firmwareVersion}
          mono
        />
      )}
    </EditForm>
  );
};
