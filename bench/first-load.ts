// First-load JavaScript (gzip) of the four pages of issue 19, and the sign-in page's translation bytes per language: the sign-in page, and for a signed-in user who is not
// an admin the dashboard, a server's console and its file manager; each against its goal. WEB_DIST measures another
// build of the web app (e.g. an older commit's); FIRST_LOAD_LIST=1 lists every script of every page.
import { buildWeb, preparePanel, startPanel } from './src/bench-setup';
import { firstLoadSummary, formatFirstLoadRoutes, measureFirstLoadRoutes } from './src/first-load-routes';
import { formatTranslationLoads, measureTranslationLoad } from './src/first-load-translations';
import { reportSummary } from './src/summary';

if (!process.env.WEB_DIST) buildWeb({ onlyIfMissing: false });
const prepared = await preparePanel();
if (process.env.WEB_DIST) prepared.env.WEB_DIST = process.env.WEB_DIST;
const panel = await startPanel(prepared);
try {
  const rows = await measureFirstLoadRoutes(panel.url, prepared.env);
  console.log(`web build: ${process.env.WEB_DIST ?? 'apps/web/dist (built now)'}`);
  for (const line of formatFirstLoadRoutes(rows)) console.log(line);
  reportSummary(firstLoadSummary(rows));
  // The sign-in page's translations for a guest whose browser prefers each language: one language, its namespaces.
  const loads = [];
  for (const locale of ['en-US', 'de-DE', 'ar'])
    loads.push(await measureTranslationLoad(`${panel.url}/auth/login`, locale));
  for (const line of formatTranslationLoads(loads)) console.log(line);
  if (process.env.FIRST_LOAD_LIST) {
    for (const row of rows) {
      for (const script of row.scripts) console.log(`  ${row.name} ${script.gzipBytes}\t${script.name}`);
    }
  }
} finally {
  await panel.stop();
  prepared.cleanUp();
}
