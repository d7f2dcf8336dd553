import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';

/** Opens the browser's file picker; the chosen files go to `onFiles`. */
export function UploadButton({ onFiles }: { onFiles: (files: File[]) => void }) {
  const { t } = useTranslation('server');
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="upload-input"
        onChange={(event) => {
          onFiles([...(event.target.files ?? [])]);
          // Picking the same file again must fire a change too.
          event.target.value = '';
        }}
      />
      <Button variant="secondary" size="sm" onClick={() => input.current?.click()}>
        {t('files.upload')}
      </Button>
    </>
  );
}
