import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import { readBool } from '@aerie/panel/db/dialect';
import { isLocalNode } from './local-node';
import { type NodeRow, openDaemonToken } from './nodes.service';

/**
 * The body of GET /api/application/nodes/{id}/configuration (reference application API §6.1): Wings'
 * configuration keys in upstream's order, the daemon token decrypted, then an `aerie` block.
 *
 * `aerie.env` is what `aerie daemon` on the node's machine needs, as the environment variables it reads
 * (apps/daemon/src/config/env.ts): DAEMON_HOST (0.0.0.0, as Wings' `api.host`), DAEMON_PORT (`daemon_listen`),
 * DAEMON_SFTP_PORT (`daemon_sftp`), DAEMON_TOKEN_ID, DAEMON_TOKEN, PANEL_URL (`remote`) and DAEMON_UPLOAD_LIMIT_MB
 * (`upload_size`). Save the document on that machine (it holds the token: mode 600) and start the daemon with
 * `DAEMON_CONFIG=/path/to/config.json aerie daemon`; variables set in the environment win over the file (e.g.
 * DAEMON_HOST to listen on one interface only, DAEMON_DATA_DIR for where the servers live — `system.data` is
 * Wings' and is not used by Aerie). An Aerie daemon speaks plain HTTP: a node with scheme `https` needs a TLS
 * proxy in front of it. Wings ignores the unknown `aerie` key, so `wings configure` still reads this document.
 *
 * `allowed_mounts` lists the sources of the mounts attached to the node: the daemon reads it (as Wings' config.yml)
 * when its `aerie.env` has no DAEMON_ALLOWED_MOUNTS, and binds a mount only from within one of them.
 */
export function nodeConfiguration(
  secretBox: SecretBox,
  node: NodeRow,
  panelUrl: string,
  allowedMounts: readonly string[] = [],
) {
  const token = openDaemonToken(secretBox, node);
  const fqdn = node.fqdn.toLowerCase();
  return {
    debug: false,
    uuid: node.uuid,
    token_id: node.daemon_token_id,
    token,
    api: {
      host: '0.0.0.0',
      port: node.daemon_listen,
      ssl: {
        enabled: node.scheme === 'https' && !readBool(node.behind_proxy),
        cert: `/etc/letsencrypt/live/${fqdn}/fullchain.pem`,
        key: `/etc/letsencrypt/live/${fqdn}/privkey.pem`,
      },
      upload_limit: node.upload_size,
    },
    system: { data: node.daemon_base, sftp: { bind_port: node.daemon_sftp } },
    allowed_mounts: [...allowedMounts],
    remote: panelUrl,
    aerie: {
      env: {
        DAEMON_HOST: '0.0.0.0',
        DAEMON_PORT: String(node.daemon_listen),
        DAEMON_SFTP_PORT: String(node.daemon_sftp),
        DAEMON_TOKEN_ID: node.daemon_token_id,
        DAEMON_TOKEN: token,
        PANEL_URL: panelUrl,
        DAEMON_UPLOAD_LIMIT_MB: String(node.upload_size),
      },
      // The node whose daemon `aerie up` (npm start) runs and restarts with this very configuration.
      ...(isLocalNode(node) ? { started_by: 'aerie up' } : {}),
    },
  };
}

/**
 * `remote`: the panel's root URL as the request reached it (no trailing slash), forced to https when APP_URL is
 * https, as upstream builds it.
 */
export function panelRootUrl(request: { protocol: string; host: string }, appUrl: string): string {
  const scheme = appUrl.startsWith('https://') ? 'https' : request.protocol;
  return `${scheme}://${request.host}`;
}
