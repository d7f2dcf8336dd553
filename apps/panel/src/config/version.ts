import packageJson from '../../package.json' with { type: 'json' };

/** The panel's version, as its package.json states it (the API documentation and the admin overview show it). */
export const PANEL_VERSION: string = packageJson.version;
