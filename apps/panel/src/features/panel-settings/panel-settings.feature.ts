import type { Infrastructure } from '@aerie/panel/infrastructure';
import { PanelSettings } from './panel-settings';

/** Settings stored in the database (effective without a restart). */
export function createPanelSettingsFeature(infrastructure: Infrastructure) {
  const { config, db, clock } = infrastructure;
  return {
    settings: new PanelSettings({ db, clock, defaults: { twoFactorRequired: config.twoFactorRequired } }),
  };
}
