/** Where the users section's flashes show. */
export const adminUsersFlashKey = 'admin:users';
export const userFlashKey = 'admin:user';
