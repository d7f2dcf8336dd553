/** A failed load of the account's activity log flashes here. */
export const accountActivityFlashKey = 'account:activity';

/** A failed load of a server's activity log flashes here. */
export const serverActivityFlashKey = 'server:activity';
