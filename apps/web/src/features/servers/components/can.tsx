import { canAll, canAny } from '@aerie/shared/permissions/can';
import type { ReactNode } from 'react';
import { useServerPermissions } from '@/features/servers/hooks/use-server';

interface CanProps {
  /** One permission or several; with several, all are needed unless `matchAny` is set. */
  action: string | readonly string[];
  matchAny?: boolean;
  /** Rendered instead of the children when the user lacks the permission. */
  fallback?: ReactNode;
  children: ReactNode;
}

/** Shows its children only to users holding the permission(s) on the open server (spec §6). */
export function Can({ action, matchAny = false, fallback = null, children }: CanProps) {
  const held = useServerPermissions();
  const wanted = typeof action === 'string' ? [action] : action;
  const allowed = matchAny ? canAny(held, wanted) : canAll(held, wanted);
  return <>{allowed ? children : fallback}</>;
}
