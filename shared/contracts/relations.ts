import { defineArea } from './define-route';

/** Routes arrive with this area's issue; the area exists so every layer already knows its name. */
export const relations = defineArea('relations', {});
