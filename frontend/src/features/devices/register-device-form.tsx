import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { EditForm } from '../../components/edit-form';
import { useApi } from '../../lib/api';
import { ChoiceField, TextField } from '../../lib/form-fields';
import { sectionOf } from '../../lib/navigation';
import { SecretOnce } from '../../lib/secret-once';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { deviceListKeys } from './device-api';
import { checkRegister, EMPTY_REGISTER, PRODUCT_LINE_OPTIONS, type RegisterForm } from './device-rules';

/**
 * Registration of a serial (staff, Distributors). The claim code is answered once: it is shown here with a
 * copy button, to print on the device's label; nobody can read it again.
 */
export const RegisterDeviceForm = () => {
  const devices = useApi('devices');
  const base = `/${sectionOf(useLocation().pathname)}`;
  const [form, setForm] = useState<RegisterForm>(EMPTY_REGISTER);
  const {
    submit,
    busy,
    error,
    fields,
    done: made,
  } = useCheckedSubmit(
    () => checkRegister(form),
    async (body) => {
      const answer = await devices.register({ body });
      setForm(EMPTY_REGISTER);
      return answer;
    },
    deviceListKeys,
  );
  const set = (key: keyof RegisterForm) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  return (
    <EditForm
      name="register"
      title="Register a device"
      form={{ submit, busy, error }}
      submitText="Register"
      busyText="Registering…"
      notice={
        made && (
          <SecretOnce
            value={made.claimCode}
            testId="register-done"
            valueTestId="register-claim-code"
            copyTestId="register-copy"
          >
            Registered{' '}
            <Link to={`${base}/devices/${encodeURIComponent(made.device.id)}`} data-testid="register-device-link">
              {made.device.serial}
            </Link>
            . <strong>Its claim code is shown only now:</strong> print it on the label.
          </SecretOnce>
        )
      }
    >
      <div className="field-row">
        <TextField
          id="register-serial"
          label="Serial"
          value={form.serial}
          onChange={set('serial')}
          error={fields.serial}
          mono
        />
        <ChoiceField
          id="register-product-line"
          label="Product line"
          value={form.productLine}
          options={PRODUCT_LINE_OPTIONS}
          onChange={set('productLine')}
          error={fields.productLine}
        />
      </div>
      <div className="field-row">
        <TextField id="register-model" label="Model" value={form.model} onChange={set('model')} error={fields.model} />
        <TextField
          id="register-firmware"
          label="Firmware version"
          value={form.firmwareVersion}
          onChange={set('firmwareVersion')}
          error={fields.firmwareVersion}
          placeholder="e.g. 1.0.0"
          mono
        />
      </div>
      <TextField
        id="register-name"
        label="Name (optional)"
        value={form.name}
        onChange={set('name')}
        error={fields.name}
      />
    </EditForm>
  );
};
