/** The store this site belongs to. */
export const STORE_NAME = 'Kindred Paws';
