import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The quiet links under the sign-in forms ('Forgot password?', 'Return to Login'). */
export function AuthLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="text-xs font-medium uppercase tracking-wider text-ink-400 transition-colors hover:text-brand-300"
    >
      {children}
    </Link>
  );
}
