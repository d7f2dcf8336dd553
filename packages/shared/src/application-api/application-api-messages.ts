/**
 * Fixed messages of the Application API (`/api/application`), word for word as Pterodactyl answers them
 * (reference application API §1.4, §2.4, §3); billing modules show `errors[0].detail` to their admins.
 */
export const applicationApiMessages = {
  notAdmin: 'This account does not have permission to access the API.',
  unauthorized: 'This action is unauthorized.',
  /** Managing application keys is for an admin's own session or account key, never for another application key. */
  keysNotByApplicationKey: 'Application API keys cannot be managed with an application API key.',
  /** The panel settings decide who may sign in and how: an admin's own session or account key only. */
  settingsNotByApplicationKey:
    "The panel settings cannot be read or changed with an application API key; use an administrator's session or account API key.",
  /** Roles decide who may do what in the admin area: the same rule as the settings. */
  rolesNotByApplicationKey:
    "Admin roles cannot be read or changed with an application API key; use an administrator's session or account API key.",
  invalidFilter: (requested: string[], allowed: readonly string[]) =>
    `Requested filter(s) \`${requested.join(', ')}\` are not allowed. Allowed filter(s) are \`${allowed.join(', ')}\`.`,
  invalidSort: (requested: string[], allowed: readonly string[]) =>
    `Requested sort(s) \`${requested.join(', ')}\` is not allowed. Allowed sort(s) are \`${allowed.join(', ')}\`.`,
} as const;
