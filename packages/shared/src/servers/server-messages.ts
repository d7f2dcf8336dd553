/** Error details of the server routes, word for word from the reference (clients and tests match on them). */
export const serverMessages = {
  notAccessible: 'The requested resource does not exist on this server.',
  unauthorized: 'This action is unauthorized.',
  websocketForbidden: "You do not have permission to connect to this server's websocket.",
  suspended: 'This server is currently suspended and the functionality requested is unavailable.',
  nodeMaintenance:
    'The node of this server is currently under maintenance and the functionality requested is unavailable.',
  notInstalled: 'This server has not yet completed its installation process, please try again later.',
  restoringBackup: 'This server is currently restoring from a backup, please try again later.',
  transferring: 'This server is currently being transferred to a new machine, please try again later.',
  unsupportedState: 'This server is currently in an unsupported state, please try again later.',
  invalidFilter: (requested: readonly string[], allowed: readonly string[]) =>
    `Requested filter(s) \`${requested.join(', ')}\` are not allowed. Allowed filter(s) are \`${allowed.join(', ')}\`.`,
} as const;
