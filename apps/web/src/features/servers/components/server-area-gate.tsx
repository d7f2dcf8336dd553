import { canAll, canAny } from '@aerie/shared/permissions/can';
import type { ReactNode } from 'react';
import { isInConflictState } from '@/features/servers/api/transformers';
import { AccessDenied } from '@/features/servers/components/access-denied';
import { ConflictStateView } from '@/features/servers/components/conflict-state-view';
import { useServerContext } from '@/features/servers/hooks/use-server';

interface ServerAreaGateProps {
  /** Permissions the current page needs (all of them, or one with `matchAny`); none for pages without one. */
  permission?: readonly string[] | undefined;
  matchAny?: boolean;
  /** The bare server page (console), where root admins look past a conflict state. */
  isConsole: boolean;
  rootAdmin: boolean;
  /** The page's flash key, whose notices the blocked view keeps showing. */
  flashKey?: string;
  children: ReactNode;
}

/** Decides what the server area shows for the current page: a blocked view, Access Denied, or the page. */
export function ServerAreaGate({
  permission,
  matchAny = false,
  isConsole,
  rootAdmin,
  flashKey,
  children,
}: ServerAreaGateProps) {
  const { server, permissions } = useServerContext();
  if (isInConflictState(server) && !(rootAdmin && isConsole)) {
    return <ConflictStateView server={server} flashKey={flashKey} />;
  }
  if (permission && !(matchAny ? canAny : canAll)(permissions, permission)) return <AccessDenied />;
  return <>{children}</>;
}
