import type { RouteRequest } from '../../../../shared/contracts/define-route';
import {
  LOGO_CONTENT_TYPES,
  LOGO_MAX_BYTES,
  type LogoContentType,
  LogoUploadRequest,
  type Organization,
  organizations,
} from '../../../../shared/contracts/organizations';
import type { RelationType } from '../../../../shared/relations/relation-types';
import { type Checked, checkWith } from '../../lib/form-check';

/** The organizations screens' rules, without React: the forms' bodies and the logo file's checks. */

export type NewOrganizationBody = RouteRequest<typeof organizations.routes.create>['body'];
export type OrganizationChangeBody = RouteRequest<typeof organizations.routes.update>['body'];

export interface OrganizationForm {
  name: string;
  description: string;
  website: string;
  contactEmail: string;
}

export const EMPTY_ORGANIZATION: OrganizationForm = { name: '', description: '', website: '', contactEmail: '' };

export const organizationFormOf = (organization: Organization): OrganizationForm => ({
  name: organization.name,
  description: organization.description ?? '',
  website: organization.website ?? '',
  contactEmail: organization.contactEmail ?? '',
});

/** A new organization: the optional fields only when filled. */
export const checkNewOrganization = (form: OrganizationForm): Checked<NewOrganizationBody> =>
  checkWith(organizations.routes.create.body!, {
    name: form.name,
    ...(form.description.trim() ? { description: form.description } : {}),
    ...(form.website.trim() ? { website: form.website } : {}),
    ...(form.contactEmail.trim() ? { contactEmail: form.contactEmail } : {}),
  });

/** The fields that changed (an emptied optional field is sent empty: that clears it). */
export const checkOrganizationChange = (
  organization: Organization,
  form: OrganizationForm,
): Checked<OrganizationChangeBody> => {
  const before = organizationFormOf(organization);
  const body: OrganizationChangeBody = {};
  for (const key of ['name', 'description', 'website', 'contactEmail'] as const) {
    if (form[key] !== before[key]) body[key] = form[key];
  }
  return checkWith(organizations.routes.update.body!, body);
};

/** May the caller change the organization: a manager of it, or staff. */
export const mayManageOrganization = (roles: readonly RelationType[], staff: boolean): boolean =>
  staff || roles.includes('organization-manager');

// ---- logo ----

/** What the file chooser offers; the check below is what counts (a chooser's filter is only a hint). */
export const LOGO_ACCEPT = LOGO_CONTENT_TYPES.join(',');
export const LOGO_LIMIT_TEXT = `PNG, JPEG or WebP, at most ${LOGO_MAX_BYTES / (1024 * 1024)} MB`;

export type CheckedLogo = { ok: true; contentType: LogoContentType; size: number } | { ok: false; error: string };

/**
 * The chosen file against the API's own limits (the contract's upload request schema), before any upload:
 * its type as the browser reports it, and its size.
 */
export const checkLogoFile = (file: { type: string; size: number }): CheckedLogo => {
  const parsed = LogoUploadRequest.safeParse({ contentType: file.type, size: file.size });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? 'This file cannot be a logo' };
  return { ok: true, contentType: parsed.data.contentType, size: parsed.data.size };
};

/** A fraction of an upload as the whole percentage a person reads; 100 only when every byte went. */
export const percentOf = (loaded: number, total: number): number => {
  if (total <= 0) return 0;
  if (loaded >= total) return 100;
  return Math.min(99, Math.floor((loaded / total) * 100));
};

export const byteSize = (bytes: number): string =>
  bytes < 1024
    ? `${bytes} bytes`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1048576).toFixed(1)} MB`;
