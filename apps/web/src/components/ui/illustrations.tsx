/** The two illustrations of the spec: a not-found state and a server-down state. Decorative. */

export function NotFoundIllustration({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 240 160" className={className} aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="nf-sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#0ea5e9" stopOpacity="0.25" />
          <stop offset="1" stopColor="#0ea5e9" stopOpacity="0" />
        </linearGradient>
      </defs>
      <circle cx="120" cy="80" r="72" fill="url(#nf-sky)" />
      <path d="M24 132 82 52l26 36 16-20 92 64Z" fill="#1a2030" stroke="#283043" strokeWidth="2" />
      <path d="M82 52 72 66l10-4 8 8Z" fill="#c5cedd" opacity="0.6" />
      <path
        d="M60 140c18-10 30-4 44-12s22-22 40-18 26 14 44 10"
        fill="none"
        stroke="#38bdf8"
        strokeWidth="3"
        strokeDasharray="2 9"
        strokeLinecap="round"
      />
      <circle cx="188" cy="120" r="14" fill="#0f1420" stroke="#38bdf8" strokeWidth="3" />
      <path
        d="M184 115a4.5 4.5 0 1 1 5.5 4.4c-1 .3-1.5 1-1.5 2v1M188 126.5v.5"
        stroke="#7dd3fc"
        strokeWidth="2.4"
        fill="none"
        strokeLinecap="round"
      />
    </svg>
  );
}

export function ServerDownIllustration({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 240 160" className={className} aria-hidden="true" focusable="false">
      <circle cx="120" cy="80" r="72" fill="#ef4444" opacity="0.08" />
      <rect x="62" y="36" width="116" height="34" rx="8" fill="#1a2030" stroke="#283043" strokeWidth="2" />
      <rect x="62" y="82" width="116" height="34" rx="8" fill="#1a2030" stroke="#283043" strokeWidth="2" />
      <circle cx="80" cy="53" r="4" fill="#22c55e" />
      <circle cx="80" cy="99" r="4" fill="#ef4444" />
      <path d="M96 53h60M96 99h60" stroke="#3b4458" strokeWidth="4" strokeLinecap="round" />
      <path d="M120 122v14M104 140h32" stroke="#3b4458" strokeWidth="3" strokeLinecap="round" />
      <path d="m168 92 14 14m0-14-14 14" stroke="#f87171" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
