import { defineArea } from './define-route';

/**
 * The web app's own routes, served under `/api/...` (spec §7 "Other" and the subscription endpoints).
 * Routes arrive with their issues.
 */
export const api = defineArea('api', {});
