/** Errors of the Users page: the list, the catalogue and deletes (spec §8 key `users`). */
export const subusersFlashKey = 'users';

/** Errors of a save, shown inside the subuser modal (Pterodactyl's key). */
export const subuserModalFlashKey = 'user:edit';
