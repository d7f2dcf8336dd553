import { apiClient } from '@/lib/api-client';

/** Replaces a file's contents (`POST …/files/write?file=`, raw body), e.g. eula.txt for the eula feature. */
export async function writeServerFile(serverId: string, file: string, contents: string): Promise<void> {
  await apiClient.post(`/api/client/servers/${encodeURIComponent(serverId)}/files/write`, undefined, {
    params: { file },
    rawBody: contents,
  });
}
