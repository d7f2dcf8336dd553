import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RunningPanel } from './panel-process';

/**
 * Waits (inside a test) until `aerie up` has handed the demo server's install to its daemon, which it prints. Until
 * then the daemon's boot reset may have cleared `installing`: a page opened in that moment shows the server as
 * installed and offline, and the daemon refuses what the page offers.
 */
export async function demoInstallHandedOver(panel: RunningPanel, timeout = 60_000): Promise<void> {
  await expect.poll(panel.output, { timeout }).toContain('Installing "Demo Server" on');
}

/** Waits until the demo server is installed, as the client API tells the signed-in page. */
export async function demoInstalled(page: Page, panel: RunningPanel, timeout = 60_000): Promise<void> {
  await demoInstallHandedOver(panel, timeout);
  const installing = async () => {
    const response = await page.request.get(`${panel.url}/api/client`);
    const list = (await response.json()) as {
      data: { attributes: { name: string; is_installing: boolean } }[];
    };
    return list.data.find((server) => server.attributes.name === 'Demo Server')?.attributes.is_installing;
  };
  await expect.poll(installing, { timeout }).toBe(false);
}
