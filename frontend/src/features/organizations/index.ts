import { lazy } from 'react';

/**
 * What other features may use of the organizations (docs/style.md §9, §17): the create form, which loads when opened.
 */
export const NewOrganizationForm = lazy(() =>
  import('./organization-forms').then((m) => ({ default: m.NewOrganizationForm })),
);
