import type { system } from '../../../shared/contracts/system';
import type { AreaPart, PartReadAhead } from '../../_shared/http/http-area';
import type { SystemDeps } from '../deps';

/** System parameters and the tier features they hold (docs/system.md). */
export const parameterHandlers = {
  listParameters: ({ query }, { parameters }) => parameters.list(query),
  getParameter: ({ params, ahead }, { parameters }) => parameters.get(params.id, ahead),
  createParameter: ({ body }, { parameters }) => parameters.create(body),
  updateParameter: ({ params, body, audit }, { parameters }) => parameters.update(params.id, body.value, audit),
  deleteParameter: ({ params, audit }, { parameters }) => parameters.remove(params.id, audit),
  getTierFeatures: (_request, { tierFeatures }) => tierFeatures.get(),
  putTierFeatures: ({ body, audit }, { tierFeatures }) => tierFeatures.put(body, audit),
} satisfies AreaPart<typeof system, SystemDeps>;

/** The parameter, read with the session record (one round trip: docs/decisions/013-read-ahead-with-the-session-record.md). */
export const parameterReadAhead: PartReadAhead<typeof system.routes, SystemDeps> = {
  getParameter: ({ params }, { parameters }) => parameters.readAhead(params.id),
};
