import type { Infrastructure } from '@aerie/panel/infrastructure';
import { PanelSettingsAdmin } from './panel-settings-admin';

/**
 * The admin area's side of the panel settings. The settings themselves (`ctx.settings`) are infrastructure, since
 * the mailer and other features read them.
 */
export function createPanelSettingsFeature({ settings, mailer }: Infrastructure) {
  return { panelSettingsAdmin: new PanelSettingsAdmin({ settings, mailer }) };
}
