import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { EditForm } from '../../components/edit-form';
import { useApi } from '../../lib/api';
import { TextField } from '../../lib/form-fields';
import { sectionOf } from '../../lib/navigation';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { deviceOwnershipKeys } from './device-api';
import { type ClaimForm, checkClaim } from './device-rules';

/** "Claim a device": serial and claim code from its label; the claimer becomes its owner and its page opens. */
export const ClaimDeviceForm = ({ onCancel }: { onCancel?: () => void }) => {
  const devices = useApi('devices');
  const navigate = useNavigate();
  const base = `/${sectionOf(useLocation().pathname)}`;
  const [form, setForm] = useState<ClaimForm>({ serial: '', claimCode: '' });
  const { submit, busy, error, fields } = useCheckedSubmit(
    () => checkClaim(form),
    async (body) => {
      const device = await devices.claim({ body });
      navigate(`${base}/devices/${encodeURIComponent(device.id)}`);
    },
    deviceOwnershipKeys(),
  );
  const set = (key: keyof ClaimForm) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  return (
    <EditForm
      name="claim"
      title="Claim a device"
      intro="Both are printed on the device's label. Claiming makes you its owner."
      form={{ submit, busy, error }}
      submitText="Claim"
      busyText="Claiming…"
      onCancel={onCancel}
    >
      <div className="field-row">
        <TextField
          id="claim-serial"
          label="Serial"
          value={form.serial}
          onChange={set('serial')}
          error={fields.serial}
          mono
        />
        <TextField
          id="claim-code"
          label="Claim code"
          value={form.claimCode}
          onChange={set('claimCode')}
          error={fields.claimCode}
          mono
        />
      </div>
    </EditForm>
  );
};
