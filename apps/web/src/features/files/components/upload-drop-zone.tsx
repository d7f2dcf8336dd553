import { type DragEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

const hasFiles = (event: DragEvent) => [...event.dataTransfer.types].includes('Files');

/** Files dropped anywhere on the page are uploaded; an overlay shows while they hover. */
export function UploadDropZone({
  onFiles,
  children,
}: {
  onFiles: (files: File[]) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('server');
  const [over, setOver] = useState(false);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping files is a mouse shortcut; the Upload button covers the keyboard.
    <div
      data-testid="file-drop-zone"
      className="relative"
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setOver(false);
        onFiles([...event.dataTransfer.files]);
      }}
    >
      {children}
      {over && (
        <div className="pointer-events-none absolute inset-0 z-30 flex items-center justify-center rounded-xl border-2 border-dashed border-brand-400 bg-ink-950/80 text-sm font-semibold text-brand-200">
          {t('files.drop_hint')}
        </div>
      )}
    </div>
  );
}
