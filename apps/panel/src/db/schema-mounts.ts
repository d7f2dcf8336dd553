import type { ColumnType, Generated } from 'kysely';
import type { DbBool } from './schema-columns';

/** Tables of migration 0013-mounts. */
type Flag = ColumnType<DbBool, boolean | undefined, boolean>;

export interface MountsTable {
  id: Generated<number>;
  uuid: string;
  /** 2–64 characters, unique. */
  name: string;
  description: string | null;
  /** The folder on the node's host; the daemon binds it only within its allowed mounts. */
  source: string;
  /** Where the game sees it. */
  target: string;
  read_only: Flag;
  /** Whether a server's users may attach it themselves (on an egg and node it is attached to). */
  user_mountable: Flag;
}

/** A mount usable by servers of an egg, on a node, or used by a server: one pivot row each. */
export interface EggMountTable {
  egg_id: number;
  mount_id: number;
}
export interface MountNodeTable {
  node_id: number;
  mount_id: number;
}
export interface MountServerTable {
  server_id: number;
  mount_id: number;
}

export interface MountTables {
  mounts: MountsTable;
  egg_mount: EggMountTable;
  mount_node: MountNodeTable;
  mount_server: MountServerTable;
}
