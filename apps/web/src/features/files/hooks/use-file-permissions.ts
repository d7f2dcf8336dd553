import { canAll } from '@aerie/shared/permissions/can';
import { useServerPermissions } from '@/features/servers/hooks/use-server';

/** Which file actions the user may take (spec §6), read once per render instead of one `Can` per control. */
export function useFilePermissions() {
  const held = useServerPermissions();
  const can = (permission: string) => canAll(held, [permission]);
  return {
    create: can('file.create'),
    update: can('file.update'),
    delete: can('file.delete'),
    archive: can('file.archive'),
    readContent: can('file.read-content'),
  };
}
