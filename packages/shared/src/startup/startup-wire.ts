import type { EggVariableAttributes, Item, List } from '../servers/server-wire';

/** Wire shapes of `/api/client/servers/{server}/startup*` (reference §7.2 "Startup and settings"). */
export type EggVariableItem = Item<'egg_variable', EggVariableAttributes>;

export interface StartupMeta {
  /** The startup command as the user may see it (hidden values as `[hidden]`). */
  startup_command: string;
  /** The egg's raw startup command, with its `{{VARIABLES}}` unfilled. */
  raw_startup_command: string;
}

/** GET …/startup: the user-viewable variables, the command and the images the egg offers (label → image). */
export interface StartupResponse extends List<EggVariableItem> {
  meta: StartupMeta & { docker_images: Record<string, string> };
}

/** PUT …/startup/variable: the changed variable and the command it now gives. */
export interface StartupVariableResponse extends EggVariableItem {
  meta: StartupMeta;
}
