// First-load JavaScript (gzip) of the sign-in page and of the dashboard for a signed-in user who is not an admin:
// what the admin area must never add to. WEB_DIST measures another build of the web app (e.g. an older commit's).
import { buildWeb, preparePanel, runNode, startPanel } from './src/bench-setup';
import { measureFirstLoadJs } from './src/first-load-js';
import { signIn } from './src/sign-in';

const customer = { username: 'customer', email: 'customer@example.com', password: 'customer password 1' };

if (!process.env.WEB_DIST) buildWeb({ onlyIfMissing: false });
const prepared = await preparePanel();
if (process.env.WEB_DIST) prepared.env.WEB_DIST = process.env.WEB_DIST;
runNode(
  [
    'bin/aerie.mjs',
    'user:create',
    '--username',
    customer.username,
    '--email',
    customer.email,
    '--password',
    customer.password,
  ],
  prepared.env,
);
const panel = await startPanel(prepared);
try {
  const login = await measureFirstLoadJs(`${panel.url}/auth/login`);
  const cookie = await signIn(panel.url, customer.username, customer.password);
  const dashboard = await measureFirstLoadJs(`${panel.url}/`, { cookie });
  console.log(`web build: ${process.env.WEB_DIST ?? 'apps/web/dist (built now)'}`);
  console.log(`/auth/login: ${login.files} scripts, ${login.gzipBytes} bytes gzip (${login.rawBytes} raw)`);
  console.log(
    `/ (signed in, not an admin): ${dashboard.files} scripts, ${dashboard.gzipBytes} bytes gzip (${dashboard.rawBytes} raw)`,
  );
  if (process.env.FIRST_LOAD_LIST) {
    for (const script of login.scripts) console.log(`  login ${script.gzipBytes}\t${script.name}`);
    for (const script of dashboard.scripts) console.log(`  home ${script.gzipBytes}\t${script.name}`);
  }
} finally {
  await panel.stop();
  prepared.cleanUp();
}
