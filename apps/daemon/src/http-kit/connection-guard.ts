/**
 * The daemon's HTTP connections are bounded by the guard it shares with the panel (packages/shared/src/net):
 * per address, in all (making room by closing the longest-unused connection that never proved itself), header and
 * idle time-outs. A connection proves itself with the node token (app.ts), a signed URL (signed-file-routes.ts) or
 * a console `auth` (websocket/console-websocket.ts).
 */
export {
  addressKey,
  connectionServerOptions,
  guardConnections,
  proveConnection,
} from '@aerie/shared/net/connection-guard';
