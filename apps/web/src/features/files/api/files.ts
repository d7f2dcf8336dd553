import {
  type ChmodFilesBody,
  type CompressFilesBody,
  type CopyFileBody,
  type CreateFolderBody,
  type DecompressFileBody,
  type DeleteFilesBody,
  type FileListResponse,
  type FileObject,
  fileLimits,
  type PullFileBody,
  type RenameFilesBody,
  type SignedUrlResponse,
} from '@aerie/shared/files/file-wire';
import { queryOptions } from '@tanstack/react-query';
import { type FileEntry, sortFiles, toFileEntry } from '@/features/files/api/transformers';
import { serverKeys } from '@/features/servers/api/servers';
import { apiClient } from '@/lib/api-client';

const base = (serverId: string) => `/api/client/servers/${encodeURIComponent(serverId)}/files`;

/** Under the server's key, so leaving the server drops the listings with everything else. */
export const fileKeys = {
  all: (serverId: string) => [...serverKeys.detail(serverId), 'files'] as const,
  list: (serverId: string, directory: string) => [...fileKeys.all(serverId), 'list', directory] as const,
  contents: (serverId: string, file: string) => [...fileKeys.all(serverId), 'contents', file] as const,
};

/**
 * Time-outs of the archive calls (spec §9). A mutable object so tests can shorten them instead of waiting a minute.
 */
export const archiveTimeouts: { compressMs: number; decompressMs: number } = {
  compressMs: fileLimits.compressTimeoutMs,
  decompressMs: fileLimits.decompressTimeoutMs,
};

export async function listFiles(serverId: string, directory: string, signal?: AbortSignal) {
  const response = await apiClient.get<FileListResponse>(`${base(serverId)}/list`, {
    params: { directory },
    signal,
  });
  return sortFiles(response.data.map(({ attributes }) => toFileEntry(attributes)));
}

export const fileListQueryOptions = (serverId: string, directory: string) =>
  queryOptions({
    queryKey: fileKeys.list(serverId, directory),
    queryFn: ({ signal }) => listFiles(serverId, directory, signal),
    // Spec §9: coming back to the tab refreshes at most every 30 s; two retries (none for a 4xx) before the error page,
    // which the API client makes (its default for reads), within the call's 20 s.
    staleTime: 30_000,
    refetchOnWindowFocus: true,
  });

export const renameFiles = (serverId: string, body: RenameFilesBody) =>
  apiClient.put<void>(`${base(serverId)}/rename`, body);

export const deleteFiles = (serverId: string, body: DeleteFilesBody) =>
  apiClient.post<void>(`${base(serverId)}/delete`, body);

export const chmodFiles = (serverId: string, body: ChmodFilesBody) =>
  apiClient.post<void>(`${base(serverId)}/chmod`, body);

export const copyFile = (serverId: string, body: CopyFileBody) =>
  apiClient.post<void>(`${base(serverId)}/copy`, body);

export const createFolder = (serverId: string, body: CreateFolderBody) =>
  apiClient.post<void>(`${base(serverId)}/create-folder`, body);

export async function compressFiles(serverId: string, body: CompressFilesBody): Promise<FileEntry> {
  const response = await apiClient.post<FileObject>(`${base(serverId)}/compress`, body, {
    timeoutMs: archiveTimeouts.compressMs,
  });
  return toFileEntry(response.attributes);
}

export const decompressFile = (serverId: string, body: DecompressFileBody) =>
  apiClient.post<void>(`${base(serverId)}/decompress`, body, { timeoutMs: archiveTimeouts.decompressMs });

/** As long as the panel waits for the node's foreground pull (15 minutes). */
export const pullTimeoutMs = 15 * 60_000;

/** `POST …/files/pull`; with `foreground` it answers once the file is whole (or with why it is not). */
export const pullFile = (serverId: string, body: PullFileBody) =>
  apiClient.post<void>(`${base(serverId)}/pull`, body, { timeoutMs: pullTimeoutMs });

/** A signed daemon URL (15 minutes) the browser opens to download the file. */
export async function getDownloadUrl(serverId: string, file: string): Promise<string> {
  const response = await apiClient.get<SignedUrlResponse>(`${base(serverId)}/download`, { params: { file } });
  return response.attributes.url;
}

/** A signed daemon URL the files are posted to. */
export async function getUploadUrl(serverId: string): Promise<string> {
  const response = await apiClient.get<SignedUrlResponse>(`${base(serverId)}/upload`);
  return response.attributes.url;
}

/** The raw text of a file (the answer is text/plain, which the client hands back as is unless it parses as JSON). */
export async function getFileContents(serverId: string, file: string, signal?: AbortSignal): Promise<string> {
  const body = await apiClient.request<unknown>('GET', `${base(serverId)}/contents`, {
    params: { file },
    signal,
    raw: true,
    // The editor shows a failed load with Back at once (spec: "File content load fails: error page with Back").
    retries: 0,
  });
  return typeof body === 'string' ? body : '';
}

export const writeFileContents = (serverId: string, file: string, contents: string) =>
  apiClient.post<void>(`${base(serverId)}/write`, undefined, { params: { file }, rawBody: contents });
