/** Inline icons (no icon font, no requests): decorative, hidden from screen readers. */
type P = { size?: number; className?: string };

const base = (size: number, className?: string) => ({
  width: size,
  height: size,
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round" as const,
  strokeLinejoin: "round" as const,
  "aria-hidden": true,
  focusable: false,
  className,
});

/** Four rounded squares turned 45°: evokes PIX without copying the Banco Central's mark. */
export function PixIcon({ size = 22, className }: P) {
  return (
    <svg {...base(size, className)} strokeWidth={1.8}>
      <path d="M12 2.8 16.4 7.2 12 11.6 7.6 7.2Z M12 12.4 16.4 16.8 12 21.2 7.6 16.8Z M2.8 12 7.2 7.6 11.6 12 7.2 16.4Z M12.4 12 16.8 7.6 21.2 12 16.8 16.4Z" />
    </svg>
  );
}

export function BoletoIcon({ size = 22, className }: P) {
  return (
    <svg {...base(size, className)}>
      <path d="M4 5v14M7 5v14M10 5v14M14 5v14M16 5v14M20 5v14" />
    </svg>
  );
}

export function CardIcon({ size = 22, className }: P) {
  return (
    <svg {...base(size, className)}>
      <rect x="2.5" y="5" width="19" height="14" rx="2.5" />
      <path d="M2.5 10h19M6.5 15h4" />
    </svg>
  );
}

export function LockIcon({ size = 16, className }: P) {
  return (
    <svg {...base(size, className)}>
      <rect x="4.5" y="10.5" width="15" height="10" rx="2" />
      <path d="M8 10.5V7.5a4 4 0 0 1 8 0v3" />
    </svg>
  );
}

export function ClockIcon({ size = 18, className }: P) {
  return (
    <svg {...base(size, className)}>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </svg>
  );
}

export function CheckIcon({ size = 40, className }: P) {
  return (
    <svg {...base(size, className)} strokeWidth={2.6}>
      <path d="m5 12.5 4.5 4.5L19 7.5" />
    </svg>
  );
}

export function AlertIcon({ size = 36, className }: P) {
  return (
    <svg {...base(size, className)}>
      <path d="M12 8v5m0 3.5v.01M10.3 3.9 2.4 17.5A2 2 0 0 0 4.1 20.5h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" />
    </svg>
  );
}

export function XIcon({ size = 36, className }: P) {
  return (
    <svg {...base(size, className)} strokeWidth={2.4}>
      <path d="M7 7l10 10M17 7 7 17" />
    </svg>
  );
}

export function UndoIcon({ size = 36, className }: P) {
  return (
    <svg {...base(size, className)}>
      <path d="M9 14 4 9l5-5" />
      <path d="M4 9h10.5a5.5 5.5 0 0 1 0 11H11" />
    </svg>
  );
}

export function DownloadIcon({ size = 20, className }: P) {
  return (
    <svg {...base(size, className)}>
      <path d="M12 4v11m0 0-4.5-4.5M12 15l4.5-4.5M5 19.5h14" />
    </svg>
  );
}

export function GlobeIcon({ size = 16, className }: P) {
  return (
    <svg {...base(size, className)}>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" />
    </svg>
  );
}

export function FlaskIcon({ size = 18, className }: P) {
  return (
    <svg {...base(size, className)}>
      <path d="M9 3h6M10 3v6L4.5 18.5A1.7 1.7 0 0 0 6 21h12a1.7 1.7 0 0 0 1.5-2.5L14 9V3" />
      <path d="M7 15h10" />
    </svg>
  );
}

export function ChevronDownIcon({ size = 18, className }: P) {
  return (
    <svg {...base(size, className)}>
      <path d="m6 9 6 6 6-6" />
    </svg>
  );
}

export function ArrowLeftIcon({ size = 18, className }: P) {
  return (
    <svg {...base(size, className)}>
      <path d="M19 12H5m6-6-6 6 6 6" />
    </svg>
  );
}
