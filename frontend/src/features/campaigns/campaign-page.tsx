import { ObjectPage } from '../relations/object-page';

/** `/dashboard/campaigns/:id`: a placeholder until the campaigns area's own page; for now its members. */
export const CampaignPage = () => <ObjectPage kind="campaign" />;
