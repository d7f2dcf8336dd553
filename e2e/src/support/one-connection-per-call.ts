/**
 * The tests' own calls to the panel (fetch from this process, not the browser's) each get a connection of their
 * own. Node 20's fetch keeps a connection until 2 s before the panel's 5 s keep-alive ends, checked on a timer of
 * about half a second; on a busy machine a call made after a few seconds of browser work could go out on a connection
 * the panel was closing at that moment ("other side closed", seen once in CI). A fresh connection per call
 * cannot meet that race; the panel's keep-alive itself is tested in apps/panel.
 */
const fetchOverKeptConnections = globalThis.fetch;

globalThis.fetch = (input, init = {}) => {
  const headers = new Headers(init.headers);
  if (!headers.has('connection')) headers.set('connection', 'close');
  return fetchOverKeptConnections(input, { ...init, headers });
};
