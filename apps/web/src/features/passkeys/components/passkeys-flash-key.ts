/** Errors of the account page's Passkeys box (loading, adding, renaming, removing) show in that box. */
export const passkeysFlashKey = 'account:passkeys';
