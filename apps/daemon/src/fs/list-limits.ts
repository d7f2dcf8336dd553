/** Entries in a listing unless the caller asks for a page: four times the browser's 250, so its notice shows. */
export const LIST_DEFAULT_LIMIT = 1000;
/** Deepest entry a page may reach (`offset + limit`): what the walk keeps in memory is twice this at most. */
export const LIST_MAX_DEPTH = 10_000;
