import * as z from 'zod';
import { MESSAGES } from '../messages';
import { OptionalSafeText, SafeText } from '../text/sanitize';
import { EpochMillis, PageQuery, page } from './common';
import { defineArea, defineRoute, minGroup, signedIn } from './define-route';
import { ObjectId } from './shapes';

/**
 * The organizations area (docs/organizations.md). An organization is a customer account in ThingsBoard's sense:
 * a named group of people (organization-manager, -user, -participant relations) and devices
 * (organization-device), with a description, a public website, a contact address and a logo.
 */

/** New organizations get a uuid; ids written before (demo data, migrations) keep the relation id alphabet. */
export const OrganizationId = ObjectId;

export const ORGANIZATION_ROLES = ['organization-manager', 'organization-user', 'organization-participant'] as const;
export const OrganizationRole = z.enum(ORGANIZATION_ROLES);
export type OrganizationRole = z.infer<typeof OrganizationRole>;

/**
 * Logo files: raster images only. SVG is refused because it is a document, not a picture: it can carry scripts
 * and external references that run when the file is opened from the bucket's own URL.
 */
export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const LogoContentType = z.enum(LOGO_CONTENT_TYPES, { error: () => MESSAGES.organizationLogoType });
export type LogoContentType = z.infer<typeof LogoContentType>;
/** 1 MB: a logo is shown at most a few hundred pixels wide; a larger file only slows every page that shows it. */
export const LOGO_MAX_BYTES = 1024 * 1024;

export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 1000;

export const OrganizationLogo = z.object({
  /** The object key in the logo bucket: `organizations/{id}/logo-{uuid}`. */
  key: z.string(),
  contentType: LogoContentType,
  size: z.number().int().nonnegative(),
  updated: EpochMillis,
});
export type OrganizationLogo = z.infer<typeof OrganizationLogo>;

export const Organization = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  /** The organization's public web site (http or https). */
  website: z.string().optional(),
  /** Who to write to about the organization; shown to its members. */
  contactEmail: z.string().optional(),
  logo: OrganizationLogo.optional(),
  /** A short-lived presigned GET of the logo, present when there is one. */
  logoUrl: z.string().optional(),
  created: EpochMillis,
  /** The user who created it. */
  createdBy: z.string(),
  updated: EpochMillis,
});
export type Organization = z.infer<typeof Organization>;

/** An organization in the caller's own list, with the caller's roles in it. */
export const MyOrganization = Organization.extend({ roles: z.array(OrganizationRole) });
export type MyOrganization = z.infer<typeof MyOrganization>;

const Website = z
  .string({ error: 'Website must be text' })
  .trim()
  .max(300, 'Website is at most 300 characters')
  .refine(
    (value) => value === '' || /^https?:\/\/[^\s<>"]+$/i.test(value),
    'Website must start with http:// or https://',
  );

const ContactEmail = z
  .string({ error: 'Contact e-mail must be text' })
  .trim()
  .toLowerCase()
  .max(254, 'Contact e-mail is at most 254 characters')
  .refine((value) => value === '' || z.email().safeParse(value).success, 'Contact e-mail must be an e-mail address');

const OrganizationFields = {
  name: SafeText('Name', NAME_MAX),
  /** Empty clears it on update. */
  description: OptionalSafeText('Description', DESCRIPTION_MAX).optional(),
  /** Empty clears it on update. */
  website: Website.optional(),
  /** Empty clears it on update. */
  contactEmail: ContactEmail.optional(),
};

const NewOrganization = z.object(OrganizationFields).strict();
/** Only the fields sent change. */
const OrganizationChange = z
  .object({ ...OrganizationFields, name: OrganizationFields.name.optional() })
  .strict()
  .refine((body) => Object.values(body).some((v) => v !== undefined), 'Send at least one field to change');

const IdParams = z.object({ id: OrganizationId });

export const LogoUploadRequest = z
  .object({
    contentType: LogoContentType,
    size: z
      .number({ error: 'Size must be a number of bytes' })
      .int('Size must be a whole number of bytes')
      .min(1, MESSAGES.organizationLogoEmpty)
      .max(LOGO_MAX_BYTES, MESSAGES.organizationLogoTooLarge),
  })
  .strict();

export const LogoUpload = z.object({
  /** PUT the file here with exactly these headers; the URL refuses another type or size. */
  url: z.string(),
  method: z.literal('PUT'),
  headers: z.record(z.string(), z.string()),
  /** Send it back to PUT /organizations/{id}/logo once the upload finished. */
  key: z.string(),
  expiresAt: EpochMillis,
});
export type LogoUpload = z.infer<typeof LogoUpload>;

const LogoKey = z
  .string({ error: 'Key must be text' })
  .trim()
  .min(1, 'Key cannot be empty')
  .max(300, 'Key is at most 300 characters');

export const organizations = defineArea('organizations', {
  create: defineRoute({
    method: 'POST',
    path: '/organizations',
    access: signedIn,
    summary: 'Create an organization; the caller becomes its organization-manager.',
    body: NewOrganization,
    response: Organization,
    status: 201,
  }),
  // Before `get`: the local gateway matches in order, and `mine` would otherwise be read as an id.
  listMine: defineRoute({
    method: 'GET',
    path: '/organizations/mine',
    access: signedIn,
    summary: "The organizations the caller has any organization-* relation with, with the caller's roles, paged.",
    query: PageQuery,
    response: page(MyOrganization),
  }),
  listAll: defineRoute({
    method: 'GET',
    path: '/organizations',
    access: minGroup('Employees'),
    summary: 'Every organization, paged (staff; admin tooling).',
    query: PageQuery,
    response: page(Organization),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/organizations/{id}',
    access: signedIn,
    summary: 'One organization (its members and staff).',
    params: IdParams,
    response: Organization,
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/organizations/{id}',
    access: signedIn,
    summary: "Change an organization's name, description, website or contact (its managers and staff).",
    params: IdParams,
    body: OrganizationChange,
    response: Organization,
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/organizations/{id}',
    access: signedIn,
    summary: 'Delete an organization with its relations and logo (its managers and staff).',
    params: IdParams,
    response: z.void(),
  }),
  createLogoUpload: defineRoute({
    method: 'POST',
    path: '/organizations/{id}/logo-upload',
    access: signedIn,
    summary: 'A presigned PUT for a new logo (png, jpeg or webp, at most 1 MB); confirm it with PUT …/logo.',
    params: IdParams,
    body: LogoUploadRequest,
    response: LogoUpload,
    status: 201,
  }),
  setLogo: defineRoute({
    method: 'PUT',
    path: '/organizations/{id}/logo',
    access: signedIn,
    summary: 'Make an uploaded file the logo once its real type and size are checked; replaces the previous one.',
    params: IdParams,
    body: z.object({ key: LogoKey }).strict(),
    response: Organization,
  }),
  deleteLogo: defineRoute({
    method: 'DELETE',
    path: '/organizations/{id}/logo',
    access: signedIn,
    summary: "Remove the organization's logo.",
    params: IdParams,
    response: Organization,
  }),
});
