import { useEffect, useState } from 'react';
import { Spinner } from '@/components/ui/spinner';

/** The QR code library is only needed while the two-factor setup shows, so it is its own chunk. */
async function renderQrSvg(value: string): Promise<string> {
  const { toString: renderQr } = await import('qrcode');
  return await renderQr(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
}

interface QrCodeProps {
  value: string;
  alt: string;
  className?: string;
}

/** A QR code of `value`, drawn as SVG (no canvas needed) on a white tile so phone cameras can read it. */
export function QrCode({ value, alt, className }: QrCodeProps) {
  const [svg, setSvg] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    setSvg(null);
    renderQrSvg(value).then(
      (rendered) => current && setSvg(rendered),
      (error: unknown) => console.error('Could not draw the QR code.', error),
    );
    return () => {
      current = false;
    };
  }, [value]);

  return (
    <div className={className}>
      <div className="flex size-48 items-center justify-center rounded-lg bg-white p-2 text-ink-700">
        {svg ? (
          <img src={`data:image/svg+xml;utf8,${encodeURIComponent(svg)}`} alt={alt} className="size-full" />
        ) : (
          <Spinner size="base" />
        )}
      </div>
    </div>
  );
}
