import type { CreateBackupBody, RestoreBackupBody } from '@aerie/shared/backups/backups-bodies';
import type { BackupCompletedEvent } from '@aerie/shared/backups/backups-daemon-wire';
import type {
  BackupAttributes,
  BackupDownloadResponse,
  BackupListResponse,
  BackupResponse,
} from '@aerie/shared/backups/backups-wire';
import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { serverCache } from '@/features/servers/api/server-cache';
import { serverKeys } from '@/features/servers/api/servers';
import { type PaginatedResult, toPagination } from '@/features/servers/api/transformers';
import { apiClient } from '@/lib/api-client';

/** A backup of the server (spec §3 "Backup"). */
export interface Backup {
  uuid: string;
  name: string;
  isSuccessful: boolean;
  isLocked: boolean;
  ignoredFiles: string[];
  /** `sha1:<hex>`; null until it completed successfully. */
  checksum: string | null;
  /** The archive's size; 0 until it completed successfully. */
  bytes: number;
  createdAt: Date;
  /** Null while the backup runs. */
  completedAt: Date | null;
}

/** A page of backups, and how many of the server's backups count against its limit (running or successful). */
export interface BackupPage extends PaginatedResult<Backup> {
  backupCount: number;
}

export const toBackup = (attributes: BackupAttributes): Backup => ({
  uuid: attributes.uuid,
  name: attributes.name,
  isSuccessful: attributes.is_successful,
  isLocked: attributes.is_locked,
  ignoredFiles: attributes.ignored_files,
  checksum: attributes.checksum,
  bytes: attributes.bytes,
  createdAt: new Date(attributes.created_at),
  completedAt: attributes.completed_at ? new Date(attributes.completed_at) : null,
});

/** Running: no completion time yet. */
export const isRunning = (backup: Pick<Backup, 'completedAt'>) => backup.completedAt === null;

/** Finished without success: it offers only delete (spec §4). */
export const hasFailed = (backup: Pick<Backup, 'completedAt' | 'isSuccessful'>) =>
  backup.completedAt !== null && !backup.isSuccessful;

const base = (serverId: string) => `/api/client/servers/${encodeURIComponent(serverId)}/backups`;
const one = (serverId: string, uuid: string) => `${base(serverId)}/${encodeURIComponent(uuid)}`;

/** Under the server's key, so leaving the server drops them with everything else. */
export const backupKeys = {
  all: (serverId: string) => [...serverKeys.detail(serverId), 'backups'] as const,
  page: (serverId: string, page: number) => [...backupKeys.all(serverId), 'page', page] as const,
};

/** GET …/backups?page={n}: 20 a page, and `meta.backup_count`. */
export async function getBackups(serverId: string, page: number, signal?: AbortSignal): Promise<BackupPage> {
  const response = await apiClient.get<BackupListResponse>(base(serverId), { params: { page }, signal });
  return {
    items: response.data.map(({ attributes }) => toBackup(attributes)),
    pagination: toPagination(response.meta.pagination),
    backupCount: response.meta.backup_count,
  };
}

/**
 * POST …/backups: the backup starts on the node; the answer is the running backup. A null name lets the panel name it
 * `Backup at …`; blank ignore rules let the daemon read the ignore file in the server's root.
 */
export async function createBackup(serverId: string, body: CreateBackupBody): Promise<Backup> {
  const response = await apiClient.post<BackupResponse>(base(serverId), body);
  return toBackup(response.attributes);
}

/** GET …/backups/{backup}/download: where the browser goes to download it. */
export async function getBackupDownloadUrl(serverId: string, uuid: string): Promise<string> {
  const response = await apiClient.get<BackupDownloadResponse>(`${one(serverId, uuid)}/download`);
  return response.attributes.url;
}

/** POST …/backups/{backup}/restore: 204; the server is `restoring_backup` until the daemon says it is done. */
export async function restoreBackup(serverId: string, uuid: string, truncate: boolean): Promise<void> {
  await apiClient.post(`${one(serverId, uuid)}/restore`, { truncate } satisfies RestoreBackupBody);
}

/** POST …/backups/{backup}/lock: toggles the lock; the answer is the backup as it now is. */
export async function toggleBackupLock(serverId: string, uuid: string): Promise<Backup> {
  const response = await apiClient.post<BackupResponse>(`${one(serverId, uuid)}/lock`);
  return toBackup(response.attributes);
}

/** DELETE …/backups/{backup} */
export async function deleteBackup(serverId: string, uuid: string): Promise<void> {
  await apiClient.delete(one(serverId, uuid));
}

export const backupsQueryOptions = (serverId: string, page: number) =>
  queryOptions({
    queryKey: backupKeys.page(serverId, page),
    queryFn: ({ signal }) => getBackups(serverId, page, signal),
    // The old page stays on screen while the next one loads, so the list does not jump.
    placeholderData: keepPreviousData,
    // The node's `backup completed` event ends a running backup at once; this catches one sent while the page's
    // socket was not listening (a small backup can finish before it authenticated), so no spinner is left for good.
    refetchInterval: (query) => (query.state.data?.items.some(isRunning) ? RUNNING_REFETCH_MS : false),
  });

