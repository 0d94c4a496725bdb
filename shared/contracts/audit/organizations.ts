import { defineAudit, notAudited } from '../define-audit';
import type { organizations } from '../organizations';

const organizationInPath = { kind: 'organization', id: ({ params }: { params: { id: string } }) => params.id } as const;

/** Organizations changed by staff (docs/audit.md); staff may manage any, so every staff change is recorded. */
export const organizationsAudit = /* @__PURE__ */ defineAudit<typeof organizations>({
  create: notAudited('anyone creates an organization, becoming its manager: no staff power is used'),
  listAll: notAudited('a read'),
  update: { action: 'organization.update', label: 'Changed an organization', target: organizationInPath },
  delete: { action: 'organization.delete', label: 'Deleted an organization', target: organizationInPath },
  createLogoUpload: notAudited('only hands out an upload URL; the change is PUT /organizations/{id}/logo'),
  setLogo: { action: 'organization.logo.set', label: "Replaced an organization's logo", target: organizationInPath },
  deleteLogo: {
    action: 'organization.logo.delete',
    label: "Removed an organization's logo",
    target: organizationInPath,
  },
});
