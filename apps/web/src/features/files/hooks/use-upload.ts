import { useState } from 'react';
import { getUploadUrl } from '@/features/files/api/files';
import { uploadFile } from '@/features/files/api/upload';
import { filesFlashKey } from '@/features/files/hooks/use-file-actions';
import { useFileList } from '@/features/files/hooks/use-file-list';
import { useServer } from '@/features/servers/hooks/use-server';
import { flashActions } from '@/stores/flash-store';

export interface UploadState {
  name: string;
  /** 0 to 100. */
  percent: number;
}

/**
 * Uploads files into `directory`: per file, a signed URL (the daemon takes each once) and a multipart POST, so
 * each reports its progress.
 * The listing reloads once they are all done, whether or not one failed.
 */
export function useUpload(directory: string) {
  const server = useServer();
  const list = useFileList(directory);
  const [uploads, setUploads] = useState<UploadState[]>([]);

  const setPercent = (name: string, percent: number) =>
    setUploads((current) =>
      current.map((upload) => (upload.name === name ? { ...upload, percent } : upload)),
    );

  const upload = async (files: File[]) => {
    if (files.length === 0) return;
    flashActions().clearFlashes(filesFlashKey);
    setUploads(files.map((file) => ({ name: file.name, percent: 0 })));
    try {
      // A signed URL opens the daemon once: each file gets its own.
      await Promise.all(
        files.map(async (file) =>
          uploadFile(await getUploadUrl(server.id), directory, file, ({ loaded, total }) =>
            setPercent(file.name, total > 0 ? Math.round((loaded / total) * 100) : 100),
          ),
        ),
      );
    } catch (error) {
      flashActions().clearAndAddHttpError({ key: filesFlashKey, error });
    } finally {
      setUploads([]);
      void list.reload();
    }
  };

  return { upload, uploads };
}