/** How often a page showing a running backup asks the panel again. */
export const RUNNING_REFETCH_MS = 5000;

/** Changes every cached page of the server's backups. */
function updateCachedPages(
  queryClient: QueryClient,
  serverId: string,
  change: (page: BackupPage) => BackupPage,
) {
  queryClient.setQueriesData<BackupPage>(
    { queryKey: backupKeys.all(serverId) },
    (page) => page && change(page),
  );
}

/** Changes one backup wherever it is cached. */
function updateCachedBackup(
  queryClient: QueryClient,
  serverId: string,
  uuid: string,
  change: (backup: Backup) => Backup,
) {
  updateCachedPages(queryClient, serverId, (page) => ({
    ...page,
    items: page.items.map((backup) => (backup.uuid === uuid ? change(backup) : backup)),
  }));
}

/** `args[0]` of `backup completed:<uuid>`: the daemon's JSON; null when it cannot be read. */
export function parseBackupCompleted(raw: string | undefined): BackupCompletedEvent | null {
  try {
    const event: unknown = JSON.parse(raw ?? '');
    if (typeof event !== 'object' || event === null || !('is_successful' in event)) return null;
    const { uuid, is_successful, checksum, checksum_type, file_size } =
      event as Partial<BackupCompletedEvent>;
    return {
      uuid: typeof uuid === 'string' ? uuid : '',
      is_successful: is_successful === true,
      checksum: typeof checksum === 'string' ? checksum : '',
      checksum_type: checksum_type ?? 'sha1',
      file_size: typeof file_size === 'number' && Number.isFinite(file_size) ? file_size : 0,
    };
  } catch {
    return null;
  }
}

/**
 * `backup completed:<uuid>` (spec §4): the row takes the flag, checksum and size, and now as its completion time. A
 * failed backup no longer counts against the limit (`backup_count` counts running and successful ones).
 */
export function completeCachedBackup(
  queryClient: QueryClient,
  serverId: string,
  event: BackupCompletedEvent,
) {
  const successful = event.is_successful === true;
  let wasRunning = false;
  updateCachedBackup(queryClient, serverId, event.uuid, (backup) => {
    wasRunning ||= isRunning(backup);
    return {
      ...backup,
      isSuccessful: successful,
      checksum: successful && event.checksum ? `${event.checksum_type}:${event.checksum}` : null,
      bytes: successful ? event.file_size : 0,
      completedAt: new Date(),
    };
  });
  if (!successful && wasRunning) {
    updateCachedPages(queryClient, serverId, (page) => ({
      ...page,
      backupCount: Math.max(0, page.backupCount - 1),
    }));
  }
}

/**
 * Starts a backup: the running backup joins the page on screen at once and the count goes up, then the pages load
 * again (the panel decides where it sits).
 */
export function useCreateBackup(serverId: string, page: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateBackupBody) => createBackup(serverId, body),
    onSuccess: async (created) => {
      await queryClient.cancelQueries({ queryKey: backupKeys.all(serverId) });
      updateCachedPages(queryClient, serverId, (cached) => ({
        ...cached,
        backupCount: cached.backupCount + 1,
      }));
      queryClient.setQueryData<BackupPage>(backupKeys.page(serverId, page), (cached) =>
        cached && !cached.items.some((backup) => backup.uuid === created.uuid)
          ? { ...cached, items: [...cached.items, created] }
          : cached,
      );
      void queryClient.invalidateQueries({ queryKey: backupKeys.all(serverId) });
    },
  });
}

/** Lock toggles at once; unlocking is confirmed first by the page. The answer replaces the row. */
export function useToggleBackupLock(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uuid: string) => toggleBackupLock(serverId, uuid),
    onSuccess: (saved) =>
      updateCachedBackup(queryClient, serverId, saved.uuid, (backup) => ({
        ...backup,
        isLocked: saved.isLocked,
      })),
  });
}

/** Deletes a backup: it leaves the list and the count at once, then the pages load again to fill the gap. */
export function useDeleteBackup(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (backup: Backup) => deleteBackup(serverId, backup.uuid),
    onSuccess: async (_nothing, deleted) => {
      await queryClient.cancelQueries({ queryKey: backupKeys.all(serverId) });
      const counted = !hasFailed(deleted);
      updateCachedPages(queryClient, serverId, (page) => ({
        ...page,
        items: page.items.filter((backup) => backup.uuid !== deleted.uuid),
        backupCount: counted ? Math.max(0, page.backupCount - 1) : page.backupCount,
      }));
      void queryClient.invalidateQueries({ queryKey: backupKeys.all(serverId) });
    },
  });
}

/** Restores a backup; the server is `restoring_backup` from then on, so the area shows the restoring screen. */
export function useRestoreBackup(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, truncate }: { uuid: string; truncate: boolean }) =>
      restoreBackup(serverId, uuid, truncate),
    onSuccess: () => serverCache.setStatus(queryClient, serverId, 'restoring_backup'),
  });
}

/** GET …/download, then the browser goes there. */
export function useBackupDownload(serverId: string) {
  return useMutation({ mutationFn: (uuid: string) => getBackupDownloadUrl(serverId, uuid) });
}
