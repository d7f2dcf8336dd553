import type { Item, List, SubuserAttributes } from '../servers/server-wire';

/**
 * Wire shapes of `/api/client/servers/{server}/users*` (reference §6 `server_subuser`). `image` is an avatar URL
 * (size 400) when the panel has an avatar service configured, else `""`: the page then draws the initials.
 * `permissions` are as stored: the catalogue's strings in the order given, `websocket.connect` last.
 */
export type { SubuserAttributes };
export type SubuserItem = Item<'server_subuser', SubuserAttributes>;
export type SubuserResponse = SubuserItem;
export type SubuserListResponse = List<SubuserItem>;
