/** Arara's mark: three macaw feathers (red, yellow, blue). Decorative: the name is always beside it. */
export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#0f766e" />
      <path d="M9 24c0-7 3-12 9-15-2 5-3 10-3 15H9z" fill="#ef4444" />
      <path d="M14 24c0-6 3-10 8-12-1.5 4-2 8-2 12h-6z" fill="#facc15" />
      <path d="M19 24c0-4 2-7 5-8-.7 2.7-1 5.3-1 8h-4z" fill="#60a5fa" />
    </svg>
  );
}
