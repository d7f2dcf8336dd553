import { type DaemonJwtInput, signDaemonJwt } from '@aerie/panel/features/console/daemon-jwt';
import { nodeAddress } from '@aerie/panel/features/nodes/nodes.service';
import { FILE_DOWNLOAD_PURPOSE, FILE_UPLOAD_PURPOSE, fileLimits } from '@aerie/shared/files/file-wire';

type SignedUrlInput = Omit<DaemonJwtInput, 'ttlSeconds' | 'purpose' | 'claims'>;

/**
 * `<node>/download/file?token=`: a 15-minute, single-use `file_download` token naming the file (`file_path`, the
 * path as the client sent it, URL-decoded by the query parser).
 */
export async function fileDownloadUrl(input: SignedUrlInput & { file: string }): Promise<string> {
  const { file, ...rest } = input;
  const token = await signDaemonJwt({
    ...rest,
    ttlSeconds: fileLimits.signedUrlTtlSeconds,
    purpose: FILE_DOWNLOAD_PURPOSE,
    claims: { file_path: file },
  });
  return `${nodeAddress(input.node)}/download/file?token=${token}`;
}

/** `<node>/upload/file?token=`: a 15-minute `file_upload` token; the client adds `&directory=` and posts files. */
export async function fileUploadUrl(input: SignedUrlInput): Promise<string> {
  const token = await signDaemonJwt({
    ...input,
    ttlSeconds: fileLimits.signedUrlTtlSeconds,
    purpose: FILE_UPLOAD_PURPOSE,
  });
  return `${nodeAddress(input.node)}/upload/file?token=${token}`;
}
