import { useTranslation } from 'react-i18next';
import { ServerContentBlock } from '@/features/servers/components/server-content-block';
import { subusersFlashKey } from '@/features/subusers/components/subusers-flash-keys';
import { UsersPage } from '@/features/subusers/components/users-page';

/** /server/:id/users — the server's subusers and their permissions. */
export function UsersRoute() {
  const { t } = useTranslation('server');
  return (
    <ServerContentBlock title={t('title.users')} showFlashKey={subusersFlashKey}>
      <UsersPage />
    </ServerContentBlock>
  );
}
