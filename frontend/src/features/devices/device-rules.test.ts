import type { Device } from '../../../../shared/contracts/devices';
import { checkClaim, checkEdit, checkRegister, EMPTY_REGISTER, editFormOf } from './device-rules';

const device: Device = {
  id: 'dev-abc1',
  serial: 'ABC1',
  name: 'Roof',
  productLine: 'al30',
  model: 'AL30-B',
  firmwareVersion: '1.0.0',
  location: { lat: 52.5, lon: 13.4 },
  locationPrivacy: 'exact',
  dataVisibility: 'private',
  state: 'active',
  status: 'offline',
  created: 1,
  updated: 1,
  access: 'own',
};

describe('device forms', () => {
  it('claims with the contract: an empty code is refused in its words', () => {
    const checked = checkClaim({ serial: 'abc1', claimCode: ' ' });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.fields.claimCode).toBe('Claim code cannot be empty');
    expect(checkClaim({ serial: 'abc1', claimCode: 'K3Y' }).ok).toBe(true);
  });

  it('registers with the contract, leaving an empty name out', () => {
    const checked = checkRegister({ ...EMPTY_REGISTER, serial: 'SN-1234', model: 'M1', firmwareVersion: '1.2.3' });
    expect(checked).toEqual({
      ok: true,
      value: { serial: 'SN-1234', productLine: 'sd1', model: 'M1', firmwareVersion: '1.2.3' },
    });
    const bad = checkRegister({ ...EMPTY_REGISTER, serial: 'S', model: 'M1', firmwareVersion: 'one' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.fields.serial).toBe('Serial is 4 to 32 characters');
      expect(bad.fields.firmwareVersion).toBe('Firmware version must look like 1.2.3 (or 1.2.3-rc.1)');
    }
  });

  it('sends only what changed, and says when nothing did', () => {
    const form = editFormOf(device);
    const nothing = checkEdit(device, form, true);
    expect(nothing.ok).toBe(false);
    if (!nothing.ok) expect(nothing.message).toBe('Nothing to change');
    expect(checkEdit(device, { ...form, name: 'Attic', dataVisibility: 'public' }, true)).toEqual({
      ok: true,
      value: { name: 'Attic', dataVisibility: 'public' },
    });
  });

  it('reads the location from two fields: both, neither (removes it) or a message for the missing one', () => {
    const form = editFormOf(device);
    expect(checkEdit(device, { ...form, lat: '48,1', lon: '11.5' }, true)).toEqual({
      ok: true,
      value: { location: { lat: 48.1, lon: 11.5 } },
    });
    expect(checkEdit(device, { ...form, lat: '', lon: '' }, true)).toEqual({ ok: true, value: { location: null } });
    const half = checkEdit(device, { ...form, lon: '' }, true);
    expect(half.ok).toBe(false);
    if (!half.ok) expect(half.fields.lon).toBe('Give a longitude with the latitude, or neither');
    const far = checkEdit(device, { ...form, lon: '200' }, true);
    expect(far.ok).toBe(false);
    if (!far.ok) expect(far.fields.lon).toBe('Longitude is from -180 to 180');
    const words = checkEdit(device, { ...form, lat: 'north' }, true);
    expect(words.ok).toBe(false);
    if (!words.ok) expect(words.fields.lat).toBe('Latitude must be a number');
  });

  it('changes the firmware version only for the owner', () => {
    const form = { ...editFormOf(device), firmwareVersion: '2.0.0' };
    expect(checkEdit(device, form, true)).toEqual({ ok: true, value: { firmwareVersion: '2.0.0' } });
    expect(checkEdit(device, form, false).ok).toBe(false);
  });
});
