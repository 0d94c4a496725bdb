/**
 * What a use case tells the audit log about the call it serves (docs/audit.md): the target as it read it before
 * changing it, the target as it left it when the response does not show that, and a name a person recognises. The
 * HTTP chain hands every handler one (`audit` in the request); for a call that is not a staff action it records
 * nothing, so a use case calls it without asking. A use case cannot stop a call from being recorded.
 */
export interface AuditNote {
  before(value: unknown): void;
  after(value: unknown): void;
  /** E.g. the person's e-mail when the target is their id. */
  label(text: string | undefined): void;
}

export const NO_AUDIT: AuditNote = { before: () => undefined, after: () => undefined, label: () => undefined };
