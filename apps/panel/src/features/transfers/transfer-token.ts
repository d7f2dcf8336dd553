import { randomAlphanumeric } from '@aerie/panel/crypto/tokens';
import type { NodeRecord } from '@aerie/panel/features/nodes/node-record';
import { nodeAddress } from '@aerie/panel/features/nodes/nodes.service';
import {
  TRANSFER_PURPOSE,
  TRANSFER_TOKEN_SECONDS,
  type TransferTokenClaims,
} from '@aerie/shared/transfers/transfers-daemon-wire';
import { SignJWT } from 'jose';

/**
 * The token the source daemon shows the target (reference/wings.md §1.5): HS256 with the **target** node's plain
 * token, as every daemon JWT is signed with its node's token (console/daemon-jwt.ts), Wings' `sub` and Aerie's
 * `server_uuid` both naming the server, purpose `transfer`, valid from now for TRANSFER_TOKEN_SECONDS. `iss` and
 * `aud` are those of the panel's other daemon tokens.
 */
export async function signTransferToken(input: {
  target: Pick<NodeRecord, 'scheme' | 'fqdn' | 'daemonListen'>;
  /** The target node's plain token: its bytes are the HS256 key. */
  targetToken: string;
  serverUuid: string;
  /** The panel's APP_URL. */
  issuer: string;
  now: Date;
}): Promise<string> {
  const iat = Math.floor(input.now.getTime() / 1000);
  const claims: TransferTokenClaims = {
    sub: input.serverUuid,
    server_uuid: input.serverUuid,
    purpose: TRANSFER_PURPOSE,
    unique_id: randomAlphanumeric(16),
    iat,
    nbf: iat,
    exp: iat + TRANSFER_TOKEN_SECONDS,
  };
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(input.issuer)
    .setAudience(nodeAddress(input.target))
    .sign(new TextEncoder().encode(input.targetToken));
}
