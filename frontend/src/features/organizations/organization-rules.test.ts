import { LOGO_MAX_BYTES, type Organization } from '../../../../shared/contracts/organizations';
import { MESSAGES } from '../../../../shared/messages';
import { uploadRefusal } from '../../lib/upload-file';
import {
  checkLogoFile,
  checkNewOrganization,
  checkOrganizationChange,
  EMPTY_ORGANIZATION,
  organizationFormOf,
  percentOf,
} from './organization-rules';

const organization: Organization = {
  id: 'org-1',
  name: 'Lab',
  description: 'Air',
  website: 'https://lab.example',
  created: 1,
  createdBy: 'u',
  updated: 1,
};

describe('organization forms and logo checks', () => {
  it('creates with the contract, leaving empty optional fields out', () => {
    expect(checkNewOrganization({ ...EMPTY_ORGANIZATION, name: 'Lab' })).toEqual({ ok: true, value: { name: 'Lab' } });
    const bad = checkNewOrganization({ ...EMPTY_ORGANIZATION, name: ' ', website: 'lab.example' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.fields.name).toBe('Name cannot be empty');
      expect(bad.fields.website).toBe('Website must start with http:// or https://');
    }
  });

  it('sends only changed fields; an emptied field is sent empty (it clears)', () => {
    const form = organizationFormOf(organization);
    expect(checkOrganizationChange(organization, { ...form, website: '' })).toEqual({
      ok: true,
      value: { website: '' },
    });
    const nothing = checkOrganizationChange(organization, form);
    expect(nothing.ok).toBe(false);
    if (!nothing.ok) expect(nothing.message).toBe('Send at least one field to change');
  });

  it('checks a logo file with the limits of the API', () => {
    expect(checkLogoFile({ type: 'image/png', size: 2048 })).toEqual({
      ok: true,
      contentType: 'image/png',
      size: 2048,
    });
    expect(checkLogoFile({ type: 'image/svg+xml', size: 10 })).toEqual({
      ok: false,
      error: MESSAGES.organizationLogoType,
    });
    expect(checkLogoFile({ type: 'text/plain', size: 10 })).toEqual({
      ok: false,
      error: MESSAGES.organizationLogoType,
    });
    expect(checkLogoFile({ type: 'image/jpeg', size: LOGO_MAX_BYTES + 1 })).toEqual({
      ok: false,
      error: MESSAGES.organizationLogoTooLarge,
    });
    expect(checkLogoFile({ type: 'image/webp', size: 0 })).toEqual({
      ok: false,
      error: MESSAGES.organizationLogoEmpty,
    });
  });

  it('shows progress in whole percent, 100 only when all is sent', () => {
    expect(percentOf(0, 0)).toBe(0);
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(999, 1000)).toBe(99);
    expect(percentOf(1000, 1000)).toBe(100);
  });

  it("words the file store's refusal, with S3's own message", () => {
    expect(uploadRefusal(403, '<Error><Message>Request has expired</Message></Error>')).toBe(
      'The file store refused the upload (the upload link may have expired): Request has expired',
    );
    expect(uploadRefusal(500, '')).toBe('The file store refused the upload (HTTP 500)');
  });
});
