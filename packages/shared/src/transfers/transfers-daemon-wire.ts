/**
 * The wire of a server transfer between two nodes (reference/wings.md §1.5), snake_case as on the wire.
 *
 * Panel → source daemon (node token):
 * - `POST /api/servers/{uuid}/transfer` {@link DaemonTransferRequest} → 202: the source stops the server and streams
 *   its files to `url`; 409 while it is already transferring (or installing, or restoring);
 * - `DELETE /api/servers/{uuid}/transfer` → 202: cancels the outgoing stream (the server stays on the source).
 *
 * Source daemon → target daemon: `POST /api/transfers`, `Authorization: Bearer <JWT>` ({@link TransferTokenClaims},
 * signed by the panel with the **target** node's token, 15 min), `multipart/form-data` with the file field
 * {@link TRANSFER_ARCHIVE_FIELD} (a tar.gz of the server's files), then the field {@link TRANSFER_CHECKSUM_FIELD}
 * (hex SHA-256 of the archive's bytes). Answered 200 once the target has the files and the panel knows; any other
 * answer is a failure the source reports.
 *
 * Panel → target daemon (node token): `DELETE /api/transfers/{uuid}` → 202: cancels an incoming transfer.
 *
 * Daemons → panel (`/api/remote`, the node's `token_id.token`):
 * - `POST /servers/{uuid}/transfer/success` (target only) → 204: the panel moves the server and deletes it on the source;
 * - `POST /servers/{uuid}/transfer/failure` {@link RemoteTransferFailure} (either node) → 204.
 *
 * Socket: `transfer status` ({@link TransferStatus}) to every socket, `transfer logs` (progress lines) to holders of
 * `admin.websocket.transfer`.
 */
export interface DaemonTransferRequest {
  /** The target daemon's `POST /api/transfers` URL. */
  url: string;
  /** `Bearer <JWT>`, sent as the Authorization header to `url`. */
  token: string;
  server: { uuid: string; start_on_completion: boolean };
}

export const TRANSFER_ARCHIVE_FIELD = 'archive';
export const TRANSFER_CHECKSUM_FIELD = 'checksum';
export const TRANSFER_PURPOSE = 'transfer';

/** What the panel signs for the target. `sub` is Wings' claim; the others make it an Aerie daemon token too. */
export interface TransferTokenClaims {
  sub: string;
  server_uuid: string;
  purpose: typeof TRANSFER_PURPOSE;
  unique_id: string;
  iat: number;
  nbf: number;
  exp: number;
}

export interface RemoteTransferFailure {
  /** Why, in words for the admin (shown on the server's Manage tab). */
  reason?: string;
}

/** How long a transfer token lasts (Wings and Pterodactyl: 15 minutes). */
export const TRANSFER_TOKEN_SECONDS = 15 * 60;
