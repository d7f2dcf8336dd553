import { serverApplicationMessages } from '@aerie/shared/servers/server-application-bodies';

/** Which end of a transfer a node is. */
export type TransferSide = 'source' | 'target';

/** The transfer routes' refusals, and the reasons a failed transfer shows its admin. */
export const transferMessages = {
  sameNode: 'The server is already on the selected node.',
  nodeMaintenance: 'The selected node is under maintenance.',
  notViable:
    'The node you selected does not have the required disk space or memory available to accommodate this server.',
  allocationTaken: serverApplicationMessages.allocationTaken,
  notTransferring: 'This server is not being transferred.',
  onlyTarget: 'Only the node the server is being transferred to can report its success.',
  // Reasons, shown on the server's Manage tab.
  cancelled: 'cancelled by an administrator',
  abandoned: 'the source node is no longer sending the server (its report never reached the panel)',
  alreadyEnded: 'This transfer has already ended; the server stays where it was.',
  nodeRestarted: (side: TransferSide) => `the ${side} node restarted during the transfer`,
  reported: (side: TransferSide) => `the ${side} node reported a failure`,
  sourceRefused: (detail: string) => `the source node refused the transfer: ${detail}`,
  sourceUnreachable: 'the source node could not be reached',
  notStarted: 'the panel could not start the transfer',
} as const;

/** The longest reason kept (a daemon's own words are clipped to it). */
export const MAX_FAILURE_LENGTH = 500;
