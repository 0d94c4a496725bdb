import { requiredPrecedence, STAFF_GROUP } from '../auth/groups';
import type { AnyRoute, Area, ParsedRequest, RouteResponse, Routes } from './define-route';

/**
 * Which calls of a route are staff actions, and how the audit log names them (docs/audit.md). Declared once per
 * route, in the area's audit file (`shared/contracts/audit/{area}.ts`, `defineAudit`), and applied by the one HTTP chain
 * after the handler: a handler never writes the audit log itself. A route that changes anything and has no
 * declaration fails `audit-coverage.test.ts`.
 *
 * The declarations sit beside the area rather than inside each `defineRoute` because the route objects ship in the
 * web app's first page, and these functions have no business there (docs/decisions/020-audit-log.md).
 */
// Typed by the route's parsed request and response; the chain and the coverage test read any route's declaration as
// `Audited` (of `any`), which the callbacks, declared as methods, allow.
// biome-ignore lint/suspicious/noExplicitAny: a declaration read without its route's types
export interface Audited<Req = any, Res = any> {
  /** The action's name, object first: `user.group.add`. Unique across every contract. */
  action: string;
  /** The action in words, as the audit page lists it: "Added a person to a group". */
  label: string;
  /** A second action the same route carries out for some requests (an edit that cancels a queued deletion). */
  variant?: { action: string; label: string; when(request: Req): boolean };
  target: {
    /** What kind of thing the call changes: `user`, `parameter`, `relation`, `device` … */
    kind: string;
    /**
     * Its id, the spec's own. Called before the handler with no response (the attempt's record) and after it with
     * the response, so a target whose id only the change makes (a new notification) is named in the outcome.
     */
    id(request: Req, response: Res | undefined): string | undefined;
  };
  /**
   * Routes open to more than staff: true when the call is about the caller's own things (their own record, their
   * own banner), so a staff member making it uses no staff power and it is not audited. Staff-only routes are
   * audited on every call whatever this says. @default never the caller's own
   */
  own?(request: Req, callerId: string): boolean;
  /** The target after the change when neither the use case nor the response shows it (`{ enabled: false }`). */
  after?(request: Req, response: Res): unknown;
}

/** A route that changes nothing a staff member is accountable for, with the reason, for the reader of the contract. */
export interface NotAudited {
  notAudited: string;
}

// biome-ignore lint/suspicious/noExplicitAny: a declaration read without its route's types
export type AuditDeclaration<Req = any, Res = any> = Audited<Req, Res> | NotAudited;

/** The declaration of one route, typed by its request and response. */
export type RouteAudit<R extends AnyRoute> = AuditDeclaration<ParsedRequest<R>, RouteResponse<R>>;

/** One declaration per route of an area, by the route's name. */
export type AuditMap<R extends Routes = Routes> = { [K in keyof R]?: RouteAudit<R[K]> };

/** Any area's declarations, read without their routes' types (the chain, the coverage test, the audit page). */
export type AnyAuditMap = Partial<Record<string, AuditDeclaration>>;

/**
 * An area's audit declarations, checked against its routes by the compiler: `defineAudit<typeof devices>({...})`.
 * The area is a type argument, imported as a type, so the declarations (which the system area lists with their
 * words) do not run the area's route definitions; without it the declarations match nothing and do not compile.
 */
export const defineAudit = <A extends Area = never>(
  declarations: AuditMap<NoInfer<A>['routes']>,
): AuditMap<A['routes']> => declarations;

export const notAudited = (reason: string): NotAudited => ({ notAudited: reason });

export const isAudited = (declaration: AuditDeclaration | undefined): declaration is Audited =>
  declaration !== undefined && 'action' in declaration;

/** A route only staff may call: every call of it is a staff action. */
export const isStaffOnly = (route: AnyRoute): boolean =>
  route.access.kind === 'group' && requiredPrecedence(route.access.group) <= requiredPrecedence(STAFF_GROUP);

/** The action one call carries out. */
export const actionOf = (declaration: Audited, request: unknown): { action: string; label: string } =>
  declaration.variant?.when(request) ? declaration.variant : declaration;

/** Common targets: the person named by the path's `{id}`. */
export const personInPath = {
  kind: 'user',
  id: (request: { params: { id: string } }) => request.params.id,
} as const;

/** Common `own`: the path's `{id}` is the caller. */
export const callerInPath = (request: { params: { id: string } }, callerId: string): boolean =>
  request.params.id === callerId;
