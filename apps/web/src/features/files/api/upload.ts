import { messageFromBody } from '@/lib/api-client';

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * Posts one file as multipart field `files` to the daemon's signed URL, into `directory`. XMLHttpRequest, not
 * fetch, because only it reports upload progress.
 */
export function uploadFile(
  signedUrl: string,
  directory: string,
  file: File,
  onProgress: (progress: UploadProgress) => void,
): Promise<void> {
  const url = `${signedUrl}${signedUrl.includes('?') ? '&' : '?'}directory=${encodeURIComponent(directory)}`;
  const form = new FormData();
  form.append('files', file, file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total });
    });
    xhr.addEventListener('load', () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress({ loaded: file.size, total: file.size });
        resolve();
        return;
      }
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // The daemon answered with text: the generic message explains it better.
      }
      reject(new Error(messageFromBody(body)));
    });
    xhr.addEventListener('error', () => reject(new Error(messageFromBody(undefined))));
    xhr.send(form);
  });
}
