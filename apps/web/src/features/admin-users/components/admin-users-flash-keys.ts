/** Where the users section's flashes show. */
export const usersFlashKey = 'admin:users';
export const userFlashKey = 'admin:user';
