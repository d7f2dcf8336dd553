import type { ReactNode } from 'react';

/** A label and its value in a box's definition list. */
export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2 text-sm">
      <dt className="text-ink-400">{label}</dt>
      <dd className="min-w-0 font-mono text-ink-100">{children}</dd>
    </div>
  );
}
