import type { Item, List } from '../servers/server-wire';

/** `mount` of the Application API (`/api/application/mounts`). */
export interface MountAttributes {
  id: number;
  uuid: string;
  name: string;
  description: string | null;
  /** The folder on the node's host. */
  source: string;
  target: string;
  read_only: boolean;
  user_mountable: boolean;
}

/**
 * `/api/client/servers/{server}/mounts`: the mounts a server uses and those its users may attach. The host folder a
 * mount shows (`source`) is the host's business and is not sent.
 */
export interface ServerMountAttributes {
  uuid: string;
  name: string;
  description: string | null;
  target: string;
  read_only: boolean;
  /** Whether the server's users may attach and detach it; others are attached by an administrator. */
  user_mountable: boolean;
  attached: boolean;
}

export type ServerMountItem = Item<'server_mount', ServerMountAttributes>;
export type ServerMountListResponse = List<ServerMountItem>;

export const serverMountMessages = {
  notUserMountable: 'This mount was attached by an administrator and can only be detached by one.',
} as const;
